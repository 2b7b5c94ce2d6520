// The Listen view's plain helpers: the score-function keys every view shares and their short
// listing in the keyboard hints (web/lib/keys.js), the time ticks under the
// bars and the letter said at a frame (web/listen/axis.js), and the texts' subscripts (web/listen/subscripts.js).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { keyOfScore, keyRanges, modelKeys, scoreOfKey } from '../../../../web/shared/lib/keys.js';
import { spanAt, timeTicks } from '../../../../web/features/listen/axis.js';
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

describe('timeTicks', () => {
  test('round times on the frames, as many as fit', () => {
    // 148 frames of 10 ms on 460 px: 0.2 s apart is 62 px (0.1 s would be 31, under 56); 1.4 s
    // would sit at 435 px, within 28 px of the right edge, so it is left out
    const ticks = timeTicks(148, 0.01, 460);
    assert.deepEqual(
      ticks.map((t) => [t.frame, t.label]),
      [
        [0, '0.0'],
        [20, '0.2'],
        [40, '0.4'],
        [60, '0.6'],
        [80, '0.8'],
        [100, '1.0'],
        [120, '1.2'],
      ],
    );
    for (const t of ticks) assert.equal(t.seconds, t.frame * 0.01);
    // narrower: 0.25 s would be 42 px, so half seconds; 1.5 s is past the frames' 1.48 s
    assert.deepEqual(
      timeTicks(148, 0.01, 250).map((t) => t.label),
      ['0.0', '0.5', '1.0'],
    );
    assert.deepEqual(timeTicks(0, 0.01, 300), []);
    assert.deepEqual(timeTicks(100, 0, 300), []);
    assert.deepEqual(timeTicks(100, 0.01, 0), []);
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

test('spanAt: the letter said at a frame, none between letters or past the end', () => {
  const spans = [
    { letter: 'a', begin: 0, end: 4 },
    { letter: ' ', begin: 4, end: 6 },
    { letter: 'b', begin: 7, end: 9 },
  ];
  assert.equal(spanAt(spans, 0)?.letter, 'a');
  assert.equal(spanAt(spans, 3)?.letter, 'a');
  assert.equal(spanAt(spans, 4)?.letter, ' ', 'a span begins at its first frame');
  assert.equal(spanAt(spans, 6), null, 'a frame between two spans');
  assert.equal(spanAt(spans, 8)?.letter, 'b');
  assert.equal(spanAt(spans, 9), null, 'a span ends before its end frame');
  assert.equal(spanAt([], 0), null);
});
