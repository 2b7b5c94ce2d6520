// Every error the engine throws is an EngineError (playground.d.ts): an Error with the engine's
// whole message, a code from apg::ErrorCode and a plain details object. The bindings' own
// checks of JS values are coded bad_argument with details.name; the library's throws arrive with
// their own code and details where the library gives one, and otherwise with the code their
// standard type stands for (apg::code_of: invalid_argument → bad_argument, logic_error →
// bad_state, runtime_error → bad_checkpoint).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { useEngine } from './engine-fixture.mjs';

const modelsDir = new URL('../../web/models/', import.meta.url);
const checkpoint = (name) => new Uint8Array(readFileSync(new URL(`${name}.safetensors`, modelsDir)));

let ap;
const { keep } = useEngine((loaded) => (ap = loaded));

const codes = [
  'empty_input',
  'unknown_token',
  'too_long',
  'bad_checkpoint',
  'bad_argument',
  'bad_state',
  'limit_exceeded',
];

/** The error `call` throws, checked for the EngineError shape. */
function engineError(call) {
  let error;
  assert.throws(call, (e) => ((error = e), true));
  assert.ok(error instanceof Error, `not an Error: ${error}`);
  assert.equal(error.name, 'Error');
  assert.ok(codes.includes(error.code), `code ${error.code}`);
  assert.equal(typeof error.details, 'object');
  assert.ok(error.details !== null && !Array.isArray(error.details));
  assert.equal(String(error), `Error: ${error.message}`);
  return error;
}

/**
 * For a library throw: the code is `code`, or, where the library still throws a standard
 * exception for it, `fallback`. Returns whether it is already coded (then its details are its own).
 */
function libraryCode(error, code, fallback) {
  assert.ok(error.code === code || error.code === fallback, `code ${error.code}, expected ${code}`);
  return error.code === code;
}

