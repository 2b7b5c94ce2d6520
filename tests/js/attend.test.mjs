// The embind surface (wasm/bindings.cpp) with real values: ap.attend, defaultParams, scoreKinds,
// simdIsa, and C++ errors arriving as JS Errors. After every test the live emval handle count must
// be back where it started (the API hands out no embind objects, so nothing needs .delete()).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { useEngine } from './engine-fixture.mjs';
import { referenceContext, referenceScores, referenceWeights } from './reference.mjs';
import { exampleQuery, exampleTokens } from '../../web/features/sandbox/example.js';

// Float32 inputs and outputs against a double reference: the engine rounds every product and
// exp to float32 (relative error ~6e-8 each); over a handful of terms 2e-6 is ample, while a wrong
// formula or a wrong parameter is off by far more.
const TOLERANCE = 2e-6;

function assertClose(actual, expected, message) {
  assert.equal(actual.length, expected.length, `${message}: length`);
  for (let i = 0; i < expected.length; i++) {
    const scale = Math.max(1, Math.abs(expected[i]));
    assert.ok(
      Math.abs(actual[i] - expected[i]) <= TOLERANCE * scale,
      `${message}[${i}]: got ${actual[i]}, expected ${expected[i]}`,
    );
  }
}

const query = [...exampleQuery];
const keys = exampleTokens.map((t) => t.key);
const values = exampleTokens.map((t) => t.value);

let ap;
useEngine((loaded) => (ap = loaded));

