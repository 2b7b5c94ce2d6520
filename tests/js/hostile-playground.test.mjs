// The page module against the hostile inputs of the second hardening round: texts of hundreds of
// millions of characters, checkpoints whose sizes are each within their limits but whose products
// (steps × n × attention_dim, layers × heads × n²) are not, arguments that share or hold
// themselves, a handle deleted twice, temperatures just past the range. Each gets a coded error
// before anything is allocated, leaks no handle (the fixture counts them) and leaves the engine
// working.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { makeCheckpoint, sourceText } from './checkpoint-builder.mjs';
import { errorOf, useEngine } from './engine-fixture.mjs';

const modelsDir = new URL('../../web/models/', import.meta.url);
const shipped = (name) => new Uint8Array(readFileSync(new URL(`${name}.safetensors`, modelsDir)));

let ap;
const { keep } = useEngine((loaded) => (ap = loaded));

const heapBytes = () => ap.HEAPU8.buffer.byteLength;
const MiB = 2 ** 20;

function stillWorks() {
  const model = keep(ap.Model.load(shipped('zh-additive-bahdanau')));
  const session = keep(model.decode('tom chase jerry'));
  session.run();
  assert.equal(session.outputText(), '汤姆 追逐 杰瑞');
}

describe('texts are measured before they are copied', () => {
  test('a text of hundreds of millions of characters is too_long at the entry, copied nowhere', () => {
    const model = keep(ap.Model.load(shipped('zh-additive-bahdanau')));
    const before = heapBytes();
    for (const text of ['x'.repeat(1e8), '中'.repeat(4e8)]) {
      const error = errorOf(() => model.decode(text));
      assert.equal(error.code, 'too_long', error.message);
      assert.equal(error.details.length, text.length);
      assert.match(
        error.message,
        /^Model\.decode: argument 1 holds a text of \d+ characters, more than the 4000000/,
      );
    }
    assert.equal(heapBytes(), before);
    stillWorks();
  });

  test('a text under that bound but over 2,000 characters is refused without a copy', () => {
    const model = keep(ap.Model.load(shipped('zh-additive-bahdanau')));
    // 3.9 million characters, 11.7 MB of UTF-8: each copy of it would grow the heap.
    const text = '中'.repeat(3_900_000);
    const before = heapBytes();
    const error = errorOf(() => model.decode(text));
    assert.equal(error.code, 'too_long');
    assert.equal(error.message, 'input has 3900000 characters, at most 2000 are accepted');
    assert.deepEqual([error.details.length, error.details.limit], [3_900_000, 2000]);
    assert.ok(heapBytes() - before < MiB, `the heap grew by ${(heapBytes() - before) / MiB} MiB`);
    stillWorks();
  });
});

