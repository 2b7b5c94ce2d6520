// The shipped scaled-cosine models through the JS API: each decodes its task's example, its
// step records carry the learned scale g read from the checkpoint's own tensor, and the scores
// are g times cosines (so they leave cosine's [−1, 1] and the weights can approach one-hot).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { useEngine } from './engine-fixture.mjs';

const modelsDir = new URL('../../web/models/', import.meta.url);
const checkpoint = (name) => new Uint8Array(readFileSync(new URL(`${name}.safetensors`, modelsDir)));

/** The float32 tensor `name` of a .safetensors file, read straight from its bytes. */
function tensor(bytes, name) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
  const [begin, end] = header[name].data_offsets;
  const data = bytes.slice(8 + headerLength + begin, 8 + headerLength + end);
  return { shape: header[name].shape, data: new Float32Array(data.buffer) };
}

let ap;
const { keep } = useEngine((loaded) => (ap = loaded));

describe('shipped scaled-cosine models', () => {
  const cases = [
    ['dates', '29 november 2026', '2026-11-29'],
    ['reverse', 'abcdefj', 'jfedcba'],
    ['zh', 'tom chase jerry', '汤姆追逐杰瑞'],
  ];
  for (const [task, input, output] of cases) {
    test(`${task}: decodes "${input}" with the learned scale in every step record`, () => {
      const bytes = checkpoint(`${task}-scaled_cosine-bahdanau`);
      const scale = tensor(bytes, 'decoder.attn.scale');
      assert.deepEqual(scale.shape, [1]);
      const g = scale.data[0];
      // Trained from √128 ≈ 11.3; a scale that stayed near 1 would be plain cosine again.
      assert.ok(g > 5 && g < 50, `g = ${g}`);

      const model = keep(ap.Model.load(bytes));
      const info = model.info();
      assert.equal(info.score, 'scaled_cosine');
      assert.ok(info.heldoutExactMatch >= 0.99, `held-out exact match ${info.heldoutExactMatch}`);
      const session = keep(model.decode(input));
      const steps = session.run();
      assert.equal(session.outputTokens().join(''), output);
      let sharpest = 0;
      for (const step of steps) {
        assert.equal(step.scale, g);
        for (const e of step.scores) assert.ok(Math.abs(e) <= g * (1 + 1e-6), `|${e}| ≤ g`);
        sharpest = Math.max(sharpest, ...step.weights);
      }
      // Cosine's bound for these n source tokens, e²/(e² + n − 1), is beaten.
      const n = steps[0].scores.length;
      const bound = Math.exp(2) / (Math.exp(2) + n - 1);
      assert.ok(sharpest > bound, `largest weight ${sharpest} vs cosine's bound ${bound}`);
    });
  }

  test('a plain cosine model reports a scale of 1', () => {
    const model = keep(ap.Model.load(checkpoint('dates-cosine-bahdanau')));
    const session = keep(model.decode('29 november 2026'));
    assert.equal(session.step().scale, 1);
  });
});
