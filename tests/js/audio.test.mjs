// The audio module's bindings: the synthesizer's utterances (the same as the native build's),
// their sound (samples per frame, one band's sinusoid), listening sessions of the shipped speech
// models with the page module's step records over the encoder's positions, and coded errors for
// hostile values that leave the module working.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fnv1a, loadAudio, readModel } from './load-audio.mjs';

const au = await loadAudio();

function codeOf(f) {
  try {
    f();
  } catch (e) {
    return { code: e.code, message: e.message, details: e.details };
  }
  return null;
}

// The same list as tests/listen/test_utterance_fingerprint.cpp.
const REQUESTS = [
  {
    phrase: 'how much wood would a woodchuck chuck if a woodchuck could chuck wood',
    seed: 1,
    rate: 1,
    noise: 0.1,
  },
  { phrase: 'how much wood', seed: 7, rate: 0.5, noise: 0 },
  { phrase: 'a woodchuck could chuck', seed: 12345, rate: 2, noise: 1 },
  { phrase: 'Wood  Chuck', seed: 3, rate: 1.25, noise: 0.35 },
];

test('utterances equal the native build (the constant of tests/listen/test_utterance_fingerprint.cpp)', () => {
  let h = 1469598103934665603n;
  const text = new TextEncoder();
  for (const r of REQUESTS) {
    const u = au.synthesize(r);
    h = fnv1a(h, text.encode(u.text));
    h = fnv1a(h, [0xff]);
    h = fnv1a(
      h,
      Array.from(u.frames.data, (x) => Math.round(x * 64) & 0xff),
    );
    for (const s of u.spans) h = fnv1a(h, [s.letter.charCodeAt(0), s.begin & 0xff, s.end & 0xff]);
    h = fnv1a(h, [u.pitch + 1]);
  }
  assert.equal(h, 7408708020160785172n);
});

test('an utterance: frames T x 24 of levels / 64, spans tiling the transcript, the same for the same seed', () => {
  const u = au.synthesize(REQUESTS[0]);
  assert.equal(u.text, au.limits().woodchuck);
  assert.equal(u.frames.cols, 24);
  assert.equal(u.frames.data.length, u.frames.rows * 24);
  for (const x of u.frames.data) assert.equal(x * 64, Math.round(x * 64));
  assert.equal(u.spans.length, u.text.length);
  assert.deepEqual(
    u.spans.map((s) => s.letter),
    [...u.text],
  );
  for (let i = 1; i < u.spans.length; i++) assert.equal(u.spans[i].begin, u.spans[i - 1].end);
  assert.ok(u.spans.at(-1).end <= u.frames.rows);
  const again = au.synthesize(REQUESTS[0]);
  assert.deepEqual(again.frames.data, u.frames.data);
  // upper case and doubled spaces are the synthesizer's to normalise
  assert.equal(au.synthesize(REQUESTS[3]).text, 'wood chuck');
  // faster speech has fewer frames
  const slow = au.synthesize({ phrase: 'how much wood', seed: 2, rate: 0.5 });
  const fast = au.synthesize({ phrase: 'how much wood', seed: 2, rate: 2 });
  assert.ok(fast.spans.at(-1).end - fast.spans[0].begin < slow.spans.at(-1).end - slow.spans[0].begin);
  // the defaults are seed 1, rate 1, noise 0.1
  assert.deepEqual(au.synthesize({ phrase: REQUESTS[0].phrase }).frames.data, u.frames.data);
});

