// A location-aware scenes model through the image module: a short scenes run of the trainer
// module saved and loaded by the image module, which captions the probe scene with the very words
// and weights the trainer's evaluate() reported; every step record carries the previous step's
// weights over the 64 cells (one-hot on the first cell at the first word, as the engine starts)
// and the location features, which equal the convolution of those weights with the checkpoint's
// own filters (computed here in double from the saved bytes). Other scenes models have neither.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import { loadImaging } from './load-imaging.mjs';
import { assertClose as close, convolve, tensor } from './location-reference.mjs';
import { useTrainer } from './trainer-fixture.mjs';

let T;
const { keep } = useTrainer((loaded) => (T = loaded));
let im;
before(async () => {
  im = await loadImaging();
});

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
