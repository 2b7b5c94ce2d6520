// The expected results of the short training runs the browser tests make in the page, the way
// llm.c checks its training against expected losses: each fixed configuration is trained here by
// the trainer module under node (which is deterministic: the same configuration and seed give the
// same bytes), and what the page must then show is written to tests/e2e/training_golden.json by
// scripts/training-golden.mjs. The browser tests compare the page's figures with that file, and
// tests/js/training-golden.test.mjs trains again here and compares with it, so both sides are held
// to one reference and neither trains the other's run again.
import { createHash } from 'node:crypto';

import { loadAudio } from './load-audio.mjs';
import { loadEngine } from './load-engine.mjs';
import { loadImaging } from './load-imaging.mjs';
import { loadTrainer } from './trainer-fixture.mjs';

/**
 * The page's runs, as their links ask for them (tr-task, tr-scores, tr-steps, tr-eval, tr-examples)
 * and as TrainRun takes them; seed 1 is the page's.
 */
export const RUNS = {
  /** dates, location: opened in Decode, Compare and Beam */
  datesLocation: { task: 'dates', score: 'location', steps: 20, evalEvery: 10, evalExamples: 20 },
  /** scenes, location: opened in Caption */
  scenesLocation: { task: 'scenes', score: 'location', steps: 10, evalEvery: 10 },
  /** scenes, additive: opened in Caption */
  scenesAdditive: { task: 'scenes', score: 'additive', steps: 30, evalEvery: 10 },
  /** speech, additive: opened in Listen */
  speechAdditive: { task: 'speech', score: 'additive', steps: 20, evalEvery: 10, evalExamples: 20 },
  /** speech, additive and location side by side, evaluated every 5 steps: location opened in Listen */
  speechRace: { task: 'speech', scores: ['additive', 'location'], steps: 10, evalEvery: 5, evalExamples: 10 },
  /** dates, the Transformer decoder beside additive attention: the Transformer opened in Decode */
  datesTransformerRace: {
    task: 'dates',
    scores: ['additive', 'transformer'],
    steps: 10,
    evalEvery: 5,
    evalExamples: 10,
  },
};

/** A race entry's TrainRun fields: a score function (Bahdanau-style, the page's default), or the Transformer decoder. */
const modelOf = (entry) =>
  entry === 'transformer' ? { decoder: 'transformer' } : { score: entry, style: 'bahdanau' };

/** The Caption view's scene when the link names none (web/caption/scene.js, defaultScene). */
export const DEFAULT_SCENE = 'circle.red.small.16.7_square.blue.large.14.23';
/** The Listen view's utterance when the link names none (web/state/listen.svelte.js). */
export const DEFAULT_UTTERANCE = {
  phrase: 'how much wood would a woodchuck chuck',
  seed: 1,
  rate: 1,
  noise: 0.1,
};
/** How many beams the Beam view keeps unless told. */
const BEAM_WIDTH = 3;

/** The link fields that make the page train `run` (with `scores`, for a run of several). */
export function linkOf(run) {
  return {
    'tr-task': run.task,
    'tr-scores': (run.scores ?? [run.score]).join(','),
    'tr-steps': String(run.steps),
    'tr-eval': String(run.evalEvery),
    ...(run.evalExamples ? { 'tr-examples': String(run.evalExamples) } : {}),
  };
}

/** Typed arrays as plain arrays, keys sorted: the same text for the same numbers, wherever made. */
export function canonical(value) {
  return JSON.stringify(value, (_, v) => {
    if (ArrayBuffer.isView(v)) return Array.from(/** @type {any} */ (v));
    if (v && typeof v === 'object' && !Array.isArray(v))
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, v[k]]),
      );
    return v;
  });
}

/** A SHA-256 of canonical(value): how the file holds the arrays too long to read (and diff) whole. */
export const digest = (value) => createHash('sha256').update(canonical(value)).digest('hex');

const array = (xs) => Array.from(xs ?? []);

/** One evaluation as the page keeps it, the probe's weights by digest. */
const evaluation = (e) => ({
  step: e.step,
  heldoutExactMatch: e.heldoutExactMatch,
  examples: e.examples,
  source: e.probe.source,
  output: e.probe.output,
  weights: digest(array(e.probe.weights)),
});

