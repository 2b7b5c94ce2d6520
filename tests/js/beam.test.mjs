// Beam search never answers worse than greedy decoding by cutting its own best hypothesis short:
// on "tom chased jerry in the kitchen yesterday" (zh, additive Bahdanau) greedy decoding ends in
// 8 steps; beams of every width 1–8 must keep that hypothesis whole, ranked first, and list every
// hypothesis that ended before any the step limit cut.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { useEngine } from './engine-fixture.mjs';

const checkpoint = (name) =>
  new Uint8Array(readFileSync(new URL(`../../web/models/${name}.safetensors`, import.meta.url)));

describe('beam search', () => {
  let ap;
  const { keep } = useEngine((engine) => (ap = engine));

  test('every width 1–8 keeps greedy’s ended answer first and ranks ended before cut', () => {
    const model = keep(ap.Model.load(checkpoint('zh-additive-bahdanau')));
    const session = keep(model.decode('tom chased jerry in the kitchen yesterday'));
    const steps = session.run();
    assert.equal(steps.length, 8);
    assert.equal(steps.at(-1).token, '</s>');
    const greedy = steps.map((s) => s.token);
    const greedyScore = steps.reduce((sum, s) => sum + s.logProb, 0) / steps.length;
    for (let width = 1; width <= 8; width++) {
      const result = session.beam(width);
      assert.ok(result.beams.length >= 1 && result.beams.length <= width, `width ${width}`);
      const tokens = (path) => path.map((id) => result.nodes[id].token);
      assert.deepEqual(tokens(result.beams[0]), greedy, `width ${width}: the best beam is greedy's`);
      assert.ok(Math.abs(result.scores[0] - greedyScore) < 1e-5, `width ${width}: its score`);
      const ended = result.beams.map((path) => tokens(path).at(-1) === '</s>');
      const firstCut = ended.indexOf(false);
      if (firstCut >= 0)
        assert.ok(
          ended.slice(firstCut).every((e) => !e),
          `width ${width}: a cut beam above an ended one`,
        );
      for (let k = 1; k < result.beams.length; k++)
        if (ended[k] === ended[k - 1]) assert.ok(result.scores[k - 1] >= result.scores[k]);
    }
  });
});
