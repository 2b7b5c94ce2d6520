// Every shipped checkpoint through the JS API agrees with the native build: the output tokens,
// every attention weight of greedy decoding and, for a transformer encoder, every self-attention
// weight of every layer and head equal tests/io/shipped_golden.json, which the
// native build wrote (and which the doctest suite also checks in both builds), within 1e-5:
// float32 kernels differ between SSE and wasm SIMD only in rounding (~1e-7 per product), and a
// weight that drifted further would mean a different computation.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { useEngine } from './engine-fixture.mjs';

const golden = JSON.parse(readFileSync(new URL('../io/shipped_golden.json', import.meta.url), 'utf8'));
const modelsDir = new URL('../../web/models/', import.meta.url);

let ap;
useEngine((loaded) => (ap = loaded));

test('the golden file covers every shipped checkpoint', () => {
  const shipped = readFileSync(new URL('README.md', modelsDir), 'utf8').match(/^\| ([\w-]+\.safetensors) /gm);
  assert.equal(shipped.length, 37);
  for (const row of shipped) assert.ok(golden[row.slice(2).trim()], row);
});

// A Transformer decoder's checkpoints load in the trainer module: tests/js/transformer-decoder.test.mjs.
for (const [file, cases] of Object.entries(golden).filter(([, cases]) => !cases[0].cross_weights)) {
  test(`${file}: the JS API decodes like the native build`, () => {
    const model = ap.Model.load(new Uint8Array(readFileSync(new URL(file, modelsDir))));
    try {
      for (const { input, output, weights, self_attention_weights: selfWeights = [] } of cases) {
        const session = model.decode(input);
        try {
          const steps = session.run();
          assert.deepEqual(session.outputTokens(), output, `output for "${input}"`);
          // a baseline's steps have no weights (null): its golden list is empty
          const ours = steps.flatMap((s) => [...(s.weights ?? [])]);
          assert.equal(ours.length, weights.length, `weights for "${input}"`);
          const worst = Math.max(0, ...ours.map((w, i) => Math.abs(w - weights[i])));
          assert.ok(worst <= 1e-5, `largest weight difference for "${input}": ${worst}`);
          const layers = session.selfAttention().flatMap((layer) => [...layer.weights.data]);
          assert.equal(layers.length, selfWeights.length, `self-attention weights for "${input}"`);
          const worstSelf = Math.max(0, ...layers.map((w, i) => Math.abs(w - selfWeights[i])));
          assert.ok(
            worstSelf <= 1e-5,
            `largest self-attention weight difference for "${input}": ${worstSelf}`,
          );
        } finally {
          session.delete();
        }
      }
    } finally {
      model.delete();
    }
  });
}