describe('attend', () => {
  test('the softmax is spelled out: shifted exponentials, their sum and the entropy', () => {
    const result = ap.attend('dot', query, keys, values);
    // scores [1.1, 0, 0]: exps [1, e^-1.1, e^-1.1] = [1, 0.332871, 0.332871], sum 1.665742
    assert.equal(result.maxScore, result.scores[0]);
    assertClose(result.exps, [1, Math.exp(-1.1), Math.exp(-1.1)], 'exps');
    assert.ok(Math.abs(result.expSum - (1 + 2 * Math.exp(-1.1))) < 1e-6);
    const w = referenceWeights([1.1, 0, 0]);
    const entropy = -w.reduce((s, a) => s + a * Math.log(a), 0); // 0.950...
    assert.ok(Math.abs(result.entropy - entropy) < 1e-6, `entropy ${result.entropy} vs ${entropy}`);
    assert.ok(Math.abs(result.maxEntropy - Math.log(3)) < 1e-7);
    const hot = ap.attend('dot', query, keys, values, { temperature: 10 });
    const cold = ap.attend('dot', query, keys, values, { temperature: 0.1 });
    assert.ok(cold.entropy < result.entropy && result.entropy < hot.entropy);
    const masked = ap.attend('dot', query, keys, values, { mask: [1, 0, 1] });
    assert.ok(Math.abs(masked.maxEntropy - Math.log(2)) < 1e-7);
    assert.equal(masked.exps[1], 0);
  });

  test('dot attention on Tom / chase / Jerry gives the hand-computed 0.6 / 0.2 / 0.2', () => {
    const result = ap.attend('dot', query, keys, values);
    // q·k_Tom = 0.6 + 0.5 = 1.1, q·k_chase = 0, q·k_Jerry = 0.5 − 0.5 = 0
    assertClose(result.scores, [1.1, 0, 0], 'scores');
    // softmax: e^1.1 / (e^1.1 + 2) = 3.004166 / 5.004166 = 0.600333, and 1 / 5.004166 = 0.199833
    assertClose(result.weights, referenceWeights([1.1, 0, 0]), 'weights');
    assert.ok(Math.abs(result.weights[0] - 0.600333) < 1e-6 && Math.abs(result.weights[1] - 0.199833) < 1e-6);
    // context = 0.6003·[1,0,0,1] + 0.1998·[0,1,0,1] + 0.1998·[0,0,1,1]
    const [tom, other] = referenceWeights([1.1, 0, 0]);
    assertClose(result.context, [tom, other, other, 1], 'context');
    assert.ok(result.scores instanceof Float32Array && result.context instanceof Float32Array);
    assert.equal(result.kind, 'dot');
    assert.equal(result.temperature, 1);
    assert.equal(result.hidden, null);
    assert.equal(result.query_proj, null);
    assert.equal(result.query_norm, null);
    assert.deepEqual(result.params, { kind: 'dot' });
  });

  for (const kind of ['dot', 'scaled_dot', 'general', 'additive', 'cosine', 'scaled_cosine']) {
    test(`${kind}: scores, weights and context equal a plain-JS recomputation from the returned params`, () => {
      const result = ap.attend(kind, query, keys, values);
      const scores = referenceScores(kind, query, keys, result.params);
      assertClose(result.scores, scores, 'scores');
      const weights = referenceWeights(scores);
      assertClose(result.weights, weights, 'weights');
      assertClose(result.context, referenceContext(weights, values), 'context');
    });
  }

  test('additive attention returns the per-key hidden tanh(W_q q + W_k k_j) and W_q q', () => {
    const result = ap.attend('additive', query, keys, values, { hidden_size: 3 });
    const { w_q, w_k, v } = result.params;
    assert.deepEqual([w_q.rows, w_q.cols, w_k.rows, w_k.cols, v.length], [3, 4, 3, 4, 3]);
    assert.deepEqual([result.hidden.rows, result.hidden.cols], [3, 3]);
    assert.equal(result.hidden.data.length, 9);
    const wq = Array.from({ length: 3 }, (_, i) => query.reduce((s, x, c) => s + w_q.data[i * 4 + c] * x, 0));
    assertClose(result.query_proj, wq, 'query_proj');
    keys.forEach((key, j) => {
      const expected = wq.map((x, i) =>
        Math.tanh(x + key.reduce((s, k, c) => s + w_k.data[i * 4 + c] * k, 0)),
      );
      assertClose(result.hidden.data.subarray(j * 3, j * 3 + 3), expected, `hidden row ${j}`);
    });
  });

  test('cosine attention returns the query norm', () => {
    const result = ap.attend('cosine', query, keys, values);
    assert.ok(Math.abs(result.query_norm - Math.SQRT2) < 1e-6);
  });

  test('scaled cosine scores g times the cosine, g = √dk by default or the one given', () => {
    const plain = ap.attend('cosine', query, keys, values);
    const scaled = ap.attend('scaled_cosine', query, keys, values);
    assert.deepEqual(scaled.params, { kind: 'scaled_cosine', scale: 2 }); // √4
    assert.equal(scaled.scale, 2);
    assert.ok(Math.abs(scaled.query_norm - Math.SQRT2) < 1e-6);
    assertClose(
      scaled.scores,
      Array.from(plain.scores, (c) => 2 * c),
      'default scores',
    );
    const sharp = ap.attend('scaled_cosine', query, keys, values, { params: { scale: 12.5 } });
    assert.equal(sharp.scale, 12.5);
    assertClose(
      sharp.scores,
      Array.from(plain.scores, (c) => 12.5 * c),
      'scores with g = 12.5',
    );
    // a larger g sharpens the same cosines: the largest weight grows past cosine's bound
    assert.ok(Math.max(...sharp.weights) > Math.max(...plain.weights));
    assert.equal(plain.scale, null);
  });

  test('general attention with an identity W scores like dot', () => {
    const identity = [
      [1, 0, 0, 0],
      [0, 1, 0, 0],
      [0, 0, 1, 0],
      [0, 0, 0, 1],
    ];
    const result = ap.attend('general', query, keys, values, { params: { w: identity } });
    assertClose(result.scores, ap.attend('dot', query, keys, values).scores, 'scores');
    assertClose(result.params.w.data, identity.flat(), 'params.w');
  });

  test('the temperature divides the scores before softmax, and a mask zeroes a key', () => {
    const hot = ap.attend('dot', query, keys, values, { temperature: 2 });
    assertClose(hot.scores, [1.1, 0, 0], 'scores are before the temperature');
    assertClose(hot.weights, referenceWeights([1.1, 0, 0], 2), 'weights at τ = 2');
    assert.equal(hot.temperature, 2);

    const masked = ap.attend('dot', query, keys, values, { mask: [1, 0, true] });
    assertClose(masked.weights, referenceWeights([1.1, 0, 0], 1, [1, 0, 1]), 'masked weights');
    assert.equal(masked.weights[1], 0);
  });

  test('a matrix given as {data, rows, cols} or typed arrays equals the same rows', () => {
    const flat = { data: new Float32Array(keys.flat()), rows: 3, cols: 4 };
    const fromRows = ap.attend('cosine', query, keys, values);
    const fromFlat = ap.attend(
      'cosine',
      new Float64Array(query),
      flat,
      values.map((v) => new Float32Array(v)),
    );
    assert.deepEqual(fromFlat.weights, fromRows.weights);
    assert.deepEqual(fromFlat.context, fromRows.context);
  });

  test('keys and values of other sizes than the query (values of dv ≠ dk) work for additive', () => {
    const result = ap.attend(
      'additive',
      [0.5, -1],
      [
        [1, 2, 3],
        [0, 1, 0],
      ],
      [[1], [3]],
      { hidden_size: 5 },
    );
    const weights = referenceWeights(
      referenceScores(
        'additive',
        [0.5, -1],
        [
          [1, 2, 3],
          [0, 1, 0],
        ],
        result.params,
      ),
    );
    assertClose(result.weights, weights, 'weights');
    assertClose(result.context, [weights[0] * 1 + weights[1] * 3], 'context');
  });
});

