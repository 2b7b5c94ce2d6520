// Hostile JS values through every binding: page code that runs while an argument is read (a
// getter, a proxy trap, valueOf) must not be able to free what a call is using, exceptions it
// throws must not leak handles or stack, and odd values (NaN, Infinity, huge numbers, strings for
// numbers, typed arrays of the wrong kind, detached buffers, revoked proxies, cycles) give a coded
// error. After each test the live emval handle count is back where it started (the fixture), and
// the engine keeps working.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { useEngine } from './engine-fixture.mjs';

const modelsDir = new URL('../../web/models/', import.meta.url);
const bytes = new Uint8Array(readFileSync(new URL('zh-additive-bahdanau.safetensors', modelsDir)));

let ap;
const { keep } = useEngine((loaded) => (ap = loaded));

const coded = (code, message) => (error) => {
  assert.ok(error instanceof Error, String(error));
  assert.equal(error.code, code, error.message);
  if (message) assert.match(error.message, message);
  return true;
};

const detached = (array) => {
  structuredClone(array.buffer, { transfer: [array.buffer] });
  return array;
};

// A working decode afterwards: nothing was corrupted.
function stillWorks() {
  const model = keep(ap.Model.load(bytes));
  const session = keep(model.decode('tom chase jerry'));
  session.run();
  assert.equal(session.outputText(), '汤姆 追逐 杰瑞');
}

describe('page code that deletes what a call is using', () => {
  test('a getter in decode’s options that deletes the model: bad_state, nothing freed is read', () => {
    const model = ap.Model.load(bytes);
    const options = {
      get topK() {
        model.delete();
        return 3;
      },
    };
    assert.throws(() => model.decode('tom chase jerry', options), coded('bad_state', /Model was deleted/));
    assert.ok(model.isDeleted());
    stillWorks();
  });

  test('a proxy as decode’s options whose traps delete the model', () => {
    const model = ap.Model.load(bytes);
    const options = new Proxy(
      {},
      {
        ownKeys() {
          model.delete();
          return [];
        },
      },
    );
    assert.throws(() => model.decode('tom chase jerry', options), coded('bad_state'));
    stillWorks();
  });

  test('a getter that deletes the session during force, record and beam', () => {
    const model = keep(ap.Model.load(bytes));
    for (const call of [(s, arg) => s.force(arg), (s, arg) => s.record(arg), (s, arg) => s.beam(arg)]) {
      const session = model.decode('tom chase jerry');
      session.step();
      const arg = {
        get x() {
          session.delete();
          return 1;
        },
      };
      assert.throws(() => call(session, arg), coded('bad_state', /Session was deleted/));
    }
    stillWorks();
  });

  test('a getter that deletes the model during a session call: the session keeps the network', () => {
    const model = ap.Model.load(bytes);
    const session = keep(model.decode('tom chase jerry'));
    const arg = {
      get x() {
        model.delete();
        return 1;
      },
    };
    assert.throws(() => session.force(arg), coded('bad_argument', /expected a token id, got a object/));
    assert.ok(model.isDeleted());
    session.run();
    assert.equal(session.outputText(), '汤姆 追逐 杰瑞');
  });

  test('getters run once, before the engine; a throwing one gives bad_argument with it as the cause', () => {
    let reads = 0;
    const options = {
      get temperature() {
        reads++;
        return 0.5;
      },
    };
    const result = ap.attend('dot', [1, 0], [[1, 0]], [[2]], options);
    assert.equal(reads, 1);
    assert.equal(result.temperature, 0.5);
    const boom = new Error('boom');
    const throwing = {
      get mask() {
        throw boom;
      },
    };
    assert.throws(
      () => ap.attend('dot', [1, 0], [[1, 0]], [[2]], throwing),
      (error) => {
        coded('bad_argument', /^attend: argument 5 cannot be read: boom$/)(error);
        assert.equal(error.details.argument, 5);
        assert.equal(error.cause, boom);
        return true;
      },
    );
    stillWorks();
  });
});

