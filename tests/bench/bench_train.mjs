// The trainer module (build/wasm/trainer.js) under node: training throughput through the JS API
// (TrainRun.step, the call and the progress object included) on dates, additive Bahdanau, the
// default recipe (batch 32), measured as bench_train.cpp measures the library (the fastest of 8
// rounds of 10 steps after 10 warm-up steps, wall clock); and the training time to 99% held-out
// exact match (evaluate(500) every 25 steps, not counted). The browser Worker's throughput is
// held to >= 90% of the first number; the module's size is printed beside it.
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { loadTrainer } from '../js/trainer-fixture.mjs';
import { emit } from './timer.mjs';

const T = await loadTrainer();
const wasmPath = fileURLToPath(new URL('../../build/wasm/trainer.wasm', import.meta.url));
const config = { task: 'dates', score: 'additive', style: 'bahdanau', seed: 1 };

const run = new T.TrainRun({ ...config, steps: 100 });
run.step(10);
let best = Infinity;
for (let round = 0; round < 8; round++) {
  const before = run.progress().sequences;
  const t0 = performance.now();
  const p = run.step(10);
  best = Math.min(best, (performance.now() - t0) / 1e3 / (p.sequences - before));
}
run.delete();
emit(
  'train',
  'dates additive bahdanau b32: one sequence, trainer module TrainRun.step',
  'wasm',
  best * 1e9,
  0,
);
console.error(
  `trainer module under node: dates additive bahdanau ${Math.round(1 / best)} sequences/s ` +
    `(trainer.wasm ${statSync(wasmPath).size} bytes)`,
);

const race = new T.TrainRun({ ...config, steps: 1500 });
let seconds = 0;
let accuracy = 0;
let progress = race.progress();
while (!progress.done) {
  const t0 = performance.now();
  progress = race.step(25);
  seconds += (performance.now() - t0) / 1e3;
  accuracy = race.evaluate(500).heldoutExactMatch;
  if (accuracy >= 0.99) break;
}
race.delete();
emit('train', 'dates additive bahdanau b32: train to 99% held-out, trainer module', 'wasm', seconds * 1e9, 0);
console.error(
  `trainer module under node: dates additive bahdanau reached ${(100 * accuracy).toFixed(1)}% in ` +
    `${seconds.toFixed(1)} s (${progress.sequences} sequences)`,
);
