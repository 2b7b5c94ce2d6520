// The shipped location-attention model through the JS API: it decodes dates, each step record
// carries the previous step's weights (one-hot on the first token at step 1) and the location
// features, which equal the convolution of those weights with the checkpoint's own filters
// (computed here in double from the file's bytes); a pinned step's weights are what the next
// step reads; info() gives the filters' count and width.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { useEngine } from './engine-fixture.mjs';
import { assertClose as close, convolve, tensor } from './location-reference.mjs';

const modelsDir = new URL('../../web/models/', import.meta.url);
const NAME = 'dates-location-bahdanau';
const bytes = new Uint8Array(readFileSync(new URL(`${NAME}.safetensors`, modelsDir)));

let ap;
const { keep } = useEngine((loaded) => (ap = loaded));

describe('shipped location-attention model', () => {
  test('decodes a date; every step reads the last one’s weights through the checkpoint’s filters', () => {
    const filters = tensor(bytes, 'decoder.attn.filters');
    const model = keep(ap.Model.load(bytes));
    const info = model.info();
    assert.equal(info.score, 'location');
    assert.deepEqual([info.dims.locationFilters, info.dims.locationWidth], filters.shape);
    assert.deepEqual(filters.shape, [8, 7]);
    assert.ok(info.heldoutExactMatch >= 0.99, `held-out exact match ${info.heldoutExactMatch}`);
    const session = keep(model.decode('29 november 2026'));
    const steps = session.run();
    assert.equal(session.outputTokens().join(''), '2026-11-29');
    const n = session.sourceTokens().length;
    steps.forEach((step, i) => {
      const previous =
        i === 0 ? Float32Array.from({ length: n }, (_, j) => (j === 0 ? 1 : 0)) : steps[i - 1].weights;
      assert.deepEqual(step.previousWeights, previous, `step ${i}: the weights read`);
      assert.deepEqual([step.location.rows, step.location.cols], [n, 8]);
      close(step.location.data, convolve(filters, previous), `step ${i}: features`);
    });
    // Other models have neither field.
    const additive = keep(
      ap.Model.load(new Uint8Array(readFileSync(new URL('dates-additive-bahdanau.safetensors', modelsDir)))),
    );
    const plain = keep(additive.decode('29 november 2026')).step();
    assert.equal(plain.previousWeights, null);
    assert.equal(plain.location, null);
    assert.equal(additive.info().dims.locationFilters, null);
  });

  test('a pinned step’s weights are what the next step’s location features read', () => {
    const filters = tensor(bytes, 'decoder.attn.filters');
    const model = keep(ap.Model.load(bytes));
    const free = keep(model.decode('29 november 2026'));
    const pinned = keep(model.decode('29 november 2026'));
    free.step();
    pinned.step();
    pinned.whatIf({ pin: 0 });
    const one = pinned.step();
    free.step();
    const n = one.weights.length;
    assert.deepEqual(
      one.weights,
      Float32Array.from({ length: n }, (_, j) => (j === 0 ? 1 : 0)),
    );
    const next = pinned.step();
    assert.deepEqual(next.previousWeights, one.weights);
    close(next.location.data, convolve(filters, one.weights), 'features of the pinned weights');
    const unpinned = free.step();
    assert.notDeepEqual(next.location.data, unpinned.location.data);
  });
});
