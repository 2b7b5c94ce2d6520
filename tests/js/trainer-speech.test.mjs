// The speech task in the trainer module: a run of task speech builds the recipe of apg train
// --task speech (an audio encoder), and its first losses are the native build's
// (tests/train/test_speech_eval.cpp holds the same constants): the utterances the wasm build
// synthesizes are the native build's, whose data the shipped speech models were trained on.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { errorOf, useTrainer } from './trainer-fixture.mjs';

let T;
const { keep } = useTrainer((loaded) => (T = loaded));

test('a speech run: the audio recipe, and the first two losses of the native build', () => {
  const run = keep(new T.TrainRun({ task: 'speech', steps: 2, batch: 4, seed: 1, evalExamples: 2 }));
  const s = run.settings();
  assert.deepEqual(
    [s.task, s.encoder, s.steps, s.batch, s.trainCount, s.heldoutCount],
    ['speech', 'audio', 2, 4, 4000, 400],
  );
  const first = run.step(1).loss;
  const second = run.step(1).loss;
  assert.ok(Math.abs(first - 3.47661612) <= 1e-5 * 3.47661612, `first loss ${first}`);
  assert.ok(Math.abs(second - 3.32839051) <= 1e-5 * 3.32839051, `second loss ${second}`);
  const e = run.evaluate();
  assert.equal(e.examples, 2);
  assert.ok(e.probe.cols > 50); // one column per encoder state (two frames each)
});

test('a speech run refuses a probe outside the lexicon, naming the word', () => {
  const err = errorOf(() => new T.TrainRun({ task: 'speech', steps: 2, probe: 'how much woodpecker' }));
  assert.equal(err.code, 'unknown_token');
  assert.equal(err.details.word, 'woodpecker');
  assert.match(err.message, /^probe: .*woodpecker/);
});
