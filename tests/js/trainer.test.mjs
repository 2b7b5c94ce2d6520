// The trainer module's runs: a snapshot decodes like a loaded model, save() loads in the page's
// module with the same outputs, evaluate()'s probe is a session's trace, divergence and cancel
// stop a run cleanly (a loss grown past ten times the first too), a snapshot's and the scored
// model's bytes record the figures the page shows, own pairs train and carry their vocabularies.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import { loadEngine } from './load-engine.mjs';
import { errorOf, reversePairs, useTrainer } from './trainer-fixture.mjs';

let T;
const { keep } = useTrainer((loaded) => (T = loaded));
let page;
before(async () => {
  page = await loadEngine();
});

const small = { pairs: reversePairs(), embed: 16, hidden: 32, batch: 16, learningRate: 1e-2 };

/** Every step of a greedy decode of text: output tokens and each step's weights and probabilities. */
function decodeAll(model, text) {
  const session = model.decode(text);
  try {
    session.run();
    const trace = session.trace();
    return {
      output: session.outputText(),
      weights: trace.map((r) => r.weights),
      probs: trace.map((r) => r.probs),
    };
  } finally {
    session.delete();
  }
}

test('a dates run: progress numbers are consistent, snapshot decodes, save loads in the page module', () => {
  const run = keep(new T.TrainRun({ task: 'dates', steps: 60 }));
  const before = run.progress();
  assert.equal(before.step, 0);
  assert.equal(before.totalSteps, 60);
  assert.equal(before.heldoutExactMatch, null);
  const p = run.step(20);
  assert.equal(p.step, 20);
  assert.equal(p.sequences, 640);
  assert.ok(p.loss > 0 && Number.isFinite(p.loss));
  assert.ok(p.tokenAccuracy > 0 && p.tokenAccuracy < 1);
  assert.ok(p.elapsedSeconds > 0);
  assert.ok(Math.abs(p.sequencesPerSecond - p.sequences / p.elapsedSeconds) < 1e-6 * p.sequencesPerSecond);
  assert.equal(p.done, false);
  assert.equal(p.diverged, false);
  const last = run.step(1000); // more than are left: stops at the end
  assert.equal(last.step, 60);
  assert.equal(last.done, true);
  assert.ok(last.loss < p.loss);
  assert.equal(run.step(5).step, 60); // done: nothing more to train

  const snapshot = keep(run.snapshot());
  const info = snapshot.info();
  assert.equal(info.task, 'dates');
  assert.equal(info.score, 'additive');
  assert.equal(info.training.steps, 60);
  const loaded = keep(page.Model.load(run.save()));
  assert.deepEqual(loaded.info().srcVocab, info.srcVocab);
  assert.deepEqual(loaded.info().dims, info.dims);
  for (const text of ['29 november 2026', '11/29/26', 'sunday, 29 nov. 2026']) {
    const a = decodeAll(snapshot, text);
    const b = decodeAll(loaded, text);
    assert.equal(a.output, b.output);
    assert.deepEqual(a.weights, b.weights);
    assert.deepEqual(a.probs, b.probs);
  }
  // save()'s record holds held-out exact match over every held-out pair
  assert.equal(typeof loaded.info().heldoutExactMatch, 'number');
  assert.equal(loaded.info().training.heldout_pairs, 1000);
});

