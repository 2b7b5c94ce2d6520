// The Train view's runs: one Worker each (client.js, worker.js), their progress reports, their
// evaluations (held-out exact match, the probe's alignment and the model's bytes at that step),
// the scrub position, and the models they leave (kept in this browser, or opened in the view that
// reads them). The page never trains: every number here is a field of a report the engine sent.
import { readError } from '../../shared/lib/errors.js';
import { chooseTrained, holdModel, keepModel, newModelId } from '../../shared/models/trained.svelte.js';
import { handOver } from '../../shared/models/handover.svelte.js';
import { page } from '../../shared/view.svelte.js';
import { reporter, startTrainWorker } from './client.js';
import { pairs } from './pairs.svelte.js';
import { TRANSFORMER_DECODER } from './scores.js';
import { chosenScores, config, stepsOf, taskInfo, trainer, transformerRecipe } from './train.svelte.js';

/**
 * @typedef {{ id: number, label: string, score: string, style: string, task: string,
 *   status: 'starting' | 'running' | 'paused' | 'done' | 'cancelled' | 'diverged' | 'failed',
 *   message: string, step: number, totalSteps: number, sequences: number, loss: number | null,
 *   tokenAccuracy: number | null, gradNorm: number | null, learningRate: number | null,
 *   sequencesPerSecond: number | null, elapsedSeconds: number | null,
 *   heldoutExactMatch: number | null, evaluations: number, snapshotsKept: number,
 *   reached99: { seconds: number, sequences: number, step: number } | null,
 *   savedId: string, finalStep: number | null, finalExactMatch: number | null, finalExamples: number | null,
 *   divergence: import('./divergence.js').Divergence | null }} RunView
 */
/** @type {RunView[]} one per run, in the order they started */
export const runs = $state([]);

/** The scrub slider (an evaluation index; null follows the latest) and a counter for redraws. */
export const timeline = $state({ scrub: /** @type {number | null} */ (null), version: 0, pressedAt: 0 });

/**
 * What each run reported, kept outside Svelte's reactivity (plain arrays the charts read):
 * every progress report as it came, and every evaluation with the model's bytes at that step.
 * @typedef {{ reports: import('@engine/trainer.js').TrainProgress[],
 *   evaluations: (import('@engine/trainer.js').Evaluation & { bytes: Uint8Array | null, at: number })[],
 *   final: { step: number, bytes: Uint8Array, heldoutExactMatch: number | null, examples: number | null } | null,
 *   probeText: string }} RunData
 * @type {Map<number, RunData>}
 */
export const runData = new Map();
// The browser tests compare what the page shows with what the engine reported.
/** @type {any} */ (globalThis).trainRunData = runData;

/**
 * Snapshot bytes kept per run: every evaluation keeps its model's bytes up to this (64 snapshots
 * of a 0.75 MB dates model; the default run has 21); past it every other older snapshot drops its
 * bytes. The figures and the alignment of every evaluation stay whatever the budget (a few kB each).
 */
export const SNAPSHOT_BUDGET = 48 * 1024 * 1024;
/** Training chunks of about this many ms: the Worker answers pause and cancel within one. */
const CHUNK_MS = 75;

/** @type {Map<number, ReturnType<typeof startTrainWorker>>} */
const workers = new Map();
let lastRun = 0;

/**
 * What a run is created from (every value explicit, so what is shown is what is used). The
 * Transformer decoder's run names the decoder instead of a score function and style: its heads
 * score by scaled dot product, Luong-style (the engine's defaults for it, the only ones it takes).
 * @returns {import('@engine/trainer.js').TrainConfig}
 */
export function runConfig(score) {
  const data =
    config.data === 'pairs'
      ? {
          pairs: pairs.text,
          tokenization: /** @type {import('@engine/trainer.js').Tokenization} */ (config.tokenization),
        }
      : { task: /** @type {import('@engine/trainer.js').TrainConfig['task']} */ (config.task) };
  // Sizes and options not set here are left to the trainer's recipe (the values the form shows).
  // scenes, speech: the conv / audio encoder and its sizes are the recipe's own (the engine refuses others)
  const scenes = config.data === 'task' && (config.task === 'scenes' || config.task === 'speech');
  const set = Object.fromEntries(
    (scenes ? ['learningRate', 'batch', 'steps'] : ['embed', 'hidden', 'learningRate', 'batch', 'steps'])
      .filter((f) => config[f] > 0)
      .map((f) => [f, config[f]]),
  );
  const model = modelFields(score);
  return {
    ...data,
    ...model,
    ...(scenes ? {} : { encoder: /** @type {import('@engine/trainer.js').EncoderKind} */ (config.encoder) }),
    ...set,
    seed: config.seed,
    evalExamples: config.evalExamples,
  };
}