describe('values that are not what they claim', () => {
  test('valueOf and toString are never called', () => {
    let called = 0;
    const sneaky = {
      valueOf() {
        called++;
        throw new Error('valueOf');
      },
      toString() {
        called++;
        throw new Error('toString');
      },
    };
    const model = keep(ap.Model.load(bytes));
    const session = keep(model.decode('tom chase jerry'));
    assert.throws(() => model.decode(sneaky), coded('bad_argument', /expected the input text as a string/));
    assert.throws(() => model.decode('tom chase jerry', { topK: sneaky }), coded('bad_argument'));
    assert.throws(() => session.force(sneaky), coded('bad_argument'));
    assert.throws(() => ap.attend('dot', [1, sneaky], [[1, 2]], [[1]]), coded('bad_argument', /query\[1\]/));
    assert.throws(() => ap.attend(sneaky, [1], [[1]], [[1]]), coded('bad_argument', /kind/));
    assert.throws(() => ap.defaultParams('general', sneaky, 2, 2), coded('bad_argument', /dq/));
    assert.equal(called, 0);
  });

  test('NaN, Infinity, huge and fractional numbers where whole numbers go', () => {
    const model = keep(ap.Model.load(bytes));
    const session = keep(model.decode('tom chase jerry'));
    for (const bad of [NaN, Infinity, -Infinity, 1e300, -1e300, 2 ** 31, 2.5, -0.5]) {
      assert.throws(
        () => model.decode('tom chase jerry', { topK: bad }),
        coded('bad_argument', /options\.topK/),
      );
      assert.throws(
        () => model.decode('tom chase jerry', { maxSteps: bad }),
        coded('bad_argument', /maxSteps/),
      );
      assert.throws(() => session.force(bad), coded('bad_argument'));
      assert.throws(() => session.record(bad), coded('bad_argument'));
      assert.throws(() => session.beam(bad), coded('bad_argument'));
      assert.throws(() => ap.defaultParams('general', bad, 2, 2), coded('bad_argument'));
    }
    for (const bad of [NaN, Infinity, 1e300]) {
      assert.throws(() => ap.attend('dot', [bad, 0], [[1, 0]], [[1]]), coded('bad_argument'));
      assert.throws(
        () => model.decode('tom chase jerry', { temperature: bad }),
        coded('bad_argument', /temperature/),
      );
      assert.throws(() => ap.attend('dot', [1], [[1]], [[1]], { temperature: bad }), coded('bad_argument'));
    }
    assert.throws(() => ap.attend('dot', [3e38 * 10], [[1]], [[1]]), coded('bad_argument', /not a finite/));
    stillWorks();
  });

  test('strings, booleans, bigints and symbols where numbers go', () => {
    const model = keep(ap.Model.load(bytes));
    const session = keep(model.decode('tom chase jerry'));
    for (const bad of ['3', true, 3n, Symbol('x'), null, [], {}]) {
      assert.throws(() => model.decode('tom chase jerry', { topK: bad }), coded('bad_argument'));
      assert.throws(() => session.force(bad), coded('bad_argument'));
      assert.throws(() => session.beam(bad), coded('bad_argument'));
      assert.throws(() => ap.attend('dot', [bad], [[1]], [[1]]), coded('bad_argument'));
    }
  });

  test('typed arrays: numbers of any kind work, bigints and the wrong kind for a file do not', () => {
    const expected = ap.attend('dot', [1, 2], [[1, 2]], [[3]]).scores;
    for (const T of [Float64Array, Int32Array, Uint8Array, Int16Array])
      assert.deepEqual(ap.attend('dot', new T([1, 2]), [new T([1, 2])], [[3]]).scores, expected, T.name);
    assert.throws(() => ap.attend('dot', new BigInt64Array(2), [[1, 2]], [[1]]), coded('bad_argument'));
    assert.throws(() => ap.Model.load(new Float32Array(bytes.buffer.slice(0, 64))), coded('bad_argument'));
    assert.throws(() => ap.Model.load(new DataView(bytes.buffer)), coded('bad_argument'));
    assert.throws(() => ap.Model.load(bytes.buffer), coded('bad_argument'));
    stillWorks();
  });

  test('detached buffers and revoked proxies', () => {
    assert.throws(() => ap.Model.load(detached(bytes.slice())), coded('bad_argument', /detached/));
    assert.throws(
      () => ap.attend('dot', detached(new Float32Array(2)), [[1, 2]], [[1]]),
      coded('bad_argument'),
    );
    const { proxy, revoke } = Proxy.revocable([1, 2], {});
    revoke();
    assert.throws(() => ap.attend('dot', proxy, [[1, 2]], [[1]]), coded('bad_argument', /revoked/));
    stillWorks();
  });

  test('a proxy claiming 2³² − 1 elements and a cycle are refused without reading them all', () => {
    const { maxArgumentElements, maxArgumentDepth } = ap.limits();
    let reads = 0;
    const huge = new Proxy([], {
      get: (target, key) => (key === 'length' ? 2 ** 32 - 1 : (reads++, 0)),
    });
    assert.throws(
      () => ap.attend('dot', huge, [[1]], [[1]]),
      coded('bad_argument', new RegExp(`more than ${maxArgumentElements}`)),
    );
    assert.equal(reads, 0);
    const cyclic = {};
    cyclic.self = cyclic;
    assert.throws(
      () => ap.attend('dot', [1], [[1]], [[1]], cyclic),
      coded('bad_argument', /^attend: argument 5 holds itself \(a cycle\)/),
    );
    // Nesting without a cycle is bounded too.
    let deep = [1];
    for (let i = 0; i < maxArgumentDepth + 2; i++) deep = [deep];
    assert.throws(
      () => ap.attend('dot', deep, [[1]], [[1]]),
      coded('bad_argument', new RegExp(`nested more than ${maxArgumentDepth}`)),
    );
  });

  test('a lone surrogate becomes U+FFFD instead of swallowing the next character', () => {
    const model = keep(ap.Model.load(bytes));
    assert.throws(
      () => model.decode('tom \uD800chase jerry'),
      (error) => error.message.includes('"\uFFFDchase"'),
    );
    assert.throws(
      () => model.decode('tom chase \uDC00'),
      (error) => error.message.includes('"\uFFFD"'),
    );
  });

  test('hundreds of hostile calls leave the stack and the heap as they were', () => {
    const model = keep(ap.Model.load(bytes));
    const session = keep(model.decode('tom chase jerry'));
    const stackPointer = ap.stackSave();
    const throwing = {
      get topK() {
        throw new Error('no');
      },
    };
    for (let i = 0; i < 300; i++) {
      assert.throws(() => model.decode('tom chase jerry', throwing), Error);
      assert.throws(() => session.force(NaN), Error);
      assert.throws(() => ap.attend('dot', [1, 'x'], [[1, 2]], [[1]]), Error);
    }
    const heap = ap.HEAP8.buffer.byteLength;
    for (let i = 0; i < 300; i++) {
      assert.throws(() => model.decode('tom chase jerry', throwing), Error);
      assert.throws(() => session.force(1e300), Error);
    }
    assert.equal(ap.stackSave(), stackPointer);
    assert.equal(ap.HEAP8.buffer.byteLength, heap);
    stillWorks();
  });
});
