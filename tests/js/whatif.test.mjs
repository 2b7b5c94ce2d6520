// What-ifs on a real model through the page binding: a masked source token, a pinned step, a
// scaled temperature. The intervened weights are checked against the step's own scores recomputed
// here in double precision (the softmax over the tokens left, one-hot, the given weights over their
// sum, softmax(e/τ)), the later steps against the chain of states, and every hostile argument is
// refused with a code and leaves the session decoding as before.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { useEngine } from './engine-fixture.mjs';

const checkpoint = (name) =>
  new Uint8Array(readFileSync(new URL(`../../web/models/${name}.safetensors`, import.meta.url)));

/** softmax(e / τ) over the indices not in `masked`, in double precision. */
function softmaxOverRest(scores, masked, tau = 1) {
  const kept = [...scores.keys()].filter((j) => !masked.includes(j));
  const top = Math.max(...kept.map((j) => scores[j]));
  const exps = Array.from(scores, (e, j) => (kept.includes(j) ? Math.exp((e - top) / tau) : 0));
  const sum = exps.reduce((a, b) => a + b);
  return exps.map((x) => x / sum);
}

function close(actual, expected, tolerance, what) {
  assert.equal(actual.length, expected.length, what);
  for (let j = 0; j < expected.length; ++j)
    assert.ok(
      Math.abs(actual[j] - expected[j]) <= tolerance,
      `${what}[${j}]: ${actual[j]} vs ${expected[j]}`,
    );
}

/** Each step feeds the next: its state is the next one's previous state, its token the next input. */
function assertChained(steps) {
  for (let i = 1; i < steps.length; ++i) {
    assert.deepEqual(steps[i].prevState, steps[i - 1].state, `step ${i}: previous state`);
    assert.equal(steps[i].prevTokenId, steps[i - 1].tokenId, `step ${i}: previous token`);
  }
}