/**
 * The Transformer decoder's entry names its decoder; a score function's, itself and the style.
 * @param {string} entry
 * @returns {Pick<import('@engine/trainer.js').TrainConfig, 'score' | 'style' | 'decoder'>}
 */
function modelFields(entry) {
  if (entry === TRANSFORMER_DECODER) return { decoder: 'transformer' };
  const score = /** @type {import('@engine/trainer.js').TrainConfig['score']} */ (entry);
  const style = /** @type {import('@engine/trainer.js').TrainConfig['style']} */ (config.style);
  return { score, style };
}

const busy = (r) => r.status === 'starting' || r.status === 'running' || r.status === 'paused';
export const anyTraining = () => runs.some(busy);
export const anyRunning = () => runs.some((r) => r.status === 'running' || r.status === 'starting');
export const anyPaused = () => runs.some((r) => r.status === 'paused');

/** The task's probe as text (for own pairs, the engine's probe is known from the first evaluation). */
const probeText = () => String(taskInfo(config.task)?.probe ?? '');

/** Train: one run per chosen score function, each in its own Worker; earlier runs are stopped. */
export function startTraining() {
  clearRuns();
  timeline.pressedAt = performance.now();
  timeline.scrub = null;
  for (const score of chosenScores()) startRun(score);
}

function startRun(score) {
  const id = ++lastRun;
  const task = config.data === 'task' ? config.task : 'pairs';
  const transformer = score === TRANSFORMER_DECODER;
  runs.push({
    id,
    label: transformer ? 'Transformer decoder' : `${score.replace('_', ' ')} · ${config.style}`,
    score,
    style: transformer ? 'luong' : config.style,
    task,
    status: 'starting',
    message: '',
    step: 0,
    totalSteps: transformer ? config.steps || (transformerRecipe()?.defaultSteps ?? 0) : stepsOf(),
    sequences: 0,
    loss: null,
    tokenAccuracy: null,
    gradNorm: null,
    learningRate: null,
    sequencesPerSecond: null,
    elapsedSeconds: null,
    heldoutExactMatch: null,
    evaluations: 0,
    snapshotsKept: 0,
    reached99: null,
    savedId: '',
    finalStep: null,
    finalExactMatch: null,
    finalExamples: null,
    divergence: null,
  });
  /** @type {RunData} */
  const data = {
    reports: [],
    evaluations: [],
    final: null,
    probeText: config.data === 'task' ? probeText() : '',
  };
  runData.set(id, data);
  const worker = startTrainWorker(`train-${id}-${score}`);
  workers.set(id, worker);
  const report = reporter((message) => onReport(id, message));
  const options = {
    evalEvery: config.evalEvery,
    evalExamples: config.evalExamples,
    chunkMs: CHUNK_MS,
    maxChunk: trainer.limits?.maxStepsPerCall ?? 1000,
  };
  Promise.race([worker.api.start(runConfig(score), options, report), worker.failed])
    .then(() => {
      const run = runOf(id);
      if (run?.status === 'starting') run.status = 'running';
    })
    .catch((error) => {
      const run = runOf(id);
      if (!run) return;
      run.status = 'failed';
      run.message = readError(error).message;
      stopWorker(id);
    });
}

const runOf = (id) => runs.find((r) => r.id === id);

// Redraws (charts, heatmaps) at most this often, whatever the reports' rate.
const REDRAW_MS = 200;
let redrawTimer = 0;
function redrawSoon() {
  if (redrawTimer) return;
  redrawTimer = /** @type {any} */ (
    setTimeout(() => {
      redrawTimer = 0;
      timeline.version++;
    }, REDRAW_MS)
  );
}

