// The node side of the training runs the browser tests make in the page: the trainer module,
// trained here with each fixed configuration, gives what tests/e2e/training_golden.json holds (the
// page's side is checked against the same file by tests/e2e/train*.test.mjs). A change that moves
// training fails here and there alike; `node scripts/training-golden.mjs` writes the file anew.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';

import { chunkReport, RUNS, trainingReference } from './training-reference.mjs';
import { loadTrainer } from './trainer-fixture.mjs';

const golden = JSON.parse(readFileSync(new URL('../e2e/training_golden.json', import.meta.url), 'utf8'));
let trained;
before(async () => {
  trained = await trainingReference();
});

for (const name of Object.keys(RUNS))
  test(`${name}: the trainer module gives the golden figures`, () => {
    assert.deepEqual(trained[name], golden[name]);
  });

test('a report over several steps is the mean loss and token accuracy of its steps and the last step’s other figures', async () => {
  // how the browser test reads a Worker's chunked reports against the golden steps, one by one
  const T = await loadTrainer();
  const run = RUNS.speechRace;
  const r = new T.TrainRun({
    task: run.task,
    score: 'additive',
    style: 'bahdanau',
    steps: run.steps,
    seed: 1,
    evalExamples: run.evalExamples,
  });
  try {
    const fields = ['step', 'sequences', 'loss', 'tokenAccuracy', 'gradNorm', 'learningRate', 'done'];
    const pick = (p) => Object.fromEntries(fields.map((f) => [f, p[f]]));
    const steps = golden.speechRace.additive.steps;
    r.evaluate(run.evalExamples);
    assert.deepEqual(pick(r.step(3)), pick(chunkReport(steps, 0, 3)));
    assert.deepEqual(pick(r.step(2)), pick(chunkReport(steps, 3, 5)));
    r.evaluate(run.evalExamples);
    assert.deepEqual(pick(r.step(5)), pick(chunkReport(steps, 5, 10)));
  } finally {
    r.delete();
  }
});