test('evaluate: the probe’s weights are a session’s trace on the snapshot, rows summing to 1', () => {
  const run = keep(new T.TrainRun({ ...small, steps: 300, probe: 'abcdef' }));
  run.step(300);
  const e = run.evaluate();
  assert.equal(e.step, 300);
  assert.equal(e.examples, 20);
  assert.ok(e.heldoutExactMatch > 0.5, `held-out ${e.heldoutExactMatch}`);
  assert.equal(run.progress().heldoutExactMatch, e.heldoutExactMatch);
  const { text, source, output, rows, cols, weights } = e.probe;
  assert.equal(text, 'abcdef');
  assert.deepEqual(source, ['a', 'b', 'c', 'd', 'e', 'f']);
  assert.equal(cols, 6);
  assert.equal(rows, output.length);
  assert.equal(output.at(-1), '</s>');
  assert.ok(weights instanceof Float32Array);
  assert.equal(weights.length, rows * cols);
  const model = keep(run.snapshot());
  const session = keep(model.decode('abcdef'));
  session.run();
  const trace = session.trace();
  assert.equal(trace.length, rows);
  for (let i = 0; i < rows; i++) {
    const row = weights.subarray(i * cols, (i + 1) * cols);
    assert.ok(Math.abs(row.reduce((s, w) => s + w, 0) - 1) < 1e-5, `row ${i} sums to 1`);
    assert.deepEqual(Array.from(row), Array.from(trace[i].weights));
    assert.equal(output[i], trace[i].token);
  }
  assert.equal(session.outputText(), 'fedcba');
  // a smaller limit decodes fewer held-out pairs, and lists the same first ones
  const few = run.evaluate(5);
  assert.equal(few.examples, 5);
  assert.deepEqual(few.predictions, e.predictions.slice(0, 5));

  // the first 8 held-out pairs as the snapshot answers them, right or wrong: each a session's output
  assert.equal(e.predictions.length, 8);
  for (const p of e.predictions) {
    assert.match(p.source, /^[a-z]+$/); // characters are written together
    const s = keep(model.decode(p.source));
    s.run();
    assert.equal(p.output, s.outputText(), p.source);
    assert.equal(p.target, [...p.source].reverse().join(''));
    assert.equal(p.correct, p.output === p.target && s.trace().at(-1).token === '</s>');
  }
});

test('a huge learning rate: the run stops with its message, keeps finite weights, refuses more steps', () => {
  const run = keep(new T.TrainRun({ ...small, steps: 50, learningRate: 1e20 }));
  const p = run.step(10);
  assert.equal(p.diverged, true);
  assert.equal(p.done, true);
  assert.match(p.message, /^the loss became NaN at step (\d+) .*the parameters of step \d+ were kept$/);
  const error = errorOf(() => run.step(1));
  assert.equal(error.code, 'bad_state');
  assert.match(error.message, /diverged/);
  // The kept parameters are finite (the loader refuses anything else), so the model still
  // evaluates and loads; after a step at 1e20 its outputs need not be finite numbers.
  assert.equal(run.evaluate(5).examples, 5);
  const loaded = keep(page.Model.load(run.save()));
  assert.match(loaded.info().training.diverged, /became NaN/);
});

test('a learning rate of 1000: the loss grows past ten times the first, and the run says how', () => {
  const run = keep(new T.TrainRun({ ...small, steps: 60, learningRate: 1000 }));
  const p = run.step(60);
  assert.equal(p.diverged, true);
  assert.equal(p.divergence, 'loss_grew');
  assert.ok(p.firstLoss > 1 && p.firstLoss < 3, `an untrained loss: ${p.firstLoss}`);
  assert.ok(Number.isFinite(p.divergedLoss) && p.divergedLoss > 10 * p.firstLoss, `${p.divergedLoss}`);
  assert.ok(p.divergedStep > 1 && p.divergedStep <= 60);
  assert.match(
    p.message,
    /^the loss grew from .* to .* at step \d+ \(learning rate .*\): try a smaller learning rate/,
  );
});

test('a snapshot’s bytes record its evaluation’s figure; saveScored’s the figure over every held-out pair, as loaded', () => {
  const run = keep(new T.TrainRun({ ...small, steps: 200, evalExamples: 10 }));
  run.step(200);
  const e = run.evaluate(10);
  const snapshot = keep(page.Model.load(run.snapshotBytes())).info();
  assert.equal(snapshot.heldoutExactMatch, e.heldoutExactMatch);
  assert.equal(snapshot.training.heldout_examples, 10);
  const scored = run.saveScored();
  const loaded = keep(page.Model.load(scored.bytes)).info();
  assert.equal(scored.examples, loaded.training.heldout_pairs, 'every held-out pair');
  assert.equal(loaded.heldoutExactMatch, scored.heldoutExactMatch, 'the figure the file holds');
  assert.deepEqual([...scored.bytes], [...run.save()], 'save()’s bytes');
});

