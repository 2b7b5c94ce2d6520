// The formula panels' shared arithmetic-free pieces (web/shared/stepping/worked-example.js): the TeX number,
// the softmax's worked example written from a step record, and the split into the positions of
// the largest weights and the rest, on a hand-made record.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  exponentTex,
  softmaxExampleTex,
  temperatureText,
  texNumber,
  topTerms,
} from '../../../../web/shared/stepping/worked-example.js';

// scores e = (1, 3, 2, 0); m = 3; exp(e − m) = (e^−2, 1, e^−1, e^−3); Z = their sum.
const exps = [Math.exp(-2), 1, Math.exp(-1), Math.exp(-3)];
const expSum = exps.reduce((s, x) => s + x, 0); // 1.553001…
const record = {
  scores: [1, 3, 2, 0],
  maxScore: 3,
  exps,
  expSum,
  weights: exps.map((x) => x / expSum), // 0.087144, 0.643914, 0.236883, 0.032059
};

test('texNumber: three decimals, a dash for what is not finite', () => {
  assert.equal(texNumber(0.6439142), '0.644');
  assert.equal(texNumber(-2), '-2.000');
  assert.equal(texNumber(NaN), '\\text{–}');
  assert.equal(texNumber(Infinity), '\\text{–}');
  assert.equal(texNumber(undefined), '\\text{–}');
});

test('the worked example writes α_j = exp(e_j − m) / Z with the record’s numbers', () => {
  assert.equal(
    softmaxExampleTex(record, 1, 'tom', 'Z'),
    String.raw`\alpha_{tom} = \frac{\exp(3.000 - 3.000)}{Z} = \frac{1.000}{1.553} = 0.644`,
  );
  assert.equal(
    softmaxExampleTex(record, 2, '2', String.raw`\sum_j e_j`),
    String.raw`\alpha_{2} = \frac{\exp(2.000 - 3.000)}{\sum_j e_j} = \frac{0.368}{1.553} = 0.237`,
  );
  // without the exponentials (or their sum) there is nothing to write out
  assert.equal(softmaxExampleTex({ ...record, exps: null }, 1, 'x', 'Z'), '');
  assert.equal(softmaxExampleTex({ ...record, expSum: null }, 1, 'x', 'Z'), '');
});

test('at τ ≠ 1 the worked example divides by τ, as the engine’s exponentials did', () => {
  // τ = 0.5: exp((e − m)/τ) = (e^−4, 1, e^−2, e^−6)
  const hot = [Math.exp(-4), 1, Math.exp(-2), Math.exp(-6)];
  const sum = hot.reduce((s, x) => s + x, 0); // 1.155689…
  const tempered = { ...record, temperature: 0.5, exps: hot, expSum: sum, weights: hot.map((x) => x / sum) };
  assert.equal(
    softmaxExampleTex(tempered, 1, 'tom', 'Z'),
    String.raw`\alpha_{tom} = \frac{\exp((3.000 - 3.000)/0.5)}{Z} = \frac{1.000}{1.156} = 0.865`,
  );
  assert.equal(temperatureText(tempered), '0.5');
  assert.equal(exponentTex(tempered, 'e_j', 'm', String.raw`\tau`), String.raw`(e_j - m)/\tau`);
  // the float32 the engine holds, written short
  assert.equal(temperatureText({ temperature: Math.fround(1e-3) }), '0.001');
  // τ = 1 (or a record without one) writes no τ
  assert.equal(exponentTex({ temperature: 1 }, 'e_j', 'm', String.raw`\tau`), 'e_j - m');
  assert.equal(temperatureText({}), '');
});

test('topTerms: the largest weights in order, the rest summed', () => {
  const t = topTerms(record, 2);
  assert.equal(t.best, 1);
  assert.deepEqual(t.top, [1, 2]);
  assert.deepEqual(t.rest, [0, 3]);
  assert.ok(Math.abs(t.restWeight - (record.weights[0] + record.weights[3])) < 1e-12);
  assert.ok(Math.abs(t.restWeight - 0.119203) < 1e-6);
  assert.ok(Math.abs(t.restExp - (Math.exp(-2) + Math.exp(-3))) < 1e-12);
  // more asked than there are: all of them, nothing left
  const all = topTerms(record, 6);
  assert.deepEqual(all.top, [1, 2, 0, 3]);
  assert.deepEqual(all.rest, []);
  assert.equal(all.restWeight, 0);
  assert.equal(topTerms({ weights: record.weights }, 1).restExp, null);
  // equal weights keep the source order (the first is the one written out)
  assert.deepEqual(topTerms({ weights: [0.25, 0.25, 0.25, 0.25] }, 2).top, [0, 1]);
});
