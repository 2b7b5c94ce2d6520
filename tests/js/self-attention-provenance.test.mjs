// Where q, k and v come from: the self-attention record's projections are the checkpoint's own
// W_q, W_k, W_v and biases, cut by head, and each head's q, k, v equal W x + b recomputed here in
// double precision from the tensors read straight out of the .safetensors file.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { useEngine } from './engine-fixture.mjs';
import { readSafetensors } from './reference.mjs';

const file = (name) =>
  new Uint8Array(readFileSync(new URL(`../../web/models/${name}.safetensors`, import.meta.url)));

let ap;
const { keep } = useEngine((loaded) => (ap = loaded));

describe('self-attention provenance', () => {
  for (const [name, text] of [
    ['zh-additive-bahdanau-transformer', 'tom chase jerry'],
    ['dates-additive-bahdanau-transformer', '11/29/26'],
  ])
    test(`${name}: q, k, v = W x + b from the checkpoint's tensors, every layer and head`, () => {
      const bytes = file(name);
      const tensors = readSafetensors(bytes);
      const model = keep(ap.Model.load(bytes));
      const session = keep(model.decode(text));
      const layers = session.selfAttention();
      const n = session.sourceTokens().length;
      let worst = 0;
      layers.forEach((layer, l) => {
        const [h, dh, d] = layer.wQ.shape;
        assert.equal(h * dh, d);
        for (const [w, b, out] of [
          ['wQ', 'bQ', 'query'],
          ['wK', 'bK', 'key'],
          ['wV', 'bV', 'value'],
        ]) {
          const suffix = w[1].toLowerCase();
          const W = tensors[`encoder.layers.${l}.attn.w_${suffix}`];
          const B = tensors[`encoder.layers.${l}.attn.b_${suffix}`];
          assert.deepEqual(W.shape, [d, d]);
          // the record's rows are the checkpoint's, bit for bit
          assert.deepEqual(Array.from(layer[w].data), Array.from(W.data), `${w} of layer ${l}`);
          assert.deepEqual(Array.from(layer[b].data), Array.from(B.data), `${b} of layer ${l}`);
          for (let head = 0; head < h; head++)
            for (let t = 0; t < n; t++)
              for (let i = 0; i < dh; i++) {
                const row = head * dh + i;
                let sum = B.data[row];
                for (let c = 0; c < d; c++) sum += W.data[row * d + c] * layer.input.data[t * d + c];
                const got = layer[out].data[(head * n + t) * dh + i];
                worst = Math.max(worst, Math.abs(got - sum) / Math.max(1, Math.abs(sum)));
              }
        }
        if (l > 0) assert.deepEqual(Array.from(layer.input.data), Array.from(layers[l - 1].output.data));
      });
      // float32 sums of 64 products against a double-precision one
      assert.ok(worst < 1e-5, `largest relative difference ${worst}`);
    });
});
