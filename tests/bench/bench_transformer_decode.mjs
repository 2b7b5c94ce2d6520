// Decoding with the Transformer decoder through the JS API of the trainer module (the module a
// Transformer checkpoint loads in), each time including the JS call and copying the step's trace
// out: one step with the key/value cache (dates, 2 layers × 4 heads; budget 50 µs), the same step
// without the cache and with q, k and v, and the whole decode of a 20-character date.
import { readFileSync } from 'node:fs';

import { loadTrainer } from '../js/trainer-fixture.mjs';
import { emit, timeNs } from './timer.mjs';

const T = await loadTrainer();
const model = T.Model.load(
  new Uint8Array(readFileSync(new URL('../../web/models/dates-transformer.safetensors', import.meta.url))),
);
const date = 'sunday, 29 nov. 2026';
const section = 'decode via the JS API, dates Transformer decoder 2 × 4 heads (incl. call + trace copy)';

/** Nanoseconds of one step of a session decoding `date` with these options (reset when done). */
function oneStep(options) {
  const session = model.decode(date, options);
  const ns = timeNs(() => {
    if (session.done()) session.reset();
    session.step();
  });
  session.delete();
  return ns;
}
emit(section, 'one step, key/value cache', 'wasm', oneStep({}), 0);
emit(section, 'one step, no cache (earlier positions recomputed)', 'wasm', oneStep({ kvCache: false }), 0);
emit(section, 'one step, cache, q k v in the record', 'wasm', oneStep({ qkv: true }), 0);
const decodeNs = timeNs(() => {
  const s = model.decode(date);
  s.run();
  s.delete();
});
emit(section, 'decode + run of a 20-char date', 'wasm', decodeNs, 0);
model.delete();
