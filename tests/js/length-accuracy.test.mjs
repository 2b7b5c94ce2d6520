// Model.accuracyByLength (the trainer module only: it evaluates in a Worker, and the page's first
// .wasm has no room for it) gives per-bucket exact match equal to a direct count over decoding
// sessions, with the fixed-vector baseline falling on long inputs and attention not.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { loadEngine } from './load-engine.mjs';
import { useTrainer } from './trainer-fixture.mjs';

const modelsDir = new URL('../../web/models/', import.meta.url);
const checkpoint = (name) => new Uint8Array(readFileSync(new URL(`${name}.safetensors`, modelsDir)));

let ap;
const { keep } = useTrainer((loaded) => (ap = loaded));

// Reverse-task pairs of 3 to 15 letters from a to j, from a fixed linear congruential sequence.
function reversePairs(count) {
  let x = 12345;
  const next = (n) => ((x = (x * 1103515245 + 12345) % 2147483648), x % n);
  const pairs = [];
  for (let k = 0; k < count; k++) {
    const length = 3 + next(13);
    let source = '';
    for (let i = 0; i < length; i++) source += 'abcdefghij'[next(10)];
    pairs.push([source, [...source].reverse().join('')]);
  }
  return pairs;
}

// The direct count: decode each source in a session and compare its output with the target.
function directCount(model, pairs, width) {
  const counts = new Map();
  for (const [source, target] of pairs) {
    const session = keep(model.decode(source));
    const steps = session.run();
    const hit = steps.at(-1).token === '</s>' && session.outputText() === target ? 1 : 0;
    const bucket = Math.floor((source.length - 1) / width);
    const c = counts.get(bucket) ?? { pairs: 0, hits: 0 };
    counts.set(bucket, { pairs: c.pairs + 1, hits: c.hits + hit });
  }
  return counts;
}

describe('accuracy by length', () => {
  test('accuracy by length equals a direct count over decoding sessions, and the baseline falls with length', () => {
    const pairs = reversePairs(240);
    const results = {};
    for (const name of ['reverse-none-bahdanau', 'reverse-additive-bahdanau']) {
      const model = keep(ap.Model.load(checkpoint(name)));
      const result = model.accuracyByLength(pairs, { bucketWidth: 4 });
      assert.equal(result.bucketWidth, 4);
      assert.equal(result.pairs, 240);
      const direct = directCount(model, pairs, 4);
      assert.equal(result.buckets.length, direct.size);
      for (const b of result.buckets) {
        const d = direct.get((b.minLength - 1) / 4);
        assert.deepEqual([b.pairs, b.hits], [d.pairs, d.hits], `${name} ${b.minLength}-${b.maxLength}`);
        assert.equal(b.exactMatch, b.hits / b.pairs);
      }
      assert.equal(
        result.hits,
        result.buckets.reduce((s, b) => s + b.hits, 0),
      );
      results[name] = result.buckets;
    }
    const none = results['reverse-none-bahdanau'];
    const additive = results['reverse-additive-bahdanau'];
    // The central claim: the fixed vector holds short inputs and loses long ones; attention does not.
    assert.ok(none[0].exactMatch > 0.9, `baseline on 1-4: ${none[0].exactMatch}`);
    assert.ok(none.at(-1).exactMatch < 0.2, `baseline on the longest: ${none.at(-1).exactMatch}`);
    assert.ok(additive.at(-1).exactMatch > 0.95, `additive on the longest: ${additive.at(-1).exactMatch}`);
  });

  test('accuracyByLength refuses bad input with a message', () => {
    const model = keep(ap.Model.load(checkpoint('reverse-none-bahdanau')));
    const pairs = reversePairs(120);
    assert.equal(model.accuracyByLength(pairs).bucketWidth, 4);
    assert.equal(model.accuracyByLength(pairs, { bucketWidth: 20 }).buckets.length, 1);
    assert.throws(() => model.accuracyByLength(pairs, { bucketWidth: 0 }), /bucketWidth/);
    assert.throws(() => model.accuracyByLength(pairs, { width: 2 }), /not an option of accuracyByLength/);
    assert.throws(() => model.accuracyByLength('abc'), /expected the pairs as an array/);
    assert.throws(() => model.accuracyByLength([['abc']]), /pairs\[0\]/);
    assert.throws(() => model.accuracyByLength([['abz', 'zba']]), /Error/);
    assert.throws(() => model.accuracyByLength([['', '']]), /Error/);
  });

  test("the page's module does not carry it", async () => {
    const page = await loadEngine();
    const model = page.Model.load(checkpoint('reverse-none-bahdanau'));
    assert.equal(typeof model.accuracyByLength, 'undefined');
    model.delete();
  });
});
