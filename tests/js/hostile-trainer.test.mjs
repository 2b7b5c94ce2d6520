// The trainer module against the hostile inputs of the second hardening round: strings of hundreds
// of millions of characters in a run's config, run sizes each within their limits whose products
// are not, shared arguments, a run without attention evaluated, a handle deleted twice, and the
// minor ones (a NUL in a task's name, a byte order mark before own pairs, an activation the GRU
// encoder has no use for). Each gets a coded error (or the right answer), leaks no handle (the
// fixture counts them) and leaves the module working.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { errorOf, useTrainer } from './trainer-fixture.mjs';

let T;
const { keep } = useTrainer((loaded) => (T = loaded));

const heapBytes = () => T.HEAPU8.buffer.byteLength;
const MiB = 2 ** 20;

// A small run trains and evaluates: the module still works.
function stillWorks() {
  const run = keep(new T.TrainRun({ task: 'reverse', steps: 2, batch: 4, embed: 8, hidden: 8 }));
  assert.equal(run.step(2).step, 2);
  assert.ok(run.evaluate(5).probe.rows > 0);
}

describe('strings in a run’s config', () => {
  test('a task and a probe of hundreds of millions of characters are too_long, and nothing is corrupted', () => {
    const before = T.count_emval_handles();
    const error = errorOf(() => new T.TrainRun({ task: '中'.repeat(2.4e8), probe: '中'.repeat(4e8) }));
    assert.equal(error.code, 'too_long', error.message);
    assert.match(error.message, /^TrainRunHandle\.create: argument 1 holds a text of 240000000 characters/);
    assert.equal(T.count_emval_handles(), before);
    const pairs = errorOf(() => T.parsePairs('a\tb\n'.repeat(1e8)));
    assert.equal(pairs.code, 'too_long');
    stillWorks();
  });

  test('a probe over the limit is refused by its length, as a text of characters', () => {
    const error = errorOf(() => new T.TrainRun({ task: 'dates', probe: '中'.repeat(5000) }));
    assert.equal(error.code, 'too_long');
    assert.equal(error.message, 'probe has 5000 characters, at most 2000 are accepted');
    assert.equal(error.details.name, 'probe');
  });
});