describe('one memory budget per decoding', () => {
  const additive = {
    score: 'additive',
    source_vocab: 8,
    target_vocab: 8,
    embedding: 1,
    encoder_hidden: 1,
    decoder_hidden: 1,
    attention_dim: 4096,
    max_source_len: 512,
    max_target_len: 1023,
  };

  test('1,024 steps × 512 positions × attention_dim 4096 is refused at decode(), before a step', () => {
    const bytes = makeCheckpoint(additive);
    assert.ok(bytes.length < 100_000); // a file of a few dozen KB
    const model = keep(ap.Model.load(bytes));
    const before = heapBytes();
    const error = errorOf(() => model.decode(sourceText(512, 8)));
    assert.equal(error.code, 'limit_exceeded', error.message);
    assert.equal(error.details.name, 'steps × source positions × attention_dim');
    assert.equal(error.details.limit, 256 * MiB);
    assert.match(
      error.message,
      /^session: 1024 steps × 512 source positions × 4096 attention_dim \(the additive/,
    );
    assert.ok(heapBytes() - before < 4 * MiB);
    // The same model over a short input, for fewer steps, is within the budget and decodes.
    const session = keep(model.decode(sourceText(4, 8), { maxSteps: 8 }));
    assert.equal(session.run().length, 8);
    stillWorks();
  });

  test('a transformer of 16 layers × 16 heads over 512 tokens: its self-attention records are refused', () => {
    const model = keep(
      ap.Model.load(
        makeCheckpoint({
          ...additive,
          encoder: 'transformer',
          embedding: 16,
          heads: 16,
          layers: 16,
          ff_hidden: 16,
          attention_dim: 4,
          max_target_len: 4,
        }),
      ),
    );
    const before = heapBytes();
    const error = errorOf(() => model.decode(sourceText(512, 8)));
    assert.equal(error.code, 'limit_exceeded');
    assert.equal(error.details.name, 'layers × heads × source positions × source positions');
    assert.ok(heapBytes() - before < 4 * MiB);
    // 128 tokens are within it; selfAttention() and the exports are each checked again.
    const session = keep(model.decode(sourceText(128, 8)));
    session.run();
    assert.equal(session.selfAttention().length, 16);
    assert.equal(session.exportNpy()['encoder.weights.npy'].length > 16 * 16 * 128 * 128 * 4, true);
    const json = errorOf(() => session.exportJson());
    assert.equal(json.code, 'limit_exceeded');
    assert.match(
      json.message,
      /^exportJson: 16 layers × 16 heads × 128 source positions × 128 source positions/,
    );
    stillWorks();
  });

  test('a beam search is budgeted as a whole: width × steps × n × attention_dim', () => {
    const model = keep(ap.Model.load(makeCheckpoint({ ...additive, attention_dim: 512 })));
    // One hypothesis of 1,000 steps over 64 positions keeps 131 MB of additive hidden: admitted.
    const session = keep(model.decode(sourceText(64, 8), { maxSteps: 1000 }));
    const before = heapBytes();
    const error = errorOf(() => session.beam(8));
    assert.equal(error.code, 'limit_exceeded');
    assert.equal(error.details.name, 'hypothesis steps × source positions × attention_dim');
    assert.match(error.message, /^beam: 8008 hypothesis steps × 64 source positions × 512 attention_dim/);
    assert.ok(heapBytes() - before < 4 * MiB);
    const short = keep(model.decode(sourceText(64, 8), { maxSteps: 20 }));
    assert.equal(short.beam(8).beams.length, 8);
    stillWorks();
  });
});

describe('arguments are copied once however they share', () => {
  test('eight arrays of sixteen nested seven deep (16⁷ paths) are copied as eight arrays', () => {
    const model = keep(ap.Model.load(shipped('zh-additive-bahdanau')));
    let reads = 0;
    let v = {
      get x() {
        reads++;
        return 1;
      },
    };
    for (let i = 0; i < 7; i++) v = Array(16).fill(v);
    const started = performance.now();
    const error = errorOf(() => model.decode('tom chase jerry', { topK: v }));
    assert.equal(error.code, 'bad_argument');
    assert.match(error.message, /options\.topK/);
    assert.equal(reads, 1, 'the shared object was read once');
    // well under a second on any machine (it took 5.4 s and 3.7 GB): linear, not a timing claim
    assert.ok(performance.now() - started < 1000);
    stillWorks();
  });

  test('a value passed twice is copied once, and both arguments read it', () => {
    const keys = [
      [1, 0],
      [0, 1],
    ];
    const result = ap.attend('dot', [2, 1], keys, keys);
    assert.deepEqual(
      Array.from(result.context),
      Array.from(
        ap.attend(
          'dot',
          [2, 1],
          keys,
          keys.map((r) => [...r]),
        ).context,
      ),
    );
  });

  test('a value that holds itself is refused by name, at any depth', () => {
    const model = keep(ap.Model.load(shipped('zh-additive-bahdanau')));
    const cyclic = [];
    cyclic.push([cyclic]);
    const error = errorOf(() => model.decode('tom chase jerry', { topK: cyclic }));
    assert.equal(error.code, 'bad_argument');
    assert.equal(
      error.message,
      'Model.decode: argument 2 holds itself (a cycle), which the engine cannot read',
    );
    assert.equal(error.details.argument, 2);
    stillWorks();
  });

  test('strings count towards the bound too: a million copies of one long text are refused', () => {
    const { maxArgumentElements } = ap.limits();
    const long = 'x'.repeat(1_000_000);
    const error = errorOf(() => ap.attend('dot', [1], [[1]], [[1]], { mask: Array(100).fill(long) }));
    assert.equal(error.code, 'bad_argument');
    assert.match(
      error.message,
      new RegExp(`more than ${maxArgumentElements} elements, keys and characters in all`),
    );
  });
});

describe('a handle deleted twice', () => {
  test('Model and Session: delete(), clone() and deleteLater() on a deleted handle are bad_state', () => {
    const model = ap.Model.load(shipped('zh-additive-bahdanau'));
    const session = model.decode('tom chase jerry');
    for (const [object, name] of [
      [session, 'Session'],
      [model, 'Model'],
    ]) {
      object.delete();
      for (const method of ['delete', 'clone']) {
        const error = errorOf(() => object[method]());
        assert.equal(error.code, 'bad_state', error.message);
        assert.equal(error.message, `${name}.${method}: this ${name} was deleted already`);
      }
    }
    stillWorks();
  });
});

describe('numbers in messages are the numbers given', () => {
  test('a temperature just past either end is named exactly, not rounded to a float', () => {
    const model = keep(ap.Model.load(shipped('zh-additive-bahdanau')));
    const session = keep(model.decode('tom chase jerry'));
    for (const [temperature, text] of [
      [1000.0001, '1000.0001'],
      [5e-324, '5e-324'],
      [0.0009999, '0.0009999'],
    ]) {
      const decode = errorOf(() => model.decode('tom chase jerry', { temperature }));
      assert.equal(
        decode.message,
        `options.temperature: temperature must be from 0.001 to 1000, got ${text}`,
      );
      assert.equal(decode.details.name, 'temperature');
      const whatIf = errorOf(() => session.whatIf({ temperature }));
      assert.equal(whatIf.message, `temperature: temperature must be from 0.001 to 1000, got ${text}`);
      const sandbox = errorOf(() => ap.attend('dot', [1], [[1]], [[1]], { temperature }));
      assert.match(sandbox.message, new RegExp(`got ${text.replace('.', '\\.')}$`));
    }
    // both ends themselves are accepted
    for (const temperature of [0.001, 1000]) keep(model.decode('tom chase jerry', { temperature }));
  });
});