describe('errors cross into JS with a code and details', () => {
  let model;
  before(() => {
    model = ap.Model.load(checkpoint('zh-additive-bahdanau'));
  });
  after(() => model.delete());

  test('an unknown word: unknown_token with the word and the suggestions', () => {
    const error = engineError(() => model.decode('tom chsae jerry'));
    assert.match(error.message, /unknown word "chsae" \(did you mean "chase"/);
    if (libraryCode(error, 'unknown_token', 'bad_argument')) {
      assert.deepEqual(error.details.tokens, ['chsae']);
      assert.ok(error.details.suggestions.includes('chase'), String(error.details.suggestions));
    }
  });

  test('an empty text: empty_input', () => {
    const error = engineError(() => model.decode(''));
    assert.match(error.message, /^empty input/);
    libraryCode(error, 'empty_input', 'bad_argument');
  });

  test('an over-long text: too_long with the limit', () => {
    const { maxSourceTokens } = model.info().limits;
    const error = engineError(() => model.decode('tom '.repeat(maxSourceTokens + 1)));
    assert.match(error.message, new RegExp(`at most ${maxSourceTokens}`));
    if (libraryCode(error, 'too_long', 'bad_argument')) assert.equal(error.details.limit, maxSourceTokens);
  });

  test('a bad file: bad_checkpoint', () => {
    const bytes = checkpoint('zh-additive-bahdanau');
    for (const bad of [bytes.slice(0, 100), bytes.slice(0, 5), new Uint8Array(0)]) {
      const error = engineError(() => ap.Model.load(bad));
      assert.equal(error.code, 'bad_checkpoint');
      assert.match(error.message, /^checkpoint: /);
    }
  });

  test('a call out of order: bad_state', () => {
    const session = keep(model.decode('tom chase jerry'));
    session.run();
    const error = engineError(() => session.step());
    assert.equal(error.code, 'bad_state');
    assert.match(error.message, /finished/);
  });

  test('the bindings’ own checks: bad_argument naming the value and its limit', () => {
    const vocab = model.info().tgtVocab.length;
    let error = engineError(() => model.decode('tom chase jerry', { topK: vocab + 1 }));
    assert.equal(error.code, 'bad_argument');
    assert.equal(error.details.name, 'options.topK');
    assert.equal(error.details.limit, vocab);
    assert.equal(error.message, `options.topK: expected a whole number from 1 to ${vocab}, got ${vocab + 1}`);

    error = engineError(() => model.decode('tom chase jerry', { topk: 3 }));
    assert.equal(error.code, 'bad_argument');
    assert.equal(error.details.name, 'options.topk');
    assert.match(error.message, /options\.topk is not an option of decode/);

    error = engineError(() => model.decode(42));
    assert.deepEqual([error.code, error.details.name], ['bad_argument', 'decode']);

    const session = keep(model.decode('tom chase jerry'));
    error = engineError(() => session.beam(65));
    assert.deepEqual([error.code, error.details.name, error.details.limit], ['bad_argument', 'beam', 64]);
    error = engineError(() => session.record(2.5));
    assert.equal(error.code, 'bad_argument');
    error = engineError(() => ap.attend('dot', [1, 'x'], [[1, 2]], [[1]]));
    assert.deepEqual([error.code, error.details.name], ['bad_argument', 'query[1]']);
    error = engineError(() => ap.defaultParams('general', 5000, 4, 4));
    assert.deepEqual([error.code, error.details.name, error.details.limit], ['bad_argument', 'dq', 4096]);
  });

  test('a token id out of the vocabulary: bad_argument', () => {
    const session = keep(model.decode('tom chase jerry'));
    const error = engineError(() => session.force(10_000));
    assert.equal(error.code, 'bad_argument');
    assert.match(error.message, /outside the target vocabulary/);
  });

  test('the whole message arrives, a NUL byte included', () => {
    const error = engineError(() => model.decode('tom chase jerry', { 'top\0K': 1 }));
    assert.equal(
      error.message,
      'options.top\0K is not an option of decode (topK, maxSteps, temperature, kvCache, qkv)',
    );
    assert.equal(error.details.name, 'options.top\0K');
  });

  test('embind’s own errors are coded too: a wrong number of arguments, a deleted object', () => {
    let error = engineError(() => model.decode());
    assert.equal(error.code, 'bad_argument');
    assert.equal(error.message, 'Model.decode: expected 1 or 2 arguments, got 0');
    error = engineError(() => ap.scoreKinds(1));
    assert.equal(error.code, 'bad_argument');
    error = engineError(() => ap.Model.load());
    assert.equal(error.code, 'bad_argument');

    const session = model.decode('tom chase jerry');
    session.delete();
    for (const call of [() => session.step(), () => session.force(3), () => session.trace()]) {
      error = engineError(call);
      assert.equal(error.code, 'bad_state');
      assert.match(error.message, /^Session\.\w+: this Session was deleted$/);
    }
    const own = ap.Model.load(checkpoint('zh-additive-bahdanau'));
    own.delete();
    error = engineError(() => own.info());
    assert.equal(error.code, 'bad_state');
  });

  test('after thousands of errors the stack is given back and the engine works', () => {
    const stackPointer = ap.stackSave();
    for (let i = 0; i < 1000; i++) {
      assert.throws(() => model.decode('tom chsae jerry'), Error);
      assert.throws(() => model.decode('tom chase jerry', { topK: 0 }), Error);
      assert.throws(() => model.decode(), Error);
    }
    assert.equal(ap.stackSave(), stackPointer);
    const session = keep(model.decode('tom chase jerry'));
    session.run();
    assert.equal(session.outputText(), '汤姆 追逐 杰瑞');
  });
});

describe('limits', () => {
  test('limits() gives what the bindings accept, and they are enforced', () => {
    const limits = ap.limits();
    assert.deepEqual(Object.keys(limits).sort(), [
      'maxArgumentChars',
      'maxArgumentDepth',
      'maxArgumentElements',
      'maxBeamWidth',
      'maxCosineScale',
      'maxFileBytes',
      'maxHeapBytes',
      'maxInputChars',
      'maxInputTokens',
      'maxParamsSize',
      'maxSteps',
      'maxTemperature',
      'maxVectorLength',
      'maxWorkBytes',
      'minTemperature',
    ]);
    const { minTemperature, maxTemperature, ...counts } = limits;
    for (const value of Object.values(counts)) assert.ok(Number.isInteger(value) && value > 0);
    // The float32 bounds the engine compares with: both ends are accepted, just past them refused.
    assert.equal(minTemperature, Math.fround(1e-3));
    assert.equal(maxTemperature, 1000);
    const keyed = [
      [1, 0],
      [0, 1],
    ];
    const at = (temperature) => ap.attend('dot', [1, 0], keyed, keyed, { temperature }).temperature;
    assert.equal(at(minTemperature), minTemperature);
    assert.equal(at(maxTemperature), maxTemperature);
    for (const outside of [minTemperature * 0.99, maxTemperature * 1.01])
      assert.throws(() => at(outside), { code: 'bad_argument' });
    assert.doesNotThrow(() => ap.defaultParams('general', limits.maxParamsSize, 1, 1));
    const unit = [[1, 0]];
    const scaled = (scale) => ap.attend('scaled_cosine', [1, 0], unit, unit, { params: { scale } });
    assert.equal(scaled(-limits.maxCosineScale).scale, -limits.maxCosineScale);
    assert.throws(() => scaled(limits.maxCosineScale + 1), { code: 'bad_argument' });
    assert.throws(() => ap.defaultParams('general', limits.maxParamsSize + 1, 1, 1), {
      code: 'bad_argument',
    });
    const tooBig = new Uint8Array(limits.maxFileBytes + 1);
    const heap = ap.HEAP8.buffer.byteLength;
    assert.throws(
      () => ap.Model.load(tooBig),
      (e) => e.code === 'limit_exceeded' && e.details.limit === limits.maxFileBytes,
    );
    assert.equal(ap.HEAP8.buffer.byteLength, heap, 'the heap did not grow for the refused file');
    const query = new Float32Array(limits.maxVectorLength + 1);
    assert.throws(
      () => ap.attend('dot', query, [query], [[1]]),
      (e) => e.details.limit === limits.maxVectorLength,
    );
  });

  test('the bindings hold decoding requests to the library’s own limits', () => {
    // One table: what limits() states passes the bindings and the library alike, one more is
    // refused (by the bindings first, so with their message, but never let through to a second,
    // different limit).
    const limits = ap.limits();
    const model = keep(ap.Model.load(checkpoint('dates-additive-bahdanau')));
    const info = model.info();
    assert.ok(info.limits.maxSourceTokens <= limits.maxInputTokens);
    const session = keep(model.decode('1/2/03', { maxSteps: limits.maxSteps }));
    assert.ok(session.run().length <= limits.maxSteps);
    const steps = engineError(() => model.decode('1/2/03', { maxSteps: limits.maxSteps + 1 }));
    assert.equal(steps.code, 'bad_argument');
    assert.match(steps.message, new RegExp(`from 0 to ${limits.maxSteps}, got ${limits.maxSteps + 1}$`));
    // The widest beam over the model's own length passes; over maxSteps steps its hypotheses
    // are past the memory budget (each field within its limit, their product not).
    const beam = keep(model.decode('1/2/03')).beam(limits.maxBeamWidth);
    assert.equal(beam.beams.length, Math.min(limits.maxBeamWidth, beam.beams.length));
    const deep = engineError(() => session.beam(limits.maxBeamWidth));
    assert.equal(deep.code, 'limit_exceeded');
    assert.equal(deep.details.name, 'hypothesis steps');
    assert.equal(deep.details.limit, limits.maxWorkBytes);
    assert.ok(beam.beams.length > 16, 'a beam wider than the old bindings-only limit');
    const wide = engineError(() => session.beam(limits.maxBeamWidth + 1));
    assert.equal(wide.code, 'bad_argument');
    assert.equal(wide.details.limit, limits.maxBeamWidth);
    const long = engineError(() => model.decode('1'.repeat(limits.maxInputChars + 1)));
    assert.equal(long.code, 'too_long');
    assert.equal(long.details.limit, limits.maxInputChars);
    // At the character limit the text is refused only for the model's token limit.
    const tokens = engineError(() => model.decode('1'.repeat(limits.maxInputChars)));
    assert.equal(tokens.code, 'too_long');
    assert.match(tokens.message, /tokens/);
  });

  test('info().limits gives the model’s own, and they are enforced', () => {
    const model = keep(ap.Model.load(checkpoint('dates-additive-bahdanau')));
    const info = model.info();
    assert.deepEqual(info.limits, {
      minSourceTokens: 1,
      maxSourceTokens: info.dims.maxSourceLen,
      maxTargetTokens: info.dims.maxTargetLen,
      maxTopK: info.tgtVocab.length,
    });
    const session = keep(model.decode('1/2/03', { topK: info.limits.maxTopK }));
    assert.equal(session.step().top.length, info.limits.maxTopK);
    assert.throws(() => model.decode('1/2/03', { topK: info.limits.maxTopK + 1 }), { code: 'bad_argument' });
    assert.throws(() => model.decode('1'.repeat(info.limits.maxSourceTokens + 1)), /at most/);
    assert.doesNotThrow(() => keep(model.decode('1'.repeat(info.limits.maxSourceTokens))));
    assert.doesNotThrow(() => keep(model.decode('1'.repeat(info.limits.minSourceTokens))));
    assert.throws(() => model.decode(' '), { code: 'empty_input' });
  });
});