describe('one memory budget per run', () => {
  // 2,000 pairs (1.8 MB) with 128-token targets over 32,000 words: each size within its limit.
  const words = Array.from({ length: 32000 }, (_, i) => `w${i}`);
  const pairs = Array.from({ length: 2000 }, (_, k) => {
    const target = Array.from({ length: 128 }, (_, j) => words[(k * 128 + j) % words.length]).join(' ');
    return `s${k % 50} s${(k * 7) % 50}\t${target}`;
  }).join('\n');

  test('batch 512 and sizes 512 over them is refused by the product, before the model is made', () => {
    for (const batch of [512, 128]) {
      const before = heapBytes();
      const error = errorOf(() => new T.TrainRun({ pairs, batch, embed: 512, hidden: 512, steps: 10 }));
      assert.equal(error.code, 'limit_exceeded', error.message);
      assert.equal(error.details.name, 'target steps × batch × target tokens');
      assert.equal(error.details.limit, 256 * MiB);
      assert.match(
        error.message,
        new RegExp(`^training run: 129 target steps × ${batch} batch × 32004 target tokens`),
      );
      // the pairs were read (a few MB); nothing of the model, the optimiser or a batch was allocated
      assert.ok(heapBytes() - before < 96 * MiB, `the heap grew by ${(heapBytes() - before) / MiB} MiB`);
    }
    stillWorks();
  });

  test('the parameters with Adam’s moments are counted too', () => {
    // 4,000 target words × (decoder 1024 + encoder states 1024 + embedding 512) output weights
    const big = Array.from(
      { length: 40 },
      (_, k) => `a${k}\t${words.slice(k * 100, k * 100 + 100).join(' ')}`,
    );
    const error = errorOf(
      () =>
        new T.TrainRun({
          pairs: big.join('\n'),
          tokenization: 'word',
          batch: 1,
          embed: 512,
          hidden: 512,
          steps: 1,
        }),
    );
    assert.equal(error.code, 'limit_exceeded');
    assert.equal(error.details.name, 'parameters');
    assert.match(
      error.message,
      /^training run: \d+ parameters \(the parameters, gradients, Adam's moments and copies/,
    );
  });
});

describe('shared and cyclic arguments', () => {
  test('a config whose steps are a tree of one shared getter is read once', () => {
    let reads = 0;
    let v = {
      get x() {
        reads++;
        return 1;
      },
    };
    for (let i = 0; i < 7; i++) v = Array(16).fill(v);
    const error = errorOf(() => new T.TrainRun({ task: 'dates', steps: v }));
    assert.equal(error.code, 'bad_argument');
    assert.equal(error.details.name, 'config.steps');
    assert.equal(reads, 1);
    const cyclic = { task: 'dates' };
    cyclic.self = cyclic;
    assert.equal(
      errorOf(() => new T.TrainRun(cyclic)).message,
      'TrainRunHandle.create: argument 1 holds itself (a cycle), which the engine cannot read',
    );
  });
});

describe('a run without attention', () => {
  test('evaluate() gives an empty alignment, as trainer.d.ts says, and the outputs', () => {
    const run = keep(new T.TrainRun({ task: 'reverse', score: 'none', steps: 2 }));
    run.step(2);
    const { probe } = run.evaluate();
    assert.equal(probe.rows, 0);
    assert.equal(probe.cols, 0);
    assert.equal(probe.weights.length, 0);
    assert.ok(probe.output.length > 0);
    assert.ok(probe.source.length > 0);
    // with attention every row sums to 1
    const additive = keep(new T.TrainRun({ task: 'reverse', steps: 2 })).evaluate().probe;
    assert.equal(additive.rows, additive.output.length);
    for (let i = 0; i < additive.rows; i++) {
      const row = additive.weights.subarray(i * additive.cols, (i + 1) * additive.cols);
      assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5);
    }
  });
});

describe('a handle deleted twice', () => {
  test('TrainRun: delete() and clone() on a deleted run are bad_state', () => {
    const run = new T.TrainRun({ task: 'reverse', steps: 1 });
    run.delete();
    for (const method of ['delete', 'clone']) {
      const error = errorOf(() => run[method]());
      assert.equal(error.code, 'bad_state');
      assert.equal(error.message, `TrainRunHandle.${method}: this TrainRunHandle was deleted already`);
    }
    stillWorks();
  });
});

describe('minor ones', () => {
  test('a task name with a NUL is quoted in the message, escaped', () => {
    const error = errorOf(() => new T.TrainRun({ task: 'da\u0000tes' }));
    assert.equal(error.code, 'bad_argument');
    assert.ok(!error.message.includes('\u0000'), error.message);
    assert.match(error.message, /got "da\\u0000tes"$/);
  });

  test('a byte order mark before own pairs is not part of the first source', () => {
    const text = Array.from({ length: 12 }, (_, k) => `ab${'cd'[k % 2]}\t${'cd'[k % 2]}ba`).join('\n');
    const plain = T.parsePairs(text, 'char');
    const marked = T.parsePairs(`\ufeff${text}`, 'char');
    assert.deepEqual(marked, plain);
  });

  test('activation gelu with the GRU encoder is refused: it has no feed-forward', () => {
    const error = errorOf(() => new T.TrainRun({ task: 'dates', activation: 'gelu' }));
    assert.equal(error.code, 'bad_argument');
    assert.match(
      error.message,
      /activation "gelu" is the transformer's feed-forward's; the gru encoder and the GRU decoder have none/,
    );
    keep(new T.TrainRun({ task: 'dates', encoder: 'transformer', activation: 'gelu', steps: 1 }));
  });
});