describe('what-ifs on the real model', () => {
  let ap;
  const { keep } = useEngine((engine) => (ap = engine));

  test('a masked source token: weight 0 at every later step, the others the softmax over the rest', () => {
    for (const name of ['zh-additive-bahdanau', 'zh-dot-luong']) {
      const model = keep(ap.Model.load(checkpoint(name)));
      const plain = keep(model.decode('tom chase jerry'));
      const plainSteps = plain.run();
      const session = keep(model.decode('tom chase jerry'));
      const first = session.step();
      session.whatIf({ mask: 1 });
      const later = session.run();
      assert.equal(first.intervened, 0);
      assert.equal(first.masked, null);
      assert.deepEqual(first.weights, plainSteps[0].weights);
      for (const s of later) {
        assert.equal(s.intervened, 1, `${name}: step ${s.index} marked`);
        assert.deepEqual(Array.from(s.masked), [0, 1, 0]);
        assert.equal(s.weights[1], 0);
        assert.equal(s.pin, 'none');
        close(s.weights, softmaxOverRest(s.scores, [1]), 1e-6, `${name}: step ${s.index} weights`);
        close(
          s.exps,
          softmaxOverRest(s.scores, [1]).map((w) => w * s.expSum),
          1e-5,
          `${name}: exps`,
        );
        assert.ok(Math.abs(s.maxEntropy - Math.log(2)) < 1e-6);
      }
      assertChained([first, ...later]);
      // Without the mask the model attends to "chase" at the second step: the what-if changed it.
      assert.ok(plainSteps[1].weights[1] > 0.01, `${name}: plain weight ${plainSteps[1].weights[1]}`);
      assert.notDeepEqual(later[0].probs, plainSteps[1].probs);
    }
  });

  test('a pinned step: one-hot on a token or given weights over their sum; the step after is the model’s', () => {
    const model = keep(ap.Model.load(checkpoint('zh-additive-bahdanau')));
    const session = keep(model.decode('tom chase jerry'));
    const H = session.encoderStates();
    session.whatIf({ pin: 2 });
    const oneHot = session.step();
    assert.deepEqual(Array.from(oneHot.weights), [0, 0, 1]);
    assert.deepEqual(oneHot.context, H.data.slice(2 * H.cols, 3 * H.cols));
    assert.equal(oneHot.pin, 'token');
    assert.equal(oneHot.intervened, 1);
    session.whatIf({ pin: new Float64Array([1, 3, 0]) });
    const given = session.step();
    assert.deepEqual(Array.from(given.weights), [0.25, 0.75, 0]);
    assert.equal(given.pin, 'weights');
    for (let d = 0; d < H.cols; ++d) {
      const expected = 0.25 * H.data[d] + 0.75 * H.data[H.cols + d];
      assert.ok(Math.abs(given.context[d] - expected) < 1e-6, `context[${d}]`);
    }
    // The softmax terms still say what the model would have given.
    close(
      Array.from(given.exps, (x) => x / given.expSum),
      softmaxOverRest(given.scores, []),
      1e-6,
      'model weights',
    );
    session.whatIf({ pin: [5, 5, 5] });
    session.whatIf({ pin: null });
    const after = session.step();
    assert.equal(after.pin, 'none');
    assert.equal(after.intervened, 0);
    close(after.weights, softmaxOverRest(after.scores, []), 1e-6, 'unpinned');
    assertChained([oneHot, given, after]);
  });

  test('a scaled temperature holds for the rest of the decode, and reset() clears every what-if', () => {
    const model = keep(ap.Model.load(checkpoint('zh-additive-bahdanau')));
    const session = keep(model.decode('tom chase jerry'));
    session.whatIf({ temperature: 4 });
    const steps = session.run();
    for (const s of steps) {
      assert.equal(s.temperature, 4);
      assert.equal(s.intervened, 1);
      close(s.weights, softmaxOverRest(s.scores, [], 4), 1e-6, `step ${s.index}`);
    }
    assertChained(steps);
    session.reset();
    for (const s of session.run()) assert.equal(s.intervened, 0);
  });

  test('hostile what-ifs are refused by name, and the session decodes as before', () => {
    const model = keep(ap.Model.load(checkpoint('zh-additive-bahdanau')));
    const plain = keep(model.decode('tom chase jerry'));
    const expected = plain.run().map((s) => Array.from(s.weights));
    const session = keep(model.decode('tom chase jerry'));
    const refused = (call, name) =>
      assert.throws(call, (e) => {
        assert.equal(e.code, 'bad_argument', `${e.message}`);
        assert.equal(e.details.name, name, e.message);
        return true;
      });
    const evil = {
      valueOf() {
        throw new Error('read');
      },
    };
    for (const bad of ['1', 1.5, NaN, Infinity, 2 ** 31, null, undefined, evil, [1], {}])
      refused(() => session.whatIf({ mask: bad }), 'mask');
    for (const bad of [
      null,
      undefined,
      'mask',
      [{ mask: 1 }],
      {},
      { mask: 1, pin: 1 },
      { foo: 1 },
      new Proxy({}, {}),
    ])
      refused(() => session.whatIf(bad), 'whatIf');
    for (const bad of [-1, 3, 1e9]) refused(() => session.whatIf({ mask: bad }), 'source_index');
    for (const bad of ['1', evil, {}, { length: 3, 0: 1, 1: 1, 2: 1 }, true])
      refused(() => session.whatIf({ pin: bad }), 'pin');
    for (const bad of [-1, 3, 0.5])
      refused(() => session.whatIf({ pin: bad }), bad === 0.5 ? 'pin' : 'source_index');
    for (const bad of [
      [1, NaN, 1],
      [1, Infinity, 1],
      [1, '1', 1],
      [1, evil, 1],
    ])
      refused(() => session.whatIf({ pin: bad }), 'pin[1]');
    for (const bad of [[1, -1, 1], [0, 0, 0], [1, 1], [], new Float32Array(4)])
      refused(() => session.whatIf({ pin: bad }), 'weights');
    const huge = new Proxy([], { get: (target, key) => (key === 'length' ? 2 ** 32 - 1 : 0) });
    // Refused by the copy of the arguments, before the engine is entered.
    assert.throws(() => session.whatIf({ pin: huge }), /cannot be read/);
    for (const bad of ['1', null, evil]) refused(() => session.whatIf({ temperature: bad }), 'temperature');
    for (const bad of [0, -1, NaN, Infinity, -Infinity, 1e300, 1e-300, 1e6])
      refused(() => session.whatIf({ temperature: bad }), 'temperature');
    session.whatIf({ mask: 0 });
    session.whatIf({ mask: 2 });
    refused(() => session.whatIf({ mask: 1 }), 'mask');
    session.whatIf({ unmask: 0 });
    session.whatIf({ unmask: 2 });
    session.whatIf({ unmask: 2 });
    for (const s of session.run()) assert.equal(s.intervened, 0);
    session.reset();
    assert.deepEqual(
      session.run().map((s) => Array.from(s.weights)),
      expected,
    );
  });
});
