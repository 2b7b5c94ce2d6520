// The audio module through its JS API (wasm under node): synthesizing a ~300-frame utterance (the
// woodchuck sentence spoken slowly) and encoding it through the speech model's audio encoder
// (budget 5 ms together, including the calls and the copies), one decoding step over the encoder's
// positions (budget 50 µs, including the step record's copy), rendering its sound, and the size of
// the module the Listen view loads.
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadAudio, readModel } from '../js/load-audio.mjs';
import { emit, timeNs } from './timer.mjs';

const au = await loadAudio();
const section = 'audio module via the JS API (incl. call + copy)';
const request = { phrase: au.limits().woodchuck, seed: 1, rate: 0.84, noise: 0.1 };
const u = au.synthesize(request);
const T = u.frames.rows;
emit(
  section,
  `synthesize a ${T}-frame utterance`,
  'wasm',
  timeNs(() => au.synthesize(request)),
  0,
);
emit(
  section,
  `render its sound (${T * 160} samples at 16 kHz)`,
  'wasm',
  timeNs(() => au.renderAudio(u.frames)),
  0,
);

const name = 'speech-additive-bahdanau.safetensors';
if (existsSync(fileURLToPath(new URL(`../../web/models/${name}`, import.meta.url)))) {
  const model = au.AudioModel.load(readModel(name));
  emit(
    section,
    `synthesize + encode a ${T}-frame utterance`,
    'wasm',
    timeNs(() => model.encode(au.synthesize(request).frames)),
    0,
  );
  const session = model.listen(u.frames);
  const L = session.encoderStates().rows;
  const stepNs = timeNs(() => {
    if (session.done()) session.reset();
    session.step();
  });
  emit(section, `one decoding step (${L} positions)`, 'wasm', stepNs, 0);
  emit(
    section,
    'synthesize + encode + transcribe',
    'wasm',
    timeNs(() => {
      const s = model.listen(au.synthesize(request).frames);
      s.run();
      s.delete();
    }),
    0,
  );
  session.delete();
  model.delete();
} else console.error(`bench_listen: no ${name}, the model cases are left out`);

const wasm = fileURLToPath(new URL('../../build/wasm/audio.wasm', import.meta.url));
console.error(`size: build/wasm/audio.wasm is ${statSync(wasm).size} bytes (loaded when Listen opens)`);