test('renderAudio: samples per frame = sampleRate / 100, in [-1, 1]; one band alone is its sinusoid', () => {
  const u = au.synthesize(REQUESTS[1]);
  const limits = au.limits();
  const pcm = au.renderAudio(u.frames);
  assert.ok(pcm instanceof Float32Array);
  assert.equal(limits.samplesPerFrame, limits.sampleRate / 100);
  assert.equal(pcm.length, u.frames.rows * limits.samplesPerFrame);
  assert.equal(au.renderAudio(u.frames, 8000).length, u.frames.rows * 80);
  assert.equal(au.renderAudio(u.frames.data, 48000).length, u.frames.rows * 480);
  for (const x of pcm) assert.ok(x >= -1 && x <= 1);
  assert.ok(
    pcm.some((x) => Math.abs(x) > 0.1),
    'the utterance is audible',
  );
  // 60 frames with energy in band 5 only: its sinusoid at 200 + 150 · 5 = 950 Hz (speech.cpp's band
  // frequencies), counted by zero crossings over the middle 0.4 s
  const frames = new Float32Array(60 * 24);
  for (let t = 0; t < 60; t++) frames[t * 24 + 5] = 2;
  const tone = au.renderAudio(frames);
  assert.equal(tone.length, 60 * 160);
  let crossings = 0;
  for (let i = 1601; i < 1600 + 6400; i++) if (tone[i - 1] < 0 !== tone[i] < 0) crossings++;
  assert.ok(Math.abs(crossings / 2 / 0.4 - 950) <= 5, `${crossings / 2 / 0.4} Hz`);
  // the limits name every band's frequency (the page's axis labels): the ones the tone is heard at
  assert.ok(limits.bandHz instanceof Float32Array);
  assert.equal(limits.bandHz.length, limits.bands);
  assert.equal(limits.bandHz[5], 950);
  assert.deepEqual(
    Array.from(limits.bandHz),
    Array.from({ length: 24 }, (_, b) => 200 + 150 * b),
  );
  // amplitude 2 / 16 (the engine's scaling into [-1, 1])
  assert.ok(Math.abs(Math.max(...tone.subarray(1600, 8000)) - 2 / 16) < 1e-3);
});

test('hostile values give coded errors naming what is wrong, and the module keeps working', () => {
  const handles = au.count_emval_handles();
  const unknown = codeOf(() => au.synthesize({ phrase: 'how much wud' }));
  assert.equal(unknown.code, 'unknown_token');
  assert.equal(unknown.details.word, 'wud');
  assert.match(unknown.message, /"wud" is not in the lexicon/);
  assert.equal(codeOf(() => au.synthesize({ phrase: '  ' })).code, 'empty_input');
  const rate = codeOf(() => au.synthesize({ phrase: 'wood', rate: 9 }));
  assert.equal(rate.code, 'bad_argument');
  assert.equal(rate.details.name, 'rate');
  assert.equal(codeOf(() => au.synthesize({ phrase: 'wood', noise: -1 })).details.name, 'noise');
  assert.equal(codeOf(() => au.synthesize({ phrase: 'wood', noise: NaN })).details.name, 'noise');
  assert.equal(codeOf(() => au.synthesize({ phrase: 'wood', rate: '1' })).details.name, 'rate');
  assert.equal(codeOf(() => au.synthesize({ phrase: 'wood', seed: -1 })).details.name, 'seed');
  assert.equal(codeOf(() => au.synthesize({ phrase: 'wood', seed: 1.5 })).details.name, 'seed');
  assert.equal(codeOf(() => au.synthesize({ phrase: 'wood', volume: 1 })).details.name, 'synthesize.volume');
  assert.equal(codeOf(() => au.synthesize({ phrase: 42 })).details.name, 'phrase');
  for (const bad of ['wood', null, undefined, [], 7])
    assert.equal(codeOf(() => au.synthesize(/** @type {any} */ (bad))).code, 'bad_argument', String(bad));
  const long = codeOf(() => au.synthesize({ phrase: 'woodchuck '.repeat(300) }));
  assert.equal(long.code, 'too_long');
  // a getter runs before the engine is entered: its throw is a coded error too
  const trap = {
    get phrase() {
      throw new Error('trap');
    },
  };
  assert.ok(codeOf(() => au.synthesize(trap)).code);
  // frames: the size is refused before anything is copied
  const huge = codeOf(() => au.renderAudio({ data: new Float32Array(24), rows: 1e9, cols: 24 }));
  assert.equal(huge.code, 'too_long');
  assert.equal(huge.details.limit, au.limits().maxFrames);
  assert.equal(codeOf(() => au.renderAudio(new Float32Array(24 * 481))).code, 'too_long');
  assert.equal(codeOf(() => au.renderAudio(new Float32Array(25))).details.name, 'frames');
  assert.equal(codeOf(() => au.renderAudio(new Float32Array(0))).details.name, 'frames');
  assert.equal(codeOf(() => au.renderAudio({ data: [1, 2], rows: 1, cols: 2 })).details.name, 'frames.cols');
  assert.equal(
    codeOf(() => au.renderAudio({ data: new Float32Array(24), rows: 2, cols: 24 })).details.name,
    'frames',
  );
  const nan = new Float32Array(48);
  nan[30] = NaN;
  assert.equal(codeOf(() => au.renderAudio(nan)).code, 'bad_argument');
  assert.equal(codeOf(() => au.renderAudio('frames')).details.name, 'frames');
  const rate44 = codeOf(() => au.renderAudio(new Float32Array(24), 44123));
  assert.equal(rate44.code, 'bad_argument');
  assert.equal(codeOf(() => au.renderAudio(new Float32Array(24), -5)).details.name, 'sampleRate');
  // still working, and no handle left behind
  assert.equal(au.synthesize({ phrase: 'wood' }).text, 'wood');
  assert.equal(au.count_emval_handles(), handles);
});

