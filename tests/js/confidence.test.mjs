// The model's confidence in its output, and the cosine weight bound, as the page binding gives
// them: checked against the step records (the chosen token's probability at each step) and
// against values computed by hand.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { useEngine } from './engine-fixture.mjs';

const checkpoint = (name) =>
  new Uint8Array(readFileSync(new URL(`../../web/models/${name}.safetensors`, import.meta.url)));

describe('confidence and the cosine bound', () => {
  let ap;
  const { keep } = useEngine((engine) => (ap = engine));

  test('confidence is the mean, lowest and product of the records’ chosen-token probabilities', () => {
    const model = keep(ap.Model.load(checkpoint('dates-additive-bahdanau')));
    for (const [text, low] of [
      ['hello', true],
      ['29 november 2026', false],
    ]) {
      const session = keep(model.decode(text));
      assert.deepEqual(
        { ...session.confidence() },
        { steps: 0, meanProb: 0, minProb: 0, minStep: -1, sequenceProb: 0, low: false, lowBelow: 0.5 },
      );
      const steps = session.run();
      const p = steps.map((s) => s.probs[s.tokenId]);
      const c = session.confidence();
      assert.equal(c.steps, steps.length);
      assert.ok(Math.abs(c.meanProb - p.reduce((a, b) => a + b) / p.length) < 1e-12, `${text}: mean`);
      assert.equal(c.minProb, Math.min(...p), `${text}: lowest`);
      assert.equal(c.minStep, p.indexOf(Math.min(...p)));
      assert.ok(Math.abs(c.sequenceProb / p.reduce((a, b) => a * b) - 1) < 1e-12, `${text}: product`);
      assert.equal(c.low, low, `${text}: low`);
    }
    // "hello" is no date, yet the model answers one: a date, with one step at 28 %
    const hello = keep(model.decode('hello'));
    hello.run();
    assert.equal(hello.outputText(), '2041-02-07');
    const c = hello.confidence();
    assert.ok(Math.abs(c.minProb - 0.2797) < 1e-3, `lowest ${c.minProb}`);
    assert.equal(c.minStep, 6);
    assert.ok(Math.abs(c.meanProb - 0.8279) < 1e-3, `mean ${c.meanProb}`);
  });

  test('a forced token counts with its own probability', () => {
    const model = keep(ap.Model.load(checkpoint('dates-additive-bahdanau')));
    const session = keep(model.decode('29 november 2026'));
    const first = session.step();
    session.back();
    const forced = session.force(first.top.at(-1).id);
    session.run();
    const c = session.confidence();
    assert.equal(c.minStep, 0);
    assert.equal(c.minProb, forced.probs[forced.tokenId]);
    assert.ok(c.low);
  });

  test('the cosine bound is e^{2g} / (e^{2g} + n − 1), by hand', () => {
    assert.equal(ap.cosineWeightBound(1), 1);
    assert.ok(Math.abs(ap.cosineWeightBound(3) - 0.7869860421615985) < 1e-15);
    assert.ok(Math.abs(ap.cosineWeightBound(3, 1) - 0.7869860421615985) < 1e-15);
    assert.ok(Math.abs(ap.cosineWeightBound(10) - 0.4508530603792838) < 1e-15);
    assert.ok(Math.abs(ap.cosineWeightBound(10, 2) - 0.858486449758214) < 1e-15);
    assert.ok(Math.abs(ap.cosineWeightBound(3, 0) - 1 / 3) < 1e-15);
    assert.equal(ap.cosineWeightBound(512, 400), 1);
  });

  test('the cosine bound refuses what is not a count of keys or a scale, with a code', () => {
    for (const [n, scale, name] of [
      [0, 1, 'n'],
      [2.5, 1, 'n'],
      ['3', 1, 'n'],
      [513, 1, 'n'],
      [3, NaN, 'scale'],
      [3, Infinity, 'scale'],
      [3, '1', 'scale'],
    ])
      assert.throws(
        () => ap.cosineWeightBound(n, scale),
        (e) => e.code === 'bad_argument' && e.message.includes(name),
        `${n}, ${scale}`,
      );
  });
});