/** Trains every run of RUNS here and returns what the page must show for each. */
export async function trainingReference() {
  const [T, ap, im, au] = await Promise.all([loadTrainer(), loadEngine(), loadImaging(), loadAudio()]);
  const train = (run, score = run.score) => {
    const r = new T.TrainRun({
      task: run.task,
      score,
      style: 'bahdanau',
      steps: run.steps,
      seed: 1,
      ...(run.evalExamples ? { evalExamples: run.evalExamples } : {}),
    });
    r.step(run.steps);
    const bytes = r.save();
    r.delete();
    return bytes;
  };
  const out = {};

  {
    // the probe decoded by the page's module, as Decode, Compare and Beam show it
    const model = ap.Model.load(train(RUNS.datesLocation));
    const probe = T.trainTasks('gru').find((t) => t.name === 'dates')?.probe ?? '';
    const session = model.decode(probe, { topK: 5 });
    const records = session.run();
    const beam = session.beam(BEAM_WIDTH);
    out.datesLocation = {
      probe,
      score: model.info().score,
      heldoutExactMatch: model.info().heldoutExactMatch,
      outputText: session.outputText(),
      weights: records.map((r) => array(r.weights)),
      // the step the tests look at: the third, which reads the second's weights
      step2: {
        previousWeights: array(records[2].previousWeights),
        location: array(records[2].location?.data),
      },
      beam: {
        beams: beam.beams,
        scores: array(beam.scores),
        nodes: beam.nodes.map((n) => ({ token: n.token, weights: array(n.weights) })),
      },
    };
    session.delete();
    model.delete();
  }

  {
    // the Caption view's default scene captioned by the trained model
    const model = im.ImageModel.load(train(RUNS.scenesLocation));
    const description = DEFAULT_SCENE.split('_')
      .map((part) => {
        const [shape, colour, size, x, y] = part.split('.');
        return `${size} ${colour} ${shape} at ${x},${y}`;
      })
      .join('; ');
    const scene = im.scene(description);
    const session = model.caption(scene.pixels, scene.width, scene.height, 3, { topK: 5 });
    const records = session.run();
    out.scenesLocation = {
      scene: DEFAULT_SCENE,
      outputText: session.outputText(),
      tokens: records.map((r) => r.token),
      // the third word, which reads the second's weights
      weights1: array(records[1].weights),
      step2: {
        weights: array(records[2].weights),
        previousWeights: array(records[2].previousWeights),
        location: {
          rows: records[2].location?.rows ?? 0,
          cols: records[2].location?.cols ?? 0,
          data: array(records[2].location?.data),
        },
      },
    };
    session.delete();
    model.delete();
  }

  {
    const model = im.ImageModel.load(train(RUNS.scenesAdditive));
    const info = model.info();
    out.scenesAdditive = { heldoutExactMatch: info.heldoutExactMatch, attentionHits: info.attentionHits };
    model.delete();
  }

  {
    const model = au.AudioModel.load(train(RUNS.speechAdditive));
    const info = model.info();
    out.speechAdditive = { heldoutCer: info.heldoutCer, monotonicity: info.monotonicity };
    model.delete();
  }

  {
    const run = RUNS.speechRace;
    out.speechRace = {};
    for (const score of run.scores) {
      const { r, steps, evaluations } = race(T, run, score);
      out.speechRace[score] = { steps, evaluations };
      if (score === 'location') {
        // the Listen view's default utterance through the trained model, as its export writes it
        const model = au.AudioModel.load(r.save());
        const utterance = au.synthesize(DEFAULT_UTTERANCE);
        const session = model.listen(utterance.frames, { topK: 5 });
        const records = session.run();
        out.speechRace.listen = {
          input: DEFAULT_UTTERANCE,
          reduction: session.reduction(),
          outputText: session.outputText(),
          steps: digest(JSON.parse(canonical(records))),
        };
        session.delete();
        model.delete();
      }
      r.delete();
    }
  }

  {
    // the Transformer decoder raced beside additive attention; its model decodes the probe in
    // Decode through the trainer module (the engine Worker opens such checkpoints there)
    const run = RUNS.datesTransformerRace;
    out.datesTransformerRace = {};
    for (const entry of run.scores) {
      const { r, steps, evaluations } = race(T, run, entry);
      out.datesTransformerRace[entry] = { steps, evaluations };
      if (entry === 'transformer') {
        const model = T.Model.load(r.save());
        const probe = T.trainTasks('gru', 'transformer').find((t) => t.name === 'dates')?.probe ?? '';
        const session = model.decode(probe, { topK: 5 });
        const records = session.run();
        out.datesTransformerRace.decode = {
          probe,
          outputText: session.outputText(),
          weights: records.map((rec) => array(rec.weights)),
          crossWeights: digest(records.map((rec) => array(rec.crossWeights?.data))),
        };
        session.delete();
        model.delete();
      }
      r.delete();
    }
  }
  return out;
}

/**
 * One entry of a race trained one step at a time (a report of the page's is the mean loss and
 * token accuracy of the steps it took, and the last step's other figures), evaluated where the
 * page evaluates: every evalEvery steps, from step 0. The caller deletes `r`.
 */
function race(T, run, entry) {
  const r = new T.TrainRun({
    task: run.task,
    ...modelOf(entry),
    steps: run.steps,
    seed: 1,
    evalExamples: run.evalExamples,
  });
  const steps = [];
  const evaluations = [evaluation(r.evaluate(run.evalExamples))];
  for (let i = 1; i <= run.steps; i++) {
    const p = r.step(1);
    steps.push({
      step: p.step,
      sequences: p.sequences,
      loss: p.loss,
      tokenAccuracy: p.tokenAccuracy,
      gradNorm: p.gradNorm,
      learningRate: p.learningRate,
      done: p.done,
    });
    if (i % run.evalEvery === 0) evaluations.push(evaluation(r.evaluate(run.evalExamples)));
  }
  return { r, steps, evaluations };
}

/**
 * The report a page's run sent for the chunk of steps (from, to]: the mean loss and token accuracy
 * of its steps, in the engine's order of addition, and the last step's other figures.
 * @param {{ step: number, loss: number, tokenAccuracy: number }[]} steps the run's steps, one by one
 */
export function chunkReport(steps, from, to) {
  const taken = steps.slice(from, to);
  let loss = 0;
  let accuracy = 0;
  for (const s of taken) {
    loss += s.loss;
    accuracy += s.tokenAccuracy;
  }
  return { ...taken.at(-1), loss: loss / taken.length, tokenAccuracy: accuracy / taken.length };
}