describe('defaultParams', () => {
  test('are deterministic, shaped dq × dk (general) and da × d (additive), and what attend uses', () => {
    const general = ap.defaultParams('general', 4, 3, 2);
    assert.deepEqual([general.w.rows, general.w.cols], [4, 3]);
    assert.deepEqual(ap.defaultParams('general', 4, 3, 2), general);
    const additive = ap.defaultParams('additive', 4, 4, 4);
    assert.deepEqual(
      [additive.w_q.rows, additive.w_q.cols, additive.w_k.rows, additive.w_k.cols, additive.v.length],
      [4, 4, 4, 4, 4],
    );
    // uniform ±1/√fan_in, fan_in = 4
    for (const x of [...additive.w_q.data, ...additive.w_k.data]) assert.ok(Math.abs(x) <= 0.5);
    assert.ok(new Set(additive.w_q.data).size > 1, 'not all equal');
    assert.deepEqual(ap.attend('additive', query, keys, values).params, additive);
    assert.deepEqual(ap.attend('general', query, keys, values).params, ap.defaultParams('general', 4, 4, 4));
    assert.deepEqual(ap.defaultParams('cosine', 4, 4, 4), { kind: 'cosine' });
    assert.deepEqual(ap.defaultParams('scaled_cosine', 9, 9, 4), { kind: 'scaled_cosine', scale: 3 });
  });
});

describe('module', () => {
  test('scoreKinds lists the six score functions in order', () => {
    assert.deepEqual(ap.scoreKinds(), [
      'dot',
      'scaled_dot',
      'general',
      'additive',
      'cosine',
      'scaled_cosine',
    ]);
  });

  test('simdIsa names the kernels the module was built with', () => {
    assert.ok(['wasm_simd128', 'scalar'].includes(ap.simdIsa()), ap.simdIsa());
  });
});

