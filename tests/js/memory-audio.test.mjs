// The audio module at its memory limit: the largest listening the budget admits (limits().
// maxWorkBytes, counted before the session starts) runs to its end with the heap inside the
// engine's ceiling (maxHeapBytes); one step more is refused. The model is the shipped speech
// model's audio encoder under a decoder with an additive hidden of n positions × 4,096.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadAudio, readModel } from './load-audio.mjs';
import { makeCheckpoint } from './checkpoint-builder.mjs';
import { MiB, admits, heapWithin, largestAdmitted } from './memory-fixture.mjs';

const au = await loadAudio();
const limits = au.limits();

test('the largest listening (steps × positions × attention_dim 4096) runs inside the ceiling', () => {
  const speech = readModel('speech-additive-bahdanau.safetensors');
  const model = au.AudioModel.load(
    makeCheckpoint(
      {
        score: 'additive',
        encoder: 'audio',
        encoder_hidden: 32,
        input_dim: 24,
        reductions: 1,
        source_vocab: 4,
        target_vocab: 8,
        embedding: 1,
        decoder_hidden: 1,
        attention_dim: 4096,
        max_source_len: 480,
        max_target_len: 1023,
      },
      { encoderFrom: speech },
    ),
  );
  const { frames } = au.synthesize({ phrase: au.limits().woodchuck });
  const listen = (k) => model.listen(frames, { maxSteps: k });
  const steps = largestAdmitted(1, 1024, (k) => admits(() => listen(k).delete()));
  assert.ok(steps > 20 && steps < 1024, `${steps} steps: the budget binds`);
  const start = au.HEAPU8.buffer.byteLength;
  const session = listen(steps);
  while (!session.done()) session.step();
  assert.equal(session.length(), steps);
  const peak = heapWithin(au, limits, 'the listening');
  assert.ok(peak - start > limits.maxWorkBytes / 2, `the heap grew by ${(peak - start) / MiB} MiB`);
  console.log(
    `audio: ${frames.rows} frames, ${steps} steps admitted; heap ${start / MiB} → ${peak / MiB} MiB (ceiling ${limits.maxHeapBytes / MiB})`,
  );
  session.delete();
  model.delete();
});
