// A location-aware scenes model through the image module: a short scenes run of the trainer
// module saved and loaded by the image module, which captions the probe scene with the very words
// and weights the trainer's evaluate() reported; every step record carries the previous step's
// weights over the 64 cells (one-hot on the first cell at the first word, as the engine starts)
// and the location features, which equal the convolution of those weights with the checkpoint's
// own filters (computed here in double from the saved bytes). Other scenes models have neither.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import { loadImaging } from './load-imaging.mjs';
import { useTrainer } from './trainer-fixture.mjs';

let T;
const { keep } = useTrainer((loaded) => (T = loaded));
let im;
before(async () => {
  im = await loadImaging();
});

/** The float32 tensor `name` of a .safetensors file, read straight from its bytes. */
function tensor(bytes, name) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
  const [begin, end] = header[name].data_offsets;
  const data = bytes.slice(8 + headerLength + begin, 8 + headerLength + end);
  return { shape: header[name].shape, data: new Float32Array(data.buffer) };
}

/** f[j][c] = Σ_t F[c][t] α[j + t − (r − 1)/2], α zero outside the cells (the cells in reading order). */
function convolve(filters, alpha) {
  const [kf, r] = filters.shape;
  const half = (r - 1) / 2;
  const n = alpha.length;
  const out = [];
  for (let j = 0; j < n; ++j)
    for (let c = 0; c < kf; ++c) {
      let sum = 0;
      for (let t = 0; t < r; ++t) {
        const m = j + t - half;
        if (m >= 0 && m < n) sum += filters.data[c * r + t] * alpha[m];
      }
      out.push(sum);
    }
  return out;
}

const close = (actual, expected, what) => {
  assert.equal(actual.length, expected.length, what);
  for (let i = 0; i < expected.length; ++i)
    assert.ok(Math.abs(actual[i] - expected[i]) <= 1e-5 * (1 + Math.abs(expected[i])), `${what}[${i}]`);
};

function trained(score, steps) {
  const run = keep(
    new T.TrainRun({ task: 'scenes', score, style: 'bahdanau', steps, batch: 8, seed: 2, evalExamples: 4 }),
  );
  run.step(steps);
  return { evaluation: run.evaluate(), bytes: run.save() };
}

test('a scenes location model captions the probe as the trainer did, each word reading the last one’s weights through its filters', () => {
  const { evaluation, bytes } = trained('location', 6);
  const filters = tensor(bytes, 'decoder.attn.filters');
  const model = im.ImageModel.load(bytes);
  try {
    const info = model.info();
    assert.equal(info.score, 'location');
    const probe = im.scene(T.trainTasks().find((t) => t.name === 'scenes').probe);
    const session = model.caption(probe.pixels, 32, 32, 3);
    const steps = session.run();
    session.delete();
    assert.deepEqual(
      steps.map((s) => s.token),
      evaluation.probe.output,
    );
    assert.ok(steps.length >= 2, 'at least two words');
    const L = 64;
    steps.forEach((step, i) => {
      for (let j = 0; j < L; j++)
        assert.equal(step.weights[j], evaluation.probe.weights[i * L + j], `step ${i} cell ${j}`);
      const previous =
        i === 0 ? Float32Array.from({ length: L }, (_, j) => (j === 0 ? 1 : 0)) : steps[i - 1].weights;
      assert.deepEqual(step.previousWeights, previous, `step ${i}: the weights read`);
      assert.deepEqual([step.location.rows, step.location.cols], [L, filters.shape[0]]);
      close(step.location.data, convolve(filters, previous), `step ${i}: features`);
    });
  } finally {
    model.delete();
  }

  const additive = im.ImageModel.load(trained('additive', 1).bytes);
  try {
    const probe = im.scene(3);
    const s = additive.caption(probe.pixels, 32, 32, 3);
    const first = s.step();
    s.delete();
    assert.equal(first.previousWeights, null);
    assert.equal(first.location, null);
  } finally {
    additive.delete();
  }
});