function onReport(id, message) {
  const run = runOf(id);
  const data = runData.get(id);
  if (!run || !data) return;
  if (message.type === 'progress') {
    const p = message.progress;
    data.reports.push(p);
    if (run.status === 'starting') run.status = 'running';
    Object.assign(run, {
      step: p.step,
      totalSteps: p.totalSteps,
      sequences: p.sequences,
      loss: p.loss,
      tokenAccuracy: p.tokenAccuracy,
      gradNorm: p.gradNorm,
      learningRate: p.learningRate,
      sequencesPerSecond: p.sequencesPerSecond,
      elapsedSeconds: p.elapsedSeconds,
    });
  } else if (message.type === 'evaluation') {
    const e = message.evaluation;
    // Own pairs: the engine's probe is the input opened in Decode.
    if (!data.probeText) data.probeText = e.probe.text;
    data.evaluations.push({ ...e, bytes: message.bytes ?? null, at: performance.now() });
    // The last evaluation's bytes are the scored model's: its figure is the one its file holds.
    if (message.model)
      data.final = {
        step: e.step,
        bytes: message.bytes,
        heldoutExactMatch: message.model.heldoutExactMatch,
        examples: message.model.examples,
      };
    keepWithinBudget(data);
    run.heldoutExactMatch = e.heldoutExactMatch;
    run.evaluations = data.evaluations.length;
    run.snapshotsKept = data.evaluations.filter((x) => x.bytes).length;
    if (!run.reached99 && e.heldoutExactMatch >= 0.99)
      run.reached99 = {
        seconds: (performance.now() - timeline.pressedAt) / 1000,
        sequences: data.reports.at(-1)?.sequences ?? 0,
        step: e.step,
      };
  } else if (message.type === 'done') {
    run.status = 'done';
    if (data.final) {
      run.finalStep = data.final.step;
      run.finalExactMatch = data.final.heldoutExactMatch;
      run.finalExamples = data.final.examples;
      void keepRun(id);
    }
    stopWorker(id);
  } else if (message.type === 'diverged') {
    // No final model: what a diverged run ends with is not a trained model to keep or open.
    run.status = 'diverged';
    run.divergence = message.divergence;
    stopWorker(id);
  } else if (message.type === 'failed') {
    run.status = 'failed';
    run.message = message.error?.message ?? 'the run failed';
    stopWorker(id);
  }
  // Progress redraws at a modest rate; an evaluation or a run's end shows at once.
  if (message.type === 'progress') redrawSoon();
  else {
    clearTimeout(redrawTimer);
    redrawTimer = 0;
    timeline.version++;
  }
}

// Past the budget, every other kept snapshot but the first and the newest drops its bytes.
function keepWithinBudget(data) {
  let total = data.evaluations.reduce((sum, e) => sum + (e.bytes?.length ?? 0), 0);
  if (total <= SNAPSHOT_BUDGET) return;
  const kept = data.evaluations.filter((e) => e.bytes);
  for (let i = 1; i < kept.length - 1 && total > SNAPSHOT_BUDGET / 2; i += 2) {
    total -= kept[i].bytes?.length ?? 0;
    kept[i].bytes = null;
  }
}

function stopWorker(id) {
  workers.get(id)?.terminate();
  workers.delete(id);
}

export async function pauseTraining() {
  for (const run of runs)
    if (run.status === 'running') {
      const phase = await workers.get(run.id)?.api.pause();
      if (phase === 'paused') run.status = 'paused';
    }
}

export async function resumeTraining() {
  for (const run of runs)
    if (run.status === 'paused') {
      const phase = await workers.get(run.id)?.api.resume();
      if (phase === 'running') run.status = 'running';
    }
}

/**
 * Cancel: each run's Worker is terminated (its memory freed); what it evaluated stays.
 * @param {number | null} [id] one run, or every run
 */
export function cancelTraining(id = null) {
  for (const run of runs) {
    if ((id !== null && run.id !== id) || !busy(run)) continue;
    run.status = 'cancelled';
    const data = runData.get(run.id);
    const last = data?.evaluations.filter((e) => e.bytes).at(-1);
    if (data && last?.bytes) {
      data.final = {
        step: last.step,
        bytes: last.bytes,
        heldoutExactMatch: last.heldoutExactMatch,
        examples: last.examples,
      };
      run.finalStep = last.step;
      run.finalExactMatch = last.heldoutExactMatch;
      run.finalExamples = last.examples;
    }
    workers
      .get(run.id)
      ?.api.cancel()
      .catch(() => {});
    stopWorker(run.id);
  }
  redrawSoon();
}

/** Stops every run and forgets them (the models kept in the browser stay). */
export function clearRuns() {
  for (const id of workers.keys()) stopWorker(id);
  runs.length = 0;
  runData.clear();
  timeline.scrub = null;
  timeline.version++;
}

const runModelId = (run, step) =>
  `trained-${run.task}-${run.score}-${run.style}-s${config.seed}-r${run.id}-step${step}`;

/** @type {Map<number, Promise<void>>} the keeps under way, by run id */
const keeping = new Map();

/**
 * Keeps a run's final model in this browser (a diverged run has none). A second call
 * while the first is writing waits for it rather than keeping the model twice.
 */
export function keepRun(id) {
  const pending = keeping.get(id) ?? keepOnce(id).finally(() => keeping.delete(id));
  keeping.set(id, pending);
  return pending;
}

