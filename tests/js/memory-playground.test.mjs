// The page module at its memory limits: the largest decodings the budget admits (limits().
// maxWorkBytes, counted before anything is allocated) actually run, and their exports are made,
// with the heap inside the engine's ceiling (limits().maxHeapBytes). Not past the limits: at them
// (one step, one position or one hypothesis more is refused). Each search for the largest size
// costs only refusals and empty sessions; the work is done once, at the size found.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { makeCheckpoint, sourceText } from './checkpoint-builder.mjs';
import { loadEngine } from './load-engine.mjs';
import { MiB, admits, heapWithin, largestAdmitted } from './memory-fixture.mjs';
import { errorOf } from './engine-fixture.mjs';

const ap = await loadEngine();
const limits = ap.limits();

/** Steps the session back to the most an export admits (its refusals' byte counts are linear in the steps), then exports. */
function largestExport(session, exportIt) {
  const full = errorOf(exportIt);
  assert.equal(full.code, 'limit_exceeded');
  session.back();
  const less = errorOf(exportIt);
  const perStep = full.details.bytes - less.details.bytes;
  const keep = session.length() - Math.ceil((less.details.bytes - less.details.limit) / perStep);
  while (session.length() > keep) session.back();
  const exported = exportIt();
  session.step();
  assert.equal(errorOf(exportIt).code, 'limit_exceeded', 'one step more is refused');
  return { steps: keep, exported };
}

const additive = {
  score: 'additive',
  source_vocab: 8,
  target_vocab: 8,
  embedding: 1,
  encoder_hidden: 1,
  decoder_hidden: 1,
  attention_dim: 256,
  max_source_len: 512,
  max_target_len: 1023,
};

test('the largest additive decoding (steps × 512 positions × attention_dim 256) and its exports', () => {
  const model = ap.Model.load(makeCheckpoint(additive));
  const text = sourceText(512, 8);
  const steps = largestAdmitted(1, 1024, (k) => admits(() => model.decode(text, { maxSteps: k }).delete()));
  assert.ok(steps > 100 && steps < 1024, `${steps} steps: the budget binds`);
  const start = ap.HEAPU8.buffer.byteLength;
  const session = model.decode(text, { maxSteps: steps });
  while (!session.done()) session.step();
  assert.equal(session.length(), steps);
  const decoded = heapWithin(ap, limits, 'the decoding');
  // kept: steps × 512 × 256 floats of the additive hidden, most of the budget
  assert.ok(decoded - start > limits.maxWorkBytes / 2, `the heap grew by ${(decoded - start) / MiB} MiB`);
  const npy = largestExport(session, () => session.exportNpy());
  assert.equal(npy.exported['hidden.npy'].length > npy.steps * 512 * 256 * 4, true);
  heapWithin(ap, limits, 'exportNpy');
  const json = largestExport(session, () => session.exportJson());
  assert.equal(JSON.parse(json.exported).steps.length, json.steps);
  const peak = heapWithin(ap, limits, 'exportJson');
  console.log(
    `additive: ${steps} steps admitted (npy of ${npy.steps}, json of ${json.steps}); heap ${start / MiB} → ` +
      `${decoded / MiB} MiB decoded, ${peak / MiB} MiB after the exports (ceiling ${limits.maxHeapBytes / MiB})`,
  );
  session.delete();
  model.delete();
});

test('the largest transformer decoding (16 layers × 16 heads × n²) and its self-attention records', () => {
  const model = ap.Model.load(
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
  );
  const decodeAt = (n) => model.decode(sourceText(n, 8));
  const n = largestAdmitted(1, 512, (k) => admits(() => decodeAt(k).delete()));
  assert.ok(n > 16 && n < 512, `${n} positions`);
  const session = decodeAt(n);
  session.run();
  heapWithin(ap, limits, 'the transformer decoding');
  session.delete();
  const records = largestAdmitted(1, n, (k) =>
    admits(() => {
      const s = decodeAt(k);
      try {
        assert.equal(s.selfAttention().length, 16);
      } finally {
        s.delete();
      }
    }),
  );
  const peak = heapWithin(ap, limits, 'selfAttention()');
  console.log(`transformer: ${n} positions admitted, selfAttention() of ${records}; heap ${peak / MiB} MiB`);
  model.delete();
});

test('the widest beam search the budget admits over 1,024 steps', () => {
  const model = ap.Model.load(makeCheckpoint({ ...additive, attention_dim: 64 }));
  const session = model.decode(sourceText(64, 8));
  // A what-if on a position the input lacks is refused after the budget is checked: a width the
  // budget admits gets that refusal, and nothing is searched either way.
  const width = largestAdmitted(1, limits.maxBeamWidth, (k) => {
    const error = errorOf(() => session.beam(k, { masks: [[0, 999]] }));
    if (error.code === 'limit_exceeded') return false;
    assert.equal(error.details.name, 'source_index', error.message);
    return true;
  });
  assert.ok(width < limits.maxBeamWidth, `${width}: the budget binds`);
  const result = session.beam(width);
  assert.equal(result.beams.length, width);
  const peak = heapWithin(ap, limits, 'the beam search');
  console.log(`beam: width ${width} admitted over 1024 steps; heap ${peak / MiB} MiB`);
  session.delete();
  model.delete();
});