describe('errors', () => {
  const cases = [
    [
      'an unknown score function',
      () => ap.attend('dott', query, keys, values),
      /unknown score function "dott"/,
    ],
    [
      'a kind that is not a string',
      () => ap.attend(3, query, keys, values),
      /kind: expected a score function name/,
    ],
    ['a query of the wrong size', () => ap.attend('dot', [1, 2], keys, values), /query of 2 and keys of 4/],
    [
      'rows of different lengths',
      () =>
        ap.attend(
          'dot',
          query,
          [
            [1, 2, 3, 4],
            [1, 2],
          ],
          values,
        ),
      /keys\[1\] has 2 numbers but keys\[0\] has 4/,
    ],
    [
      'a value row per key missing',
      () => ap.attend('dot', query, keys, values.slice(0, 2)),
      /values are 2×4 but keys are 3×4/,
    ],
    ['no keys', () => ap.attend('dot', query, [], []), /dk = 0|no keys/],
    [
      'a fully masked row',
      () => ap.attend('dot', query, keys, values, { mask: [0, 0, 0] }),
      /every one of the 3 keys is masked/,
    ],
    ['a mask of the wrong length', () => ap.attend('dot', query, keys, values, { mask: [1] }), /mask has 1/],
    [
      'a temperature of 0',
      () => ap.attend('dot', query, keys, values, { temperature: 0 }),
      /temperature must be from 0.001 to 1000, got 0/,
    ],
    [
      'a temperature that is not a number',
      () => ap.attend('dot', query, keys, values, { temperature: 'hot' }),
      /options.temperature: expected a number/,
    ],
    [
      'a missing query',
      () => ap.attend('dot', undefined, keys, values),
      /query: expected an array of numbers, got nothing/,
    ],
    [
      'a number that is not finite',
      () => ap.attend('dot', [1, 0, NaN, 0], keys, values),
      /query\[2\] is not a finite number/,
    ],
    [
      'text in a vector',
      () => ap.attend('dot', query, [[1, 'x', 0, 0], ...keys.slice(1)], values),
      /keys\[0\]\[1\] is not a finite number/,
    ],
    [
      'general params of the wrong shape',
      () => ap.attend('general', query, keys, values, { params: { w: [[1, 2]] } }),
      /W is 1×2/,
    ],
    [
      'additive params with a member missing',
      () => ap.attend('additive', query, keys, values, { params: { w_q: [[1]] } }),
      /options.params.w_k is missing/,
    ],
    [
      'scaled cosine params without their scale',
      () => ap.attend('scaled_cosine', query, keys, values, { params: {} }),
      /options.params.scale is missing \(needed by scaled_cosine\)/,
    ],
    [
      'a scaled cosine scale that is not a number',
      () => ap.attend('scaled_cosine', query, keys, values, { params: { scale: '2' } }),
      /options.params.scale: expected a number, got/,
    ],
    [
      'a scaled cosine scale out of bounds',
      () => ap.attend('scaled_cosine', query, keys, values, { params: { scale: Infinity } }),
      /options.params.scale: expected a number from -1000 to 1000, got/,
    ],
    [
      'a defaultParams size of 0',
      () => ap.defaultParams('general', 0, 4, 4),
      /dq: expected a whole number from 1 to 4096/,
    ],
  ];
  for (const [what, call, message] of cases) {
    test(`${what} throws an Error carrying the C++ message`, () => {
      assert.throws(call, (error) => {
        assert.ok(error instanceof Error, `not an Error: ${error}`);
        assert.match(error.message, message);
        return true;
      });
    });
  }

  test('thousands of errors give back the wasm stack and leave the engine working', () => {
    const stackPointer = ap.stackSave();
    for (let i = 0; i < 2000; i++) {
      assert.throws(() => ap.attend('dot', query, keys, values, { mask: [0, 0, 0] }), Error);
      assert.throws(() => ap.attend('cosine', query, [[1, 2]], values), Error);
    }
    assert.equal(ap.stackSave(), stackPointer);
    assertClose(ap.attend('dot', query, keys, values).scores, [1.1, 0, 0], 'scores after the errors');
  });
});