const MODEL = 'speech-additive-bahdanau.safetensors';

test('a listening session: the shipped model hears the woodchuck, its records span the encoder positions', () => {
  const model = au.AudioModel.load(readModel(MODEL));
  const info = model.info();
  assert.equal(info.task, 'speech');
  assert.equal(info.encoder, 'audio');
  assert.equal(info.reduction, 2 ** info.dims.reductions);
  assert.equal(info.dims.bands, 24);
  assert.ok(info.heldoutCer >= 0 && info.heldoutCer < 0.05, String(info.heldoutCer));
  assert.ok(info.monotonicity > 0.5 && info.monotonicity <= 1, String(info.monotonicity));
  assert.equal(info.heldoutCer, info.training.heldout_cer);
  const u = au.synthesize({ phrase: 'how much wood would a woodchuck chuck', seed: 3 });
  const run = model.listen(u.frames, { topK: 3 });
  const steps = run.run();
  assert.equal(run.outputText(), u.text);
  assert.deepEqual(run.outputTokens(), [...u.text]);
  assert.equal(steps.length, u.text.length + 1); // and the end token
  assert.equal(steps.at(-1).token, '</s>');
  const H = run.encoderStates();
  const r = run.reduction();
  assert.equal(r, info.reduction);
  assert.equal(H.rows, Math.ceil(u.frames.rows / r));
  assert.equal(H.cols, info.dims.encoderState);
  for (const step of steps) {
    assert.equal(step.weights.length, H.rows);
    assert.equal(step.scores.length, H.rows);
    assert.equal(step.top.length, 3);
    const sum = step.weights.reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-5);
    assert.ok(Math.abs(step.exps[4] / step.expSum - step.weights[4]) < 1e-6);
  }
  // stage 3: the context is the weighted sum of the encoder states
  const w = steps[5].weights;
  for (const col of [0, 31, 63]) {
    let c = 0;
    for (let j = 0; j < H.rows; j++) c += w[j] * H.data[j * H.cols + col];
    assert.ok(Math.abs(c - steps[5].context[col]) < 1e-4, `column ${col}`);
  }
  // a letter's attention peak lies in or next to the frames the synthesizer made it from
  let near = 0;
  for (let i = 0; i < u.spans.length; i++) {
    const peak = Array.from(steps[i].weights).indexOf(Math.max(...steps[i].weights));
    const s = u.spans[i];
    if (peak * r + r > s.begin - 2 * r && peak * r < s.end + 2 * r) near++;
  }
  // (most letters: a word's last letters may already listen to the next word)
  assert.ok(near / u.spans.length >= 2 / 3, `${near} of ${u.spans.length} letters`);
  const peakFrame = (i) => r * Array.from(steps[i].weights).indexOf(Math.max(...steps[i].weights));
  assert.ok(peakFrame(0) < u.frames.rows / 4 && peakFrame(u.spans.length - 1) > (3 * u.frames.rows) / 4);
  // the same frames as a Float32Array; records reproducible; back / force / reset as in the page module
  const flat = model.listen(u.frames.data);
  assert.deepEqual(Array.from(flat.step().weights), Array.from(steps[0].weights));
  flat.delete();
  assert.deepEqual(Array.from(run.record(3).weights), Array.from(steps[3].weights));
  assert.deepEqual(
    run.trace().map((s) => s.token),
    steps.map((s) => s.token),
  );
  run.reset();
  assert.equal(run.length(), 0);
  assert.equal(run.step().token, 'h');
  const forced = run.force(info.tgtVocab.indexOf('x'));
  assert.equal(forced.choice, 'forced');
  assert.equal(forced.token, 'x');
  assert.equal(run.back(), true);
  assert.equal(run.length(), 1);
  assert.equal(run.done(), false);
  // the encoder alone gives the session's states
  const encoded = model.encode(u.frames);
  assert.deepEqual(Array.from(encoded.states.data), Array.from(H.data));
  assert.equal(encoded.reduction, r);
  run.delete();
  model.delete();
});

