// What a diverged run says (web/features/train/divergence.js), in English and Chinese, from the
// engine's account of it: how it diverged, the losses, the step and the learning rate, and what to
// change.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { readLangFrom } from '../../../../web/shared/i18n/translate.js';
import { divergenceText, lossText } from '../../../../web/features/train/divergence.js';

const grew = { kind: 'loss_grew', step: 7, firstLoss: 2.3026, loss: 1.2345e6, learningRate: 1000 };

test('losses as a reader compares them', () => {
  assert.deepEqual([2.3026, 41.23, 0.000123, 1.2345e6, NaN, Infinity, null].map(lossText), [
    '2.3',
    '41',
    '0.00012',
    '1.2e6',
    'NaN',
    '∞',
    '–',
  ]);
});

test('a loss that grew, in each language', () => {
  readLangFrom(() => 'en');
  assert.equal(
    divergenceText(grew),
    'Diverged at step 7: the loss grew from 2.3 to 1.2e6 (learning rate 1000). Try a smaller learning rate. This run’s model is not kept; the evaluations before it still open from the slider.',
  );
  readLangFrom(() => 'zh');
  assert.equal(
    divergenceText(grew),
    '第 7 步发散：损失从 2.3 增长到 1.2e6（学习率 1000）。请试试更小的学习率。本次运行的模型不予保存；发散前的评估仍可从滑块打开。',
  );
  readLangFrom(() => 'en');
});

test('a loss, gradient or parameter that is not finite', () => {
  const at = { step: 2, firstLoss: 2.3, learningRate: 1e30 };
  assert.match(
    divergenceText({ ...at, kind: 'loss_not_finite', loss: NaN }),
    /^Diverged at step 2: the loss became NaN \(learning rate 1e\+30\)/,
  );
  assert.match(
    divergenceText({ ...at, kind: 'gradient_not_finite', loss: 3 }),
    /the gradient norm stopped being a finite number/,
  );
  assert.match(
    divergenceText({ ...at, kind: 'parameters_not_finite', loss: 3 }),
    /the parameters stopped being finite numbers/,
  );
});
