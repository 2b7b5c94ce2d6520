// The "Why attention" view's state (web/features/length/): the task's shipped Bahdanau BiGRU
// models, fixed-vector baseline first; the bucket width in the link; and an evaluation's
// bookkeeping — the Worker's reports kept per model, a finished task kept for coming back, a run
// cancelled or overtaken by a newer one, a Worker that fails. The numbers are the trainer
// module's (tests/js/length-chart.test.mjs); here its Worker is a stand-in that reports as it does.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';

import { installBrowser, installWorkers, load, loadPageStates } from '../../support/page.mjs';

await installBrowser();
/** What the stand-in Worker was asked, and how it answers. */
const asked = [];
let answer = async (job, report) => {
  for (const m of job.models) {
    await report({ kind: 'progress', name: m.name, done: 1, total: 1 });
    await report({ kind: 'result', result: { name: m.name, pairs: 1, buckets: [] } });
  }
  return 'done';
};
after(
  await installWorkers({
    'features/length/worker.js': () => ({
      run: (job, report) => (asked.push(job), answer(job, report)),
      cancel() {},
    }),
  }),
);
const page = await loadPageStates();
const { readLink, linkHash } = page.link;
const { lengthLink, BUCKET_WIDTHS } = page.length;
const { lengthView, lengthModels, evaluateLengths, cancelLengths } = await load(
  'features/length/length.svelte.js',
);

describe('the models and the link', () => {
  test('the task’s shipped Bahdanau BiGRU models, the fixed-vector baseline first', () => {
    const models = lengthModels('reverse');
    assert.equal(models[0].score, 'none');
    assert.ok(models.every((m) => m.name === `reverse-${m.score}-bahdanau`));
    assert.ok(models.length >= 4);
  });

  test('the bucket width: 1, 2 or 4, written only when not the default 4', () => {
    assert.deepEqual(BUCKET_WIDTHS, [1, 2, 4]);
    readLink('#view=length&lw=2');
    assert.equal(lengthLink.bucketWidth, 2);
    assert.match(linkHash(), /&lw=2$/);
    readLink('#view=length&lw=3');
    assert.equal(lengthLink.bucketWidth, 4);
    assert.doesNotMatch(linkHash(), /lw=/);
  });
});

describe('an evaluation', () => {
  test('each model’s progress and result as the Worker reports them, and the checkpoints’ full URLs', async () => {
    await evaluateLengths('reverse', 2);
    assert.equal(lengthView.status, 'done');
    assert.deepEqual(
      Object.keys(lengthView.results),
      lengthModels('reverse').map((m) => m.name),
    );
    assert.ok(asked[0].models.every((m) => m.url.startsWith('file:')));
    assert.equal(asked[0].bucketWidth, 2);
  });

  test('a task evaluated before is shown again at once, without the Worker', async () => {
    await evaluateLengths('reverse', 2);
    assert.equal(asked.length, 1);
    assert.equal(lengthView.status, 'done');
  });

  test('a cancelled run keeps what it had; a newer run wins over an older one', async () => {
    let release = () => {};
    answer = (job) => new Promise((resolve) => (release = () => resolve('done')));
    const first = evaluateLengths('dates', 4);
    await new Promise((r) => setTimeout(r, 50));
    cancelLengths();
    assert.equal(lengthView.status, 'cancelled');
    release();
    await first;
    assert.equal(lengthView.status, 'cancelled', 'a run cancelled does not become done');
  });

  test('a Worker that fails says so', async () => {
    answer = async () => {
      throw new Error('the trainer module did not load');
    };
    await evaluateLengths('zh', 1);
    assert.equal(lengthView.status, 'failed');
    assert.match(String(lengthView.error), /the trainer module did not load/);
  });
});
