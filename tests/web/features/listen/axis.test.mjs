// The Listen view's time axis (web/features/listen/axis.js): the ticks under the frames and the
// letter said at a frame.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { spanAt, timeTicks } from '../../../../web/features/listen/axis.js';

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
