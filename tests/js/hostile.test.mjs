// Hostile checkpoints and texts through the JS API: each is refused at load or decode with a
// clear, coded error, leaks no emval handle (the fixture checks the count after every test), does
// not grow the wasm heap towards what the file asks for, and leaves the engine working (a shipped
// model loads and decodes afterwards).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { errorOf, useEngine } from './engine-fixture.mjs';

const modelsDir = new URL('../../web/models/', import.meta.url);
const shipped = (name) => new Uint8Array(readFileSync(new URL(`${name}.safetensors`, modelsDir)));

let ap;
const { keep } = useEngine((loaded) => (ap = loaded));

// The limits the engine states in src/core/limits.hpp (the bindings report theirs from there too;
// the first test holds limits() to these).
const maxJsonDepth = 16;
const maxModelDim = 4096;
const maxVocabTokens = 32768;
const maxInputChars = 2000;
const maxInputTokens = 512;
const maxDecodeSteps = 1024;
const maxBeamWidth = 64;
const maxFileBytes = 64 * 1024 * 1024;

/** The header object and the data section of a .safetensors file. */
function split(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + length)));
  return { header, data: bytes.subarray(8 + length) };
}

/** A .safetensors file of `header` (an object, or the JSON text itself) and `data`. */
function join(header, data = new Uint8Array(0)) {
  let text = typeof header === 'string' ? header : JSON.stringify(header);
  while (text.length % 8) text += ' ';
  const json = new TextEncoder().encode(text);
  const out = new Uint8Array(8 + json.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  out.set(data, 8 + json.length);
  return out;
}

/** The error `f` throws; fails when it does not throw. */
// The coded error: a message always; `code` and `details` once the bindings hand them over.
function assertCoded(error, { message, code, details = {} }) {
  assert.ok(error instanceof Error, `an Error, got ${error}`);
  assert.match(error.message, message);
  if ('code' in error) {
    assert.equal(error.code, code);
    for (const [name, value] of Object.entries(details)) assert.deepEqual(error.details[name], value, name);
  }
}

const heapBytes = () => ap.HEAPU8.buffer.byteLength;

// The engine still loads and decodes a shipped model.
function stillWorks() {
  const model = keep(ap.Model.load(shipped('dates-additive-bahdanau')));
  const session = keep(model.decode('29 november 2026'));
  session.run();
  assert.equal(session.outputText(), '2026-11-29');
}

describe('one table of limits', () => {
  test('limits() reports the engine’s own limits, not a second set of the bindings', () => {
    const limits = ap.limits();
    assert.equal(limits.maxFileBytes, maxFileBytes);
    assert.equal(limits.maxInputChars, maxInputChars);
    assert.equal(limits.maxInputTokens, maxInputTokens);
    assert.equal(limits.maxSteps, maxDecodeSteps);
    assert.equal(limits.maxBeamWidth, maxBeamWidth);
    assert.equal(limits.maxParamsSize, maxModelDim);
  });
});

describe('hostile checkpoints', () => {
  let dates;
  before(() => {
    dates = split(shipped('dates-additive-bahdanau'));
  });

  const withMetadata = (key, value) =>
    join({ ...dates.header, __metadata__: { ...dates.header.__metadata__, [key]: value } }, dates.data);
  const withConfig = (edit) => {
    const config = JSON.parse(dates.header.__metadata__.config);
    edit(config);
    return withMetadata('config', JSON.stringify(config));
  };

  test('training metadata nested 10,000 deep is refused at load, not by a stack overflow in info()', () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    const error = errorOf(() => ap.Model.load(withMetadata('training', deep)));
    assertCoded(error, {
      message: new RegExp(`^checkpoint: metadata field "training" nests deeper than ${maxJsonDepth} levels$`),
      code: 'bad_checkpoint',
      details: { field: 'training', limit: maxJsonDepth },
    });
    // Within the limit the record loads and info() hands it over whole.
    const nested = { runs: JSON.parse('['.repeat(maxJsonDepth - 1) + ']'.repeat(maxJsonDepth - 1)) };
    const model = keep(ap.Model.load(withMetadata('training', JSON.stringify(nested))));
    assert.deepEqual(model.info().training, nested);
    stillWorks();
  });

  test('the config, the vocabularies and the header have the same depth limit', () => {
    for (const key of ['config', 'source_vocab', 'target_vocab']) {
      const error = errorOf(() => ap.Model.load(withMetadata(key, '['.repeat(100) + ']'.repeat(100))));
      assertCoded(error, {
        message: /nests deeper than 16 levels/,
        code: 'bad_checkpoint',
        details: { field: key },
      });
    }
    const error = errorOf(() => ap.Model.load(join(`{"x":${'['.repeat(1000)}${']'.repeat(1000)}}`)));
    assertCoded(error, { message: /^checkpoint: header nests deeper/, code: 'bad_checkpoint' });
    stillWorks();
  });

  test('a config key twice, a size that is not an integer, or out of bounds is refused by name', () => {
    const config = dates.header.__metadata__.config;
    const twice = errorOf(() =>
      ap.Model.load(withMetadata('config', config.replace('{', '{"embedding":64,'))),
    );
    assertCoded(twice, { message: /has the key "embedding" twice/, code: 'bad_checkpoint' });
    // 32.5 was read as 32, and 1e10 (JSON.stringify writes 10000000000) wrapped to 1,410,065,408.
    for (const [value, message] of [
      [32.5, /field "embedding" must be an integer, got 32\.5$/],
      [1e10, /field "embedding" is out of range, got 10000000000$/],
    ]) {
      const error = errorOf(() => ap.Model.load(withConfig((c) => (c.embedding = value))));
      assertCoded(error, { message, code: 'bad_checkpoint', details: { field: 'embedding' } });
    }
    const huge = errorOf(() => ap.Model.load(withConfig((c) => (c.max_target_len = 2 ** 31 - 1))));
    assertCoded(huge, {
      message: /max_target_len must be from 1 to 1023, got 2147483647/,
      code: 'bad_checkpoint',
      details: { field: 'max_target_len', limit: 1023 },
    });
    stillWorks();
  });

  test('a 1 KB file asking for a huge model is refused without growing the heap', () => {
    // No tensors at all, embedding 2^24: the heap grew to 900 MB before the missing tensors were noticed.
    const { __metadata__: meta } = dates.header;
    const config = JSON.parse(meta.config);
    const before = heapBytes();
    const big = errorOf(() =>
      ap.Model.load(
        join({ __metadata__: { ...meta, config: JSON.stringify({ ...config, embedding: 2 ** 24 }) } }),
      ),
    );
    assertCoded(big, {
      message: /embedding must be from 1 to 4096, got 16777216/,
      code: 'bad_checkpoint',
      details: { field: 'embedding', limit: maxModelDim },
    });
    // Every size at its bound (over 3 GB of parameters): refused by the first missing tensor.
    const tokens = ['<pad>', '<s>', '</s>', '<unk>'];
    for (let i = tokens.length; i < maxVocabTokens; i++) tokens.push(`t${i}`);
    const vocab = JSON.stringify({ tokenizer: 'words', tokens });
    const bounds = {
      ...config,
      source_vocab: maxVocabTokens,
      target_vocab: maxVocabTokens,
      embedding: maxModelDim,
      encoder_hidden: maxModelDim,
      decoder_hidden: maxModelDim,
      attention_dim: maxModelDim,
    };
    const missing = errorOf(() =>
      ap.Model.load(
        join({
          __metadata__: { ...meta, config: JSON.stringify(bounds), source_vocab: vocab, target_vocab: vocab },
        }),
      ),
    );
    assertCoded(missing, {
      message: /^checkpoint: missing tensor "encoder\.embedding" \[32768, 4096\]$/,
      code: 'bad_checkpoint',
      details: { field: 'encoder.embedding' },
    });
    assert.ok(heapBytes() - before < 64 * 2 ** 20, `the heap grew by ${(heapBytes() - before) / 2 ** 20} MB`);
    stillWorks();
  });

  test('a NUL byte in a file reaches the message escaped and whole', () => {
    const error = errorOf(() => ap.Model.load(withMetadata('format', 'apg\u0000x')));
    assert.equal(error.message, 'checkpoint: format "apg\\u0000x" is not apg-seq2seq-1');
  });
});

