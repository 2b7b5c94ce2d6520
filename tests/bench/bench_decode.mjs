// Decoding through the JS API (wasm under node), each time including the JS call and copying the
// step's trace out: one step (target ≤ 30 µs) and the whole decode of a 20-character date.
import { readFileSync } from 'node:fs';

import { loadEngine } from '../js/load-engine.mjs';
import { emit, timeNs } from './timer.mjs';

const ap = await loadEngine();
const model = ap.Model.load(
  new Uint8Array(
    readFileSync(new URL('../../web/models/dates-additive-bahdanau.safetensors', import.meta.url)),
  ),
);
const date = 'sunday, 29 nov. 2026';
const section = 'decode via the JS API, dates additive bahdanau (incl. call + trace copy)';
const session = model.decode(date);
const stepNs = timeNs(() => {
  if (session.done()) session.reset();
  session.step();
});
emit(section, 'one step', 'wasm', stepNs, 0);
const decodeNs = timeNs(() => {
  const s = model.decode(date);
  s.run();
  s.delete();
});
emit(section, 'decode + run of a 20-char date', 'wasm', decodeNs, 0);
session.delete();
model.delete();
