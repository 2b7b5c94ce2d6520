// Engine errors reach the page with their code and details, and the page decides by the code:
// through Comlink (as between the engine Worker and the page), and the reading of a failure.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import * as Comlink from 'comlink';

import { carryErrorCodes } from '../../../../web/shared/engine/errors.js';
import { isInputError, readError, unknownTokens } from '../../../../web/shared/lib/errors.js';

/** An Error as the engine throws it (wasm bindings): message, code and details. */
function engineError(message, code, details) {
  return Object.assign(new Error(message), { code, details });
}

const ports = [];
/** `api` exposed on one end of a MessageChannel, wrapped on the other (a Worker and its page). */
function across(api) {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  Comlink.expose(api, port1);
  return Comlink.wrap(port2);
}
after(() => ports.forEach((p) => p.close()));

const unknown = engineError('unknown word "chse" (did you mean "chase"?)', 'unknown_token', {
  tokens: ['chse'],
  suggestions: ['chase', 'chased'],
});
const api = {
  decode: () => {
    throw unknown;
  },
  tooLong: () => {
    throw engineError('input has 200 tokens, this model accepts at most 33', 'too_long', {
      length: 200,
      limit: 33,
    });
  },
  other: () => {
    throw new Error('the model zh is not loaded');
  },
};

describe('through Comlink', () => {
  // The order matters: Comlink's transfer handlers are global, the first test sees its default.
  test("Comlink's own transfer drops the code and details (the reason for carryErrorCodes)", async () => {
    const error = await across(api)
      .decode()
      .then(
        () => null,
        (e) => e,
      );
    assert.equal(error.message, unknown.message);
    assert.equal(error.code, undefined);
    assert.equal(error.details, undefined);
  });
  test('with carryErrorCodes the page gets the code and the details', async () => {
    carryErrorCodes();
    const remote = across(api);
    const error = await remote.decode().then(
      () => null,
      (e) => e,
    );
    assert.ok(error instanceof Error);
    assert.equal(error.message, unknown.message);
    assert.equal(error.code, 'unknown_token');
    assert.deepEqual(error.details, { tokens: ['chse'], suggestions: ['chase', 'chased'] });
    const long = await remote.tooLong().then(
      () => null,
      (e) => e,
    );
    assert.equal(long.code, 'too_long');
    assert.deepEqual(long.details, { length: 200, limit: 33 });
  });
  test('an error that is not the engine’s keeps no code', async () => {
    const remote = across(api);
    const other = await remote.other().then(
      () => null,
      (e) => e,
    );
    assert.equal(other.message, 'the model zh is not loaded');
    assert.equal(other.code, undefined);
  });
});

describe('readError, isInputError, unknownTokens', () => {
  test('the page keeps the code, the message and the details', () => {
    assert.deepEqual(readError(unknown), {
      code: 'unknown_token',
      message: unknown.message,
      details: { tokens: ['chse'], suggestions: ['chase', 'chased'] },
    });
    assert.deepEqual(readError('text'), { code: '', message: 'text', details: {} });
  });
  test('the unknown tokens and suggestions come from the details, not the message', () => {
    const failure = readError(
      engineError('no English here', 'unknown_token', { tokens: ['a', 'b'], suggestions: ['c'] }),
    );
    assert.deepEqual(unknownTokens(failure), { tokens: ['a', 'b'], suggestions: ['c'] });
    // a message that reads like an unknown word, with another code, is not one
    assert.equal(unknownTokens(readError(engineError(unknown.message, 'bad_argument', {}))), null);
    assert.equal(unknownTokens(readError(new Error(unknown.message))), null);
  });
  test('input errors are those a person fixes by editing the text', () => {
    for (const code of ['empty_input', 'unknown_token', 'too_long'])
      assert.ok(isInputError(readError(engineError('x', code, {}))), code);
    for (const code of ['bad_checkpoint', 'bad_argument', 'bad_state', 'limit_exceeded', undefined])
      assert.ok(!isInputError(readError(engineError('x', code, {}))), String(code));
  });
});
