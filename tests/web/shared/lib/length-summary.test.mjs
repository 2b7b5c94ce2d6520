// What the "Why attention" view says and marks, read off the engine's counts
// (web/shared/lib/length-summary.js), on hand-made buckets: one threshold for the summary and the
// chart's thin buckets, and which lines lie on top of each other.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { coinciding, lengthSummary, MIN_PAIRS, thin } from '../../../../web/shared/lib/length-summary.js';

const bucket = (minLength, pairs, hits) => ({ minLength, maxLength: minLength + 3, pairs, hits });

describe('length summary', () => {
  test('a bucket under MIN_PAIRS is thin, and the summary’s last bucket is the last one not thin', () => {
    assert.equal(MIN_PAIRS, 20);
    assert.deepEqual(
      [0, 9, 19, 20].map((pairs) => thin({ pairs })),
      [false, true, true, false],
    );
    // zh at width 4: 13–16 holds 9 pairs, so the summary ends at 9–12, the chart marks 13–16
    const baseline = {
      buckets: [bucket(1, 55, 51), bucket(5, 624, 500), bucket(9, 312, 186), bucket(13, 9, 2)],
    };
    const additive = {
      score: 'additive',
      buckets: [bucket(1, 55, 55), bucket(5, 624, 620), bucket(9, 312, 305), bucket(13, 9, 8)],
    };
    const summary = lengthSummary(baseline, [additive]);
    assert.equal(summary?.last.minLength, 9);
    assert.deepEqual(
      baseline.buckets.filter(thin).map((b) => b.minLength),
      [13],
    );
  });

  test('lines within 3 points at every bucket coincide; one bucket further apart parts them', () => {
    const line = (score, ...hits) => ({ score, buckets: hits.map((h, k) => bucket(1 + 4 * k, 100, h)) });
    const groups = coinciding([
      line('none', 100, 95, 48, 5),
      line('dot', 100, 100, 100, 99),
      line('additive', 100, 100, 99, 100),
      line('cosine', 100, 94, 46, 3), // 2 points under the baseline at most: on top of it
      line('general', 100, 100, 99, 95), // 4 points under dot at 13–16: apart
    ]);
    assert.deepEqual(groups, [
      ['none', 'cosine'],
      ['dot', 'additive'],
    ]);
    // an empty bucket on one line only: not the same line
    assert.deepEqual(
      coinciding([line('dot', 100, 100), { score: 'x', buckets: [bucket(1, 100, 100), bucket(5, 0, 0)] }]),
      [],
    );
  });
});
