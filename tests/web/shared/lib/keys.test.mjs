// The score-function keys every view shares and their short listing in the keyboard hints
// (web/shared/lib/keys.js), and the texts' TeX-style subscripts (web/shared/lib/subscripts.js).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { keyOfScore, keyRanges, modelKeys, scoreOfKey } from '../../../../web/shared/lib/keys.js';
import { subscriptParts } from '../../../../web/shared/lib/subscripts.js';

describe('score-function keys', () => {
  test("1–7 are Decode's order, anything else none", () => {
    const order = ['dot', 'scaled_dot', 'general', 'additive', 'cosine', 'scaled_cosine', 'location'];
    order.forEach((score, i) => {
      assert.equal(scoreOfKey(String(i + 1)), score);
      assert.equal(keyOfScore(score), String(i + 1));
    });
    for (const key of ['0', '8', '9', '10', ' ', 'a', '1.5', '', 'Digit1'])
      assert.equal(scoreOfKey(key), null, key);
    assert.equal(keyOfScore('none'), '');
  });
});

describe('keyRanges', () => {
  test('runs of three or more as a range, the rest one by one', () => {
    assert.equal(keyRanges([1, 2, 3, 4, 6, 7]), '1–4, 6, 7');
    assert.equal(keyRanges([7, 4]), '4, 7');
    assert.equal(keyRanges([3, 1, 2]), '1–3');
    assert.equal(keyRanges([1, 2, 4, 5, 6]), '1, 2, 4–6');
    assert.equal(keyRanges([]), '');
    // the scene models' five, and with a location one beside them (no key 6: no scaled cosine)
    const scores = (...s) => s.map((score) => ({ score }));
    assert.equal(modelKeys(scores('dot', 'scaled_dot', 'general', 'additive', 'cosine')), '1–5');
    assert.equal(modelKeys(scores('additive', 'location', 'dot')), '1, 4, 7');
  });
});

describe('subscriptParts', () => {
  test('TeX-style subscripts become their own parts; other underscores stay', () => {
    assert.deepEqual(subscriptParts('weights α_{i−1}, features f_j.'), [
      { text: 'weights α', sub: false },
      { text: 'i−1', sub: true },
      { text: ', features f', sub: false },
      { text: 'j', sub: true },
      { text: '.', sub: false },
    ]);
    assert.deepEqual(subscriptParts('snake _case and 3_4'), [{ text: 'snake _case and 3_4', sub: false }]);
    assert.deepEqual(subscriptParts(''), []);
  });
});