test('cancel: later steps are refused, the model stays; a deleted run is refused', () => {
  const run = keep(new T.TrainRun({ ...small, steps: 100 }));
  run.step(3);
  run.cancel();
  assert.equal(errorOf(() => run.step(1)).code, 'bad_state');
  assert.equal(run.progress().done, true);
  const model = keep(run.snapshot());
  assert.equal(model.info().training.steps_done, 3);
  run.delete();
  assert.equal(errorOf(() => run.step(1)).code, 'bad_state');
});

test('own pairs: parsePairs reports what a run trains on; the model carries the pairs’ vocabularies', () => {
  const summary = T.parsePairs(small.pairs, 'auto');
  assert.equal(summary.count, 200);
  assert.equal(summary.tokenization, 'char');
  assert.equal(summary.sourceVocab, 4 + 6);
  assert.equal(summary.trainCount + summary.heldoutCount, 200);
  assert.ok(summary.heldoutCount >= 20 && summary.heldoutCount <= 25);
  assert.equal(
    summary.sourceLengths.reduce((s, n) => s + n, 0),
    200,
  );
  assert.deepEqual(summary.sourceLengths.slice(0, 2), [0, 0]);
  assert.equal(summary.longestSource, 6);
  assert.equal(T.parsePairs('a b\tc d\n', 'auto').tokenization, 'word');
  assert.equal(T.parsePairs('a b\tc d\n', 'char').tokenization, 'char');

  const run = keep(new T.TrainRun({ ...small, steps: 5 }));
  const settings = run.settings();
  assert.equal(settings.task, 'pairs');
  assert.equal(settings.trainCount, summary.trainCount);
  assert.equal(settings.heldoutCount, summary.heldoutCount);
  assert.equal(settings.sourceVocab, summary.sourceVocab);
  run.step(5);
  const info = keep(page.Model.load(run.save())).info();
  assert.deepEqual(info.srcVocab, ['<pad>', '<s>', '</s>', '<unk>', 'a', 'b', 'c', 'd', 'e', 'f']);
  assert.equal(info.sourceTokenizer, 'characters');
  assert.equal(info.training.tokenization, 'characters');
});

test('own pairs: each bad text is a coded error naming its line', () => {
  const cases = [
    ['', 'empty_input', undefined, /no pairs/],
    ['a\tb\n\nc\td', 'bad_argument', 2, /^line 2: empty line/],
    ['a\tb\n\t\nc\td', 'bad_argument', 2, /^line 2: a line of only spaces or tabs/],
    ['a\tb\nc d', 'bad_argument', 2, /^line 2: no tab/],
    ['a\tb\tc', 'bad_argument', 1, /^line 1: 2 tabs/],
    ['a\tb\nc\u0007\td', 'bad_argument', 2, /^line 2: the control character U\+0007 at column 2/],
    ['a\tb\n\tb', 'bad_argument', 2, /^line 2: the source is empty/],
    [
      'a b\tc d\nx <s>\ty z',
      'bad_argument',
      2,
      /^line 2: the source holds "<s>", a name the vocabulary keeps/,
    ],
    [`a\tb\n${'x'.repeat(129)}\ty`, 'too_long', 2, /^line 2: the source has 129 tokens, at most 128/],
    ['a\tb\n'.repeat(50001), 'limit_exceeded', 50001, /^line 50001: more than 50000 pairs/],
    ['a'.repeat(2000001), 'limit_exceeded', undefined, /at most 2000000/],
  ];
  for (const [text, code, line, message] of cases) {
    const error = errorOf(() => T.parsePairs(text, 'auto'));
    assert.equal(error.code, code, String(message));
    assert.equal(error.details.line, line, String(message));
    assert.match(error.message, message);
    // a run on the same text fails the same way
    assert.equal(errorOf(() => new T.TrainRun({ pairs: text })).message, error.message);
  }
});
