// The score functions the trainer module's task info offers (what the Train view lists): for every
// task, own pairs and both encoders, the six content-based ones and location, each in both styles;
// and an offered location run trains in Luong style too (a finite first loss, a probe alignment
// whose rows are weights summing to 1).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { useTrainer } from './trainer-fixture.mjs';

let T;
const { keep } = useTrainer((loaded) => (T = loaded));

const ALL = ['dot', 'scaled_dot', 'general', 'additive', 'cosine', 'scaled_cosine', 'location'];

test('every task and own pairs list the content-based score functions and location, in both styles', () => {
  for (const encoder of ['gru', 'transformer']) {
    const infos = [...T.trainTasks(encoder), T.pairsRecipe(encoder)];
    assert.deepEqual(
      infos.map((i) => i.name),
      ['dates', 'zh', 'reverse', 'scenes', 'speech', 'pairs'],
    );
    for (const info of infos) {
      assert.deepEqual(
        info.scores.map((s) => s.name),
        ALL,
        `${info.name}, ${encoder}`,
      );
      for (const s of info.scores)
        assert.deepEqual(s.styles, ['bahdanau', 'luong'], `${info.name} ${s.name}`);
      assert.ok(!info.scores.some((s) => s.name === 'none'), 'the baseline is not a score function to race');
    }
  }
});

test('a location run in Luong style trains: a finite loss and a probe alignment of weights', () => {
  const run = keep(
    new T.TrainRun({ task: 'dates', score: 'location', style: 'luong', steps: 2, batch: 4, evalExamples: 2 }),
  );
  assert.deepEqual([run.settings().score, run.settings().style], ['location', 'luong']);
  const p = run.step(1);
  assert.equal(p.step, 1);
  assert.ok(Number.isFinite(p.loss) && p.loss > 0, `loss ${p.loss}`);
  const e = run.evaluate();
  assert.equal(e.probe.cols, e.probe.source.length);
  for (let i = 0; i < e.probe.rows; i++) {
    const row = e.probe.weights.subarray(i * e.probe.cols, (i + 1) * e.probe.cols);
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5, `row ${i}`);
  }
});
