// The fixed-vector baseline through the page's module: its records say the context is the fixed
// vector (no scores, no weights). Exact match by length: length-accuracy.test.mjs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { useEngine } from './engine-fixture.mjs';

const modelsDir = new URL('../../web/models/', import.meta.url);
const checkpoint = (name) => new Uint8Array(readFileSync(new URL(`${name}.safetensors`, modelsDir)));

let ap;
const { keep } = useEngine((loaded) => (ap = loaded));

describe('the fixed-vector baseline', () => {
  test('its records have no scores and no weights, and one context for every step', () => {
    const model = keep(ap.Model.load(checkpoint('reverse-none-bahdanau')));
    assert.equal(model.info().score, 'none');
    const session = keep(model.decode('abcdef'));
    const steps = session.run();
    assert.ok(steps.length >= 2);
    for (const s of steps) {
      assert.equal(s.contextFrom, 'fixed_vector');
      assert.equal(s.scores, null);
      assert.equal(s.weights, null);
      assert.equal(s.exps, null);
      assert.equal(s.entropy, 0);
      assert.deepEqual(Array.from(s.context), Array.from(steps[0].context));
    }
    assert.equal(steps[0].context.length, model.info().dims.encoderState);
    const beam = session.beam(2);
    for (const node of beam.nodes) assert.equal(node.weights, null);
    const additive = keep(ap.Model.load(checkpoint('reverse-additive-bahdanau')));
    const step = keep(additive.decode('abcdef')).step();
    assert.equal(step.contextFrom, 'weights');
    assert.equal(step.weights.length, 6);
  });
});
