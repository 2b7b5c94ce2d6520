// weightDifference(a, b): the compare view's "largest difference" comes from the engine
// (trace::largest_weight_difference), not from the page.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { loadEngine } from './load-engine.mjs';

let ap;
before(async () => {
  ap = await loadEngine();
});

describe('weightDifference', () => {
  test('the cell with the largest |a − b|, with both weights', () => {
    const handles = ap.count_emval_handles();
    const a = [Float32Array.of(0.5, 0.25, 0.25), Float32Array.of(0.125, 0.75, 0.125)];
    const b = [Float32Array.of(0.5, 0.5, 0), Float32Array.of(0.625, 0.25, 0.125)];
    // |Δ|: row 0 = 0, 0.25, 0.25; row 1 = 0.5, 0.5, 0 → the first 0.5, at step 1, position 0;
    // the mean distance ½ (0.5 + 1) / 2 = 0.375
    assert.deepEqual(ap.weightDifference(a, b), {
      value: 0.5,
      row: 1,
      col: 0,
      a: 0.125,
      b: 0.625,
      meanDistance: 0.375,
    });
    assert.equal(ap.count_emval_handles(), handles);
  });
  test('decodes of different lengths are compared over the steps both took', () => {
    const a = [
      [0.5, 0.5],
      [0, 1],
      [1, 0],
    ];
    const b = [[0.75, 0.25]];
    assert.deepEqual(ap.weightDifference(a, b), {
      value: 0.25,
      row: 0,
      col: 0,
      a: 0.5,
      b: 0.75,
      meanDistance: 0.25,
    });
  });
  test('no step in common, or rows that are not numbers, give an Error with the C++ message', () => {
    assert.throws(
      () => ap.weightDifference([], [[1]]),
      /weight difference: weights of 0 × 0 and 1 × 1 have no step/,
    );
    assert.throws(() => ap.weightDifference([[1, 'x']], [[1, 2]]), /a\[0\]\[1\] is not a finite number/);
    assert.throws(
      () => ap.weightDifference([[1, 2], [3]], [[1, 2]]),
      /a\[1\] has 1 numbers but a\[0\] has 2/,
    );
  });
});
