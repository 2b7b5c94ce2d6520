// One engine per test file with a leak check around every test: each embind object a test makes
// goes through keep() and is deleted after the test, and the live emval handle count must then be
// back where the test started (and at 0 when the file is done).
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach } from 'node:test';

import { loadEngine } from './load-engine.mjs';

/**
 * Registers the hooks. `onLoad(ap)` receives the engine before the first test.
 * @returns {{ keep: <T>(object: T) => T }}
 */
export function useEngine(onLoad) {
  let ap;
  let handlesAtStart;
  const live = [];
  before(async () => {
    ap = await loadEngine();
    onLoad(ap);
  });
  beforeEach(() => {
    handlesAtStart = ap.count_emval_handles();
  });
  afterEach(() => {
    while (live.length) {
      const object = live.pop();
      if (!object.isDeleted()) object.delete();
    }
    assert.equal(ap.count_emval_handles(), handlesAtStart, 'emval handles leaked');
  });
  after(() => assert.equal(ap.count_emval_handles(), 0, 'emval handles left at the end'));
  return { keep: (object) => (live.push(object), object) };
}

/** The error `f` throws; fails when it does not throw. */
export function errorOf(f) {
  try {
    f();
  } catch (error) {
    return error;
  }
  assert.fail('no error');
}
