// The trainer module at its memory limit: the largest run the budget admits (trainLimits().
// maxWorkBytes, counted from the run's sizes and data before the model is made) trains a step,
// evaluates and saves with the heap inside the engine's ceiling (maxHeapBytes); one more sequence
// in the batch is refused. The batch is searched with refusals and runs that are made but never
// stepped; the work is done once, at the size found.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MiB, admits, heapWithin, largestAdmitted } from './memory-fixture.mjs';
import { loadTrainer } from './trainer-fixture.mjs';

const T = await loadTrainer();
const limits = T.trainLimits();

test('the largest batch of 128-token targets over 4,000 words trains, evaluates and saves inside the ceiling', () => {
  // Small sizes (embed and hidden 4), so the probabilities, 129 steps × batch × 4,004 target
  // tokens, are what the budget is spent on, and a step takes a second, not minutes.
  const words = Array.from({ length: 4000 }, (_, i) => `w${i}`);
  const pairs = Array.from({ length: 1000 }, (_, k) => {
    const target = Array.from({ length: 128 }, (_, j) => words[(k * 131 + j * 7) % words.length]).join(' ');
    return `s${k % 50} s${(k * 7) % 50}\t${target}`;
  }).join('\n');
  const config = (batch) => ({ pairs, batch, embed: 4, hidden: 4, steps: 2 });
  const batch = largestAdmitted(1, limits.maxBatch, (b) => admits(() => new T.TrainRun(config(b)).delete()));
  assert.ok(batch > 4 && batch < limits.maxBatch, `batch ${batch}: the budget binds`);
  const start = T.HEAPU8.buffer.byteLength;
  const run = new T.TrainRun(config(batch));
  assert.equal(run.step(1).step, 1);
  const trained = heapWithin(T, limits, 'a step');
  assert.ok(trained - start > limits.maxWorkBytes / 4, `the heap grew by ${(trained - start) / MiB} MiB`);
  assert.ok(run.evaluate(3).probe.rows > 0);
  assert.ok(run.save().length > 0);
  const peak = heapWithin(T, limits, 'evaluate and save');
  console.log(
    `trainer: batch ${batch} admitted; heap ${start / MiB} → ${trained / MiB} MiB after a step, ${peak / MiB} MiB after evaluate and save (ceiling ${limits.maxHeapBytes / MiB})`,
  );
  run.delete();
});