describe('hostile texts and options', () => {
  let zh;
  before(() => {
    zh = ap.Model.load(shipped('zh-additive-bahdanau'));
  });
  after(() => zh.delete());

  test('hundreds of distinct unknown words give one error naming the first few and the count', () => {
    const words = Array.from({ length: 300 }, (_, i) => `w${i}`);
    const error = errorOf(() => zh.decode(`tom ${words.join(' ')} tmo`));
    assertCoded(error, {
      message: /^unknown word "w0".*; and 293 more unknown words$/,
      code: 'unknown_token',
      details: { tokens: words.slice(0, 8), count: 301 },
    });
  });

  test('a million characters are refused by the character limit, at once', () => {
    const error = errorOf(() => zh.decode('x'.repeat(1_000_000)));
    assertCoded(error, {
      message: new RegExp(`^input has 1000000 characters, at most ${maxInputChars} are accepted$`),
      code: 'too_long',
      details: { length: 1_000_000, limit: maxInputChars },
    });
    const empty = errorOf(() => zh.decode(' ,. '));
    assertCoded(empty, { message: /^empty input/, code: 'empty_input' });
  });

  test('a temperature where the softmax would give NaN weights is refused', () => {
    for (const temperature of [1e-45, 0, -1, 1e9]) {
      const error = errorOf(() => zh.decode('tom chase jerry', { temperature }));
      assertCoded(error, { message: /temperature must be from/, code: 'bad_argument' });
    }
    const session = keep(zh.decode('tom chase jerry', { temperature: 1e-3 }));
    for (const step of session.run()) assert.ok(step.weights.every(Number.isFinite));
  });

  test('the sandbox refuses the same temperatures', () => {
    const keys = [
      [1, 0],
      [0, 1],
      [3, 3],
    ];
    for (const temperature of [1e-45, 0, -1, 1e9]) {
      const error = errorOf(() => ap.attend('dot', [1, 2], keys, keys, { temperature }));
      assertCoded(error, { message: /temperature must be from 0\.001 to 1000/, code: 'bad_argument' });
    }
    const sharp = ap.attend('dot', [1, 2], keys, keys, { temperature: 1e-3 });
    assert.deepEqual(Array.from(sharp.weights), [0, 0, 1]);
  });
});