async function keepOnce(id) {
  const run = runOf(id);
  const data = runData.get(id);
  // the kept models are the text views' (Decode, Compare, Beam); a scenes model reads pictures
  if (!run || run.task === 'scenes' || run.task === 'speech' || !data?.final || run.savedId) return;
  const meta = {
    id: newModelId(`${run.task}-${run.score}-${run.style}-step${data.final.step}`),
    label: `${run.task} · ${run.label} · step ${data.final.step}`,
    task: run.task,
    ...modelKind(run),
    encoder: config.encoder,
    step: data.final.step,
    heldoutExactMatch: data.final.heldoutExactMatch,
    bytes: data.final.bytes.length,
    created: Date.now(),
    origin: /** @type {const} */ ('trained'),
  };
  const kept = await keepModel(meta, data.final.bytes);
  if (kept) run.savedId = kept.id;
}

/**
 * Opens a run's model in another view: the final one, or the snapshot of evaluation `index`.
 * @param {number} id
 * @param {'final' | number} which
 * @param {'decode' | 'compare' | 'beam' | 'caption' | 'listen'} view (a scenes model: always the Caption view; speech: Listen)
 */
export async function openRunModel(id, which, view) {
  // A final model being kept opens under its kept name, so the link it writes survives a reload.
  if (which === 'final') await keeping.get(id);
  const run = runOf(id);
  const data = runData.get(id);
  if (!run || !data) return;
  let name, bytes;
  if (which === 'final') {
    if (!data.final) return;
    name = run.savedId || runModelId(run, data.final.step);
    bytes = data.final.bytes;
    if (!run.savedId) holdModel(name, bytes);
  } else {
    const e = data.evaluations[which];
    if (!e?.bytes) return;
    name = runModelId(run, e.step);
    bytes = e.bytes;
    holdModel(name, bytes);
  }
  // a scenes model reads pictures, a speech model hears sound: the Caption and Listen views show them
  const reader = { scenes: 'caption', speech: 'listen' }[run.task];
  if (reader) {
    handOver(run.task, { name, score: run.score, bytes });
    page.view = /** @type {'caption' | 'listen'} */ (reader);
    return;
  }
  chooseTrained(
    { id: name, task: run.task, ...modelKind(run), encoder: config.encoder },
    { input: data.probeText || undefined, view },
  );
}

/** What Decode shows a run's model as: its score function and style, and its decoder. */
const modelKind = (run) =>
  run.score === TRANSFORMER_DECODER
    ? { score: 'scaled_dot', style: 'luong', decoder: 'transformer' }
    : { score: run.score, style: run.style, decoder: 'gru' };

/** The evaluation shown for a run at the scrub position (its latest when following). */
export function evaluationAt(id, scrub = timeline.scrub) {
  const list = runData.get(id)?.evaluations ?? [];
  if (!list.length) return null;
  const i = scrub === null ? list.length - 1 : Math.min(scrub, list.length - 1);
  return { index: i, evaluation: list[i] };
}

/**
 * The held-out pairs a run's evaluation lists (at the scrub position, its latest when following),
 * as the engine wrote them: the source ('' for an image or a sound), the reference, the model's output and
 * whether it is right. Null before the run's first evaluation.
 */
export function predictionsAt(id, scrub = timeline.scrub) {
  const at = evaluationAt(id, scrub);
  if (!at) return null;
  return { step: at.evaluation.step, items: at.evaluation.predictions };
}

/**
 * A run's figures as the screen shows them: the latest when following, else those at the
 * evaluation under the slider (its step and held-out exact match, and the progress report that
 * ended at that step: its loss, accuracy, gradient norm and sequences; none before step 1).
 * @param {RunView} run
 */
export function figuresAt(run, scrub = timeline.scrub) {
  const at = scrub === null ? null : evaluationAt(run.id, scrub);
  if (!at) return run;
  const e = at.evaluation;
  const report = reportAt(runData.get(run.id)?.reports ?? [], e.step);
  return {
    step: e.step,
    totalSteps: run.totalSteps,
    heldoutExactMatch: e.heldoutExactMatch,
    loss: report?.loss ?? null,
    tokenAccuracy: report?.tokenAccuracy ?? null,
    gradNorm: report?.gradNorm ?? null,
    sequences: report?.sequences ?? 0,
    sequencesPerSecond: report?.sequencesPerSecond ?? null,
  };
}

/** The last report at or before `step` (the reports come in the order of their steps). */
function reportAt(reports, step) {
  let lo = 0;
  let hi = reports.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (reports[mid].step <= step) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? reports[lo - 1] : null;
}

/** How many evaluations the longest run has (the slider's range). */
export const evaluationCount = () => {
  void timeline.version;
  return Math.max(0, ...[...runData.values()].map((d) => d.evaluations.length));
};