test('hostile values to models and sessions give coded errors and leave the module working', () => {
  const model = au.AudioModel.load(readModel(MODEL));
  const handles = au.count_emval_handles();
  const u = au.synthesize({ phrase: 'wood' });
  assert.equal(codeOf(() => au.AudioModel.load(new Uint8Array([1, 2, 3]))).code, 'bad_checkpoint');
  assert.equal(codeOf(() => au.AudioModel.load(/** @type {any} */ ([1, 2]))).code, 'bad_argument');
  const text = codeOf(() => au.AudioModel.load(readModel('dates-additive-bahdanau.safetensors')));
  assert.equal(text.code, 'bad_argument');
  assert.equal(text.details.name, 'encoder');
  const scenes = codeOf(() => au.AudioModel.load(readModel('scenes-additive-bahdanau.safetensors')));
  assert.equal(scenes.details.name, 'encoder');
  assert.equal(codeOf(() => model.listen(u.frames, { beam: 2 })).details.name, 'options.beam');
  assert.equal(codeOf(() => model.listen(u.frames, { topK: 0 })).details.name, 'options.topK');
  assert.equal(codeOf(() => model.listen(u.frames, { topK: 1e9 })).details.name, 'options.topK');
  assert.equal(codeOf(() => model.listen(u.frames, { temperature: NaN })).code, 'bad_argument');
  assert.equal(codeOf(() => model.listen(u.frames, /** @type {any} */ ('fast'))).code, 'bad_argument');
  const huge = codeOf(() => model.listen({ data: new Float32Array(24), rows: 1e9, cols: 24 }));
  assert.equal(huge.code, 'too_long');
  assert.equal(codeOf(() => model.listen(new Float32Array(24 * 500))).code, 'too_long');
  assert.equal(codeOf(() => model.listen(new Float32Array(23))).details.name, 'frames');
  assert.equal(codeOf(() => model.listen({ data: [1], rows: 1, cols: 1 })).details.name, 'frames.cols');
  assert.equal(codeOf(() => model.encode(null)).details.name, 'frames');
  const run = model.listen(u.frames);
  run.run();
  assert.equal(codeOf(() => run.step()).code, 'bad_state');
  assert.equal(codeOf(() => run.record(99)).code, 'bad_argument');
  assert.equal(codeOf(() => run.record(-1)).code, 'bad_argument');
  assert.equal(codeOf(() => run.force(1e6)).code, 'bad_argument');
  assert.equal(codeOf(() => run.force(/** @type {any} */ ('a'))).code, 'bad_argument');
  assert.equal(run.outputText(), 'wood');
  run.delete();
  assert.equal(au.count_emval_handles(), handles);
  model.delete();
});

