// The image module at its memory limit: the largest captioning the budget admits (limits().
// maxWorkBytes, counted before the session starts) runs to its end with the heap inside the
// engine's ceiling (maxHeapBytes); one step more is refused. The model is the shipped scenes
// model's conv encoder under a decoder with an additive hidden of 64 cells × 4,096.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { makeCheckpoint } from './checkpoint-builder.mjs';
import { loadImaging, readModel } from './load-imaging.mjs';
import { MiB, admits, heapWithin, largestAdmitted } from './memory-fixture.mjs';

const im = await loadImaging();
const limits = im.limits();

test('the largest captioning (steps × 64 cells × attention_dim 4096) runs inside the ceiling', () => {
  const scenes = readModel('scenes-additive-bahdanau.safetensors');
  const model = im.ImageModel.load(
    makeCheckpoint(
      {
        score: 'additive',
        encoder: 'conv',
        bidirectional: false,
        encoder_hidden: 62,
        conv_channels: 16,
        image_size: 32,
        source_vocab: 4,
        target_vocab: 8,
        embedding: 1,
        decoder_hidden: 1,
        attention_dim: 4096,
        max_source_len: 64,
        max_target_len: 1023,
      },
      { encoderFrom: scenes },
    ),
  );
  const pixels = im.scene(7).pixels;
  const caption = (k) => model.caption(pixels, 32, 32, 3, { maxSteps: k });
  const steps = largestAdmitted(1, 1024, (k) => admits(() => caption(k).delete()));
  assert.ok(steps > 50 && steps < 1024, `${steps} steps: the budget binds`);
  const start = im.HEAPU8.buffer.byteLength;
  const session = caption(steps);
  while (!session.done()) session.step();
  assert.equal(session.length(), steps);
  const peak = heapWithin(im, limits, 'the captioning');
  assert.ok(peak - start > limits.maxWorkBytes / 2, `the heap grew by ${(peak - start) / MiB} MiB`);
  console.log(
    `imaging: ${steps} steps admitted; heap ${start / MiB} → ${peak / MiB} MiB (ceiling ${limits.maxHeapBytes / MiB})`,
  );
  session.delete();
  model.delete();
});
