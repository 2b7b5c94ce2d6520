// Engine errors reach the page with their code and details, and the page decides by the code:
// through Comlink (as between the engine Worker and the page), and the reading of a failure.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import * as Comlink from 'comlink';

import { carryErrorCodes } from '../../../../web/shared/engine/errors.js';
import { errorText, isInputError, readError, unknownTokens } from '../../../../web/shared/lib/errors.js';
import { readLangFrom } from '../../../../web/shared/i18n/translate.js';

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

describe('a line of own pairs in Chinese', () => {
  // The engine's message is English; in 中文 the page words each fault from the details alone (it
  // read '参数或输入无效（line 2: a line of only spaces or tabs (…)）。').
  const line = (message, code, details) =>
    readError(engineError(message, code, { name: 'pairs', ...details }));
  test('every fault the engine names, worded from its details', () => {
    readLangFrom(() => 'zh');
    try {
      const cases = [
        [
          line('line 2: a line of only spaces or tabs (…)', 'bad_argument', {
            line: 2,
            problem: 'blank_line',
          }),
          '第 2 行：这一行只有空格或制表符（只有末尾可以有空行）。',
        ],
        [
          line('line 3: empty line (…)', 'bad_argument', { line: 3, problem: 'empty_line' }),
          '第 3 行：空行（只有末尾可以有空行）。',
        ],
        [
          line('line 1: 2 tabs: …', 'bad_argument', { line: 1, problem: 'tabs', tabs: 2 }),
          '第 1 行：有 2 个制表符，源和目标之间应只有一个。',
        ],
        [
          line('line 4: no tab: …', 'bad_argument', { line: 4, problem: 'no_tab' }),
          '第 4 行：没有制表符，应为“源<TAB>目标”。',
        ],
        [
          line('line 2: the control character U+0001 at column 2 …', 'bad_argument', {
            line: 2,
            problem: 'control',
            column: 2,
          }),
          '第 2 行：第 2 列的控制字符不能使用。',
        ],
        [
          line('line 2: the target has 129 tokens, …', 'too_long', {
            line: 2,
            problem: 'too_long',
            side: 'target',
            unit: 'tokens',
            length: 129,
            limit: 128,
          }),
          '第 2 行：目标有 129 个词元，最多 128 个。',
        ],
        [
          line('line 1: the source is empty', 'bad_argument', {
            line: 1,
            problem: 'empty_side',
            side: 'source',
          }),
          '第 1 行：源为空。',
        ],
        [
          line('line 1: the target holds "<pad>", …', 'bad_argument', {
            line: 1,
            problem: 'reserved',
            side: 'target',
            token: '<pad>',
          }),
          '第 1 行：目标含有“<pad>”，这是词表留给自己的名字。',
        ],
        [
          line('line 3: not UTF-8 text: …', 'bad_argument', { line: 3, problem: 'not_utf8' }),
          '第 3 行：不是 UTF-8 文本。',
        ],
        [
          line('line 50001: more than 50000 pairs …', 'limit_exceeded', {
            line: 50001,
            problem: 'too_many',
            limit: 50000,
          }),
          '句对超过 50000 个（从第 50001 行起）。',
        ],
      ];
      for (const [failure, want] of cases) assert.equal(errorText(failure), want);
      // over its bytes it is a word of the side, not the side, that is too long
      assert.equal(
        errorText(
          line('line 2: a word of the source has 65 bytes, …', 'too_long', {
            line: 2,
            problem: 'too_long',
            side: 'source',
            unit: 'bytes',
            length: 65,
            limit: 64,
          }),
        ),
        '第 2 行：源中有一个词长 65 字节，最多 64 字节。',
      );
      // over the bytes: a paste (the page's own check) and the engine's
      assert.equal(
        errorText(line('The pasted text has …', 'limit_exceeded', { length: 3e6, limit: 2e6, pasted: true })),
        '粘贴的文本有 3,000,000 字节；训练器最多接受 2,000,000 字节的句对。',
      );
      assert.equal(
        errorText(line('pairs: the text has …', 'limit_exceeded', { length: 2000001, limit: 2e6 })),
        '句对文本有 2,000,001 字节；训练器最多接受 2,000,000 字节。',
      );
      // a fault the page does not know keeps the engine's words, in brackets
      assert.equal(
        errorText(line('line 2: something new', 'bad_argument', { line: 2, problem: 'new_kind' })),
        '参数或输入无效（line 2: something new）。',
      );
    } finally {
      readLangFrom(() => 'en');
    }
    // in English, the engine's own message
    assert.equal(
      errorText(line('line 2: empty line', 'bad_argument', { line: 2, problem: 'empty_line' })),
      'line 2: empty line',
    );
  });
});