test("a location-aware speech model's records carry the weights each step read and its features", () => {
  const model = au.AudioModel.load(readModel('speech-location-bahdanau.safetensors'));
  const info = model.info();
  assert.equal(info.score, 'location');
  const u = au.synthesize({ phrase: 'how much wood', seed: 5 });
  const run = model.listen(u.frames);
  const steps = run.run();
  assert.equal(run.outputText(), u.text);
  const L = run.encoderStates().rows;
  // α_0 is one-hot on the first position; afterwards each step reads the step before's weights
  assert.deepEqual(Array.from(steps[0].previousWeights), [1, ...Array(L - 1).fill(0)]);
  for (let i = 1; i < steps.length; i++)
    assert.deepEqual(Array.from(steps[i].previousWeights), Array.from(steps[i - 1].weights), `step ${i}`);
  for (const s of steps) {
    assert.equal(s.location.rows, L);
    assert.ok(s.location.cols >= 1);
  }
  // the shipped additive model has neither
  const additive = au.AudioModel.load(readModel(MODEL));
  const plain = additive.listen(u.frames);
  const first = plain.step();
  assert.equal(first.previousWeights, null);
  assert.equal(first.location, null);
  plain.delete();
  additive.delete();
  run.delete();
  model.delete();
});

test('hostile numbers, types and buffers at the synthesizer, the sound and a session: coded errors naming the value', () => {
  const model = au.AudioModel.load(readModel(MODEL));
  const handles = au.count_emval_handles();
  const limits = au.limits();
  const nameOf = (f) => {
    const e = codeOf(f);
    assert.ok(e, 'an error');
    assert.equal(e.code, 'bad_argument', e.message);
    return e.details.name;
  };
  for (const rate of [Infinity, -Infinity, -1, 0, -0, 0.49, 2.01, 1e308, NaN])
    assert.equal(
      nameOf(() => au.synthesize({ phrase: 'wood', rate })),
      'rate',
      String(rate),
    );
  for (const noise of [Infinity, -0.5, 1.01, 1e300, NaN, '0'])
    assert.equal(
      nameOf(() => au.synthesize({ phrase: 'wood', noise })),
      'noise',
      String(noise),
    );
  for (const seed of [NaN, Infinity, 2 ** 53 + 2, '1', 1n, {}, null])
    assert.equal(
      nameOf(() => au.synthesize({ phrase: 'wood', seed })),
      'seed',
      String(seed),
    );
  // the ends of each range are accepted
  assert.equal(
    au.synthesize({ phrase: 'wood', seed: 2 ** 53, rate: limits.maxRate, noise: limits.maxNoise }).text,
    'wood',
  );
  assert.equal(au.synthesize({ phrase: 'wood', seed: 0, rate: limits.minRate, noise: -0 }).text, 'wood');
  assert.equal(
    nameOf(() => au.synthesize({ phrase: Symbol('wood') })),
    'phrase',
  );
  assert.equal(
    nameOf(() => au.synthesize({ phrase: ['wood'] })),
    'phrase',
  );
  const u = au.synthesize({ phrase: 'wood' });
  for (const maxSteps of [-1, 1025, NaN, 1.5, '3', Infinity])
    assert.equal(
      nameOf(() => model.listen(u.frames, { maxSteps })),
      'options.maxSteps',
      String(maxSteps),
    );
  for (const topK of [NaN, -1, 2.5, '1'])
    assert.equal(
      nameOf(() => model.listen(u.frames, { topK })),
      'options.topK',
    );
  for (const temperature of [0, -1, 1e9])
    assert.equal(
      nameOf(() => model.listen(u.frames, { temperature })),
      'temperature',
    );
  assert.equal(
    nameOf(() => model.listen(u.frames, { temperature: 1e39 })),
    'options.temperature',
  );
  // maxSteps bounds the session: two steps, then done
  const short = model.listen(u.frames, { maxSteps: 2 });
  assert.equal(short.run().length, 2);
  assert.equal(short.done(), true);
  assert.equal(codeOf(() => short.step()).code, 'bad_state');
  short.delete();
  // frame values beyond ±maxFrameValue: neighbouring frames of ±3e38 made the sound NaN and the states NaN
  assert.equal(limits.maxFrameValue, 1e6);
  const huge = new Float32Array(4 * 24);
  for (let i = 0; i < huge.length; i++) huge[i] = Math.floor(i / 24) % 2 ? 3e38 : -3e38;
  for (const call of [() => au.renderAudio(huge), () => model.listen(huge), () => model.encode(huge)]) {
    const e = codeOf(call);
    assert.equal(e.code, 'bad_argument');
    assert.equal(e.details.name, 'frames');
    assert.equal(e.details.limit, 1e6);
  }
  const edge = huge.map((x) => Math.sign(x) * limits.maxFrameValue);
  for (const x of au.renderAudio(edge)) assert.ok(x >= -1 && x <= 1);
  const edgeRun = model.listen(edge);
  for (const s of edgeRun.run()) assert.ok(Math.abs(s.weights.reduce((a, b) => a + b, 0) - 1) < 1e-5);
  edgeRun.delete();
  // a number that is not a float32 (1e39) or not a number at all, in a plain array of frames
  assert.equal(
    nameOf(() => au.renderAudio([...Array(23).fill(1), 1e39])),
    'frames[23]',
  );
  assert.equal(
    nameOf(() => model.listen([...Array(23).fill(1), 'x'])),
    'frames[23]',
  );
  assert.equal(
    nameOf(() => au.renderAudio({ data: 'x'.repeat(24), rows: 1, cols: 24 })),
    'frames.data',
  );
  assert.equal(
    nameOf(() => au.renderAudio({ data: new Float32Array(24), rows: 1.5, cols: 24 })),
    'frames.rows',
  );
  assert.equal(
    nameOf(() => au.renderAudio({ data: new Float32Array(24), rows: -1, cols: 24 })),
    'frames.rows',
  );
  assert.equal(
    nameOf(() => au.renderAudio(new Float32Array(24), NaN)),
    'sampleRate',
  );
  assert.equal(
    nameOf(() => au.renderAudio(new Float32Array(24), '16000')),
    'sampleRate',
  );
  // a detached buffer: the entry's copy of its arguments cannot read it, and says so
  const frames = new Float32Array(u.frames.data);
  structuredClone(frames.buffer, { transfer: [frames.buffer] });
  assert.equal(frames.length, 0);
  const bytes = readModel(MODEL);
  structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
  for (const call of [
    () => au.renderAudio(frames),
    () => model.listen(frames),
    () => model.encode({ data: frames, rows: u.frames.rows, cols: 24 }),
    () => au.AudioModel.load(bytes),
  ]) {
    const e = codeOf(call);
    assert.equal(e.code, 'bad_argument');
    assert.equal(e.details.argument, 1);
    assert.match(e.message, /argument 1 cannot be read: .*detached/);
  }
  // still working, and no handle left behind
  assert.equal(
    nameOf(() => au.renderAudio(new DataView(new ArrayBuffer(96)))),
    'frames',
  );
  const again = model.listen(u.frames);
  assert.equal(again.run().at(-1).token, '</s>');
  again.delete();
  assert.equal(au.count_emval_handles(), handles);
  model.delete();
});
