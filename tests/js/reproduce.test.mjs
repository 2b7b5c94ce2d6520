// "Reproduce this step" through the page's binding: the wasm engine's script of a step (and of a
// self-attention row) runs with NumPy and agrees with the wasm numbers it holds, and a step or row
// that is not there, or a model with no one alignment per step, is a coded error that leaves the
// session working.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { errorOf, useEngine } from './engine-fixture.mjs';
import { runPython } from './run-python.mjs';

const checkpoint = (name) =>
  new Uint8Array(readFileSync(new URL(`../../web/models/${name}.safetensors`, import.meta.url)));

describe('reproduce this step', () => {
  let ap;
  const { keep } = useEngine((engine) => (ap = engine));

  test('a step and a self-attention row, as the wasm engine writes them, agree with NumPy', () => {
    const model = keep(ap.Model.load(checkpoint('zh-additive-bahdanau-transformer')));
    const session = keep(model.decode('tom chase jerry'));
    session.step();
    const second = session.step();
    const script = session.reproduce(1, 'zh-additive-bahdanau-transformer', 'tom chase jerry');
    assert.match(script, new RegExp(`^# Step i = 2 of the output \\(it took "${second.token}"\\)`, 'm'));
    assert.match(script, /^source = \["tom", "chase", "jerry"\]$/m);
    let run = runPython(script);
    assert.equal(run.status, 0, run.output);

    const row = session.reproduceSelfAttention(
      1,
      3,
      2,
      'zh-additive-bahdanau-transformer',
      'tom chase jerry',
    );
    assert.match(row, /layer 2, head 4, the query at position i = 2 \("jerry"\)/);
    run = runPython(row);
    assert.equal(run.status, 0, run.output);
  });

  test('what is not there is a coded error, and the session goes on', () => {
    const model = keep(ap.Model.load(checkpoint('dates-dot-bahdanau')));
    const session = keep(model.decode('29 november 2026'));
    session.step();
    for (const [call, name] of [
      [() => session.reproduce(1, 'm', 'x'), 'reproduce'],
      [() => session.reproduce(-1, 'm', 'x'), 'reproduce'],
      [() => session.reproduce(0.5, 'm', 'x'), 'reproduce'],
      [() => session.reproduce(0, 7, 'x'), 'model'],
      [() => session.reproduce(0, 'm', null), 'input'],
      [() => session.reproduceSelfAttention(0, 0, 0, 'm', 'x'), 'reproduceSelfAttention'],
    ]) {
      const error = errorOf(call);
      assert.equal(error.code, 'bad_argument', error.message);
      assert.equal(error.details.name, name, error.message);
    }
    const baseline = keep(ap.Model.load(checkpoint('dates-none-bahdanau')));
    const fixed = keep(baseline.decode('29 november 2026'));
    fixed.step();
    const error = errorOf(() => fixed.reproduce(0, 'dates-none-bahdanau', '29 november 2026'));
    assert.equal(error.code, 'bad_argument');
    assert.equal(error.details.name, 'score');
    assert.match(error.message, /no attention/);
    // the session still steps and writes its next step
    session.step();
    assert.match(session.reproduce(1, 'm', 'x'), /^# Step i = 2 of the output/m);
  });
});
