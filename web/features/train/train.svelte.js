// The Train view's state: the configuration (in the URL), the person's own pairs as the engine
// read them, and the runs: one Worker each (web/train/worker.js), their progress reports, their
// evaluations (held-out exact match, the probe's alignment and the model's bytes at that step),
// the scrub position, and the models they leave. The page never trains: every number here is a
// field of a report the engine sent.
import { errorText, readError } from '../../shared/lib/errors.js';
import { reporter, startTrainWorker } from './client.js';
import { offeredScores, trainableChosen } from './scores.js';
import { noteLink } from '../../shared/link/notes.svelte.js';
import { chooseTrained, holdModel, keepModel, newModelId } from '../../shared/models/trained.svelte.js';
import { openTrainedScene } from '../caption/caption.svelte.js';
import { nav } from '../../shared/text/choice.svelte.js';
import { readTrainUrl, trainDefaults, trainUrlFields } from './train-link.js';
import { hashParts } from '../../shared/link/url.js';
import { translatorOf } from '../../shared/i18n/translate.js';
import trainDict from './strings.js';

const t = translatorOf(trainDict);

const notes = /** @type {(string | import('../../shared/i18n/translate.js').Text)[]} */ ([]);
export const config = $state(readTrainUrl(location.hash, trainDefaults, notes));
for (const note of notes) noteLink(note);
hashParts.push(() => trainUrlFields($state.snapshot(config)));

/** The trainer module's limits and tasks, read by a helper Worker when the Train view opens. */
export const trainer = $state({
  /** @type {'idle' | 'loading' | 'ready' | 'failed'} */
  status: 'idle',
  /** @type {import('@engine/trainer.js').TrainLimits | null} */
  limits: null,
  /** @type {Record<string, import('@engine/trainer.js').TaskRecipe[]>} encoder → the tasks' recipes */
  tasks: {},
  /** @type {Record<string, import('@engine/trainer.js').TaskRecipe>} encoder → the recipe for own pairs */
  pairs: {},
  error: '',
});

/** The person's own pairs: the text (never in the URL) and the engine's reading of it. */
export const pairs = $state({
  text: '',
  fileName: '',
  /** @type {'empty' | 'reading' | 'ok' | 'error'} */
  status: 'empty',
  /** @type {import('@engine/trainer.js').PairsSummary | null} */
  parsed: null,
  /** @type {import('../../shared/lib/errors.js').Failure | null} */
  failure: null,
});

/**
 * @typedef {{ id: number, label: string, score: string, style: string, task: string,
 *   status: 'starting' | 'running' | 'paused' | 'done' | 'cancelled' | 'diverged' | 'failed',
 *   message: string, step: number, totalSteps: number, sequences: number, loss: number | null,
 *   tokenAccuracy: number | null, gradNorm: number | null, learningRate: number | null,
 *   sequencesPerSecond: number | null, elapsedSeconds: number | null,
 *   heldoutExactMatch: number | null, evaluations: number, snapshotsKept: number,
 *   reached99: { seconds: number, sequences: number, step: number } | null,
 *   savedId: string, finalStep: number | null }} RunView
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
 *   final: { step: number, bytes: Uint8Array } | null, probeText: string }} RunData
 * @type {Map<number, RunData>}
 */
export const runData = new Map();
// The browser tests compare what the page shows with what the engine reported.
/** @type {any} */ (globalThis).trainRunData = runData;

/** Snapshot bytes kept per run; past this, every other older snapshot drops its bytes (not its alignment). */
export const SNAPSHOT_BUDGET = 48 * 1024 * 1024;
/** Saving a snapshot's bytes may take at most this share of the training time. */
const SAVE_SHARE = 0.1;
/** Training chunks of about this many ms: the Worker answers pause and cancel within one. */
const CHUNK_MS = 75;

/** @type {Map<number, ReturnType<typeof startTrainWorker>>} */
const workers = new Map();
let helper = /** @type {ReturnType<typeof startTrainWorker> | null} */ (null);
let lastRun = 0;

/** Starts the helper Worker that reads the trainer's limits and tasks (once). */
export async function loadTrainer() {
  if (trainer.status !== 'idle') return;
  trainer.status = 'loading';
  helper = startTrainWorker('trainer-info');
  try {
    const info = await Promise.race([helper.api.info(), helper.failed]);
    trainer.limits = info.limits;
    trainer.tasks = info.tasks;
    trainer.pairs = info.pairs;
    trainer.status = 'ready';
    if (pairs.text) void readPairs();
  } catch (error) {
    trainer.status = 'failed';
    trainer.error = t('trainerFailed', { message: errorText(readError(error)) });
  }
}

/** The task's recipe from the trainer (its probe, steps, sizes, learning rate). */
export const taskInfo = (name, encoder = config.encoder) =>
  trainer.tasks[encoder]?.find((t) => t.name === name) ?? null;

/** The recipe the run starts from: the task's, or the one for own pairs. */
export const recipe = () =>
  config.data === 'task' ? taskInfo(config.task) : (trainer.pairs[config.encoder] ?? null);

const RECIPE_FIELD = {
  steps: 'defaultSteps',
  embed: 'embed',
  hidden: 'hidden',
  batch: 'batch',
  learningRate: 'learningRate',
};
/** A size or option as the run will use it: the one set here, else the recipe's (null before it is known). */
export function valueOf(field) {
  if (config[field] > 0) return config[field];
  const fromRecipe = Number(recipe()?.[RECIPE_FIELD[field]]);
  return Number.isFinite(fromRecipe) && fromRecipe > 0 ? fromRecipe : null;
}
export const stepsOf = () => valueOf('steps') ?? 0;

/**
 * The score functions the trainer trains for the chosen task or own pairs (the engine's task info:
 * the content-based ones and location), each with the styles it takes and whether the chosen style
 * is one; before the trainer has answered, the default race.
 * @returns {{ name: string, styles: string[], ok: boolean }[]}
 */
export const scoreOptions = () => offeredScores(recipe()?.scores, config.style, trainDefaults.scores);
export const scoreKinds = () => scoreOptions().map((s) => s.name);
/** The chosen score functions this data and style can train: what Train starts, one run each. */
export const chosenScores = () => trainableChosen(scoreOptions(), config.scores);

let parseTimer = 0;
let parseSerial = 0;
/** Sets the own pairs' text; the engine reads it a moment after the typing stops. */
export function setPairsText(text, fileName = '') {
  pairs.text = text;
  pairs.fileName = fileName;
  clearTimeout(parseTimer);
  parseTimer = /** @type {any} */ (setTimeout(readPairs, 300));
}

/** The engine's reading of the pairs (counts, vocabularies, lengths) or its message. */
export async function readPairs() {
  const serial = ++parseSerial;
  if (pairs.text === '') {
    Object.assign(pairs, { status: 'empty', parsed: null, failure: null });
    return;
  }
  if (!helper || trainer.status !== 'ready') return void loadTrainer();
  pairs.status = 'reading';
  try {
    const parsed = await helper.api.parsePairs(
      pairs.text,
      /** @type {import('@engine/trainer.js').Tokenization} */ (config.tokenization),
      config.seed,
    );
    if (serial !== parseSerial) return;
    Object.assign(pairs, { status: 'ok', parsed, failure: null });
  } catch (error) {
    if (serial !== parseSerial) return;
    Object.assign(pairs, { status: 'error', parsed: null, failure: readError(error) });
  }
}

/**
 * A dropped or picked file of pairs: read as text unless it is over the trainer's byte limit
 * (then the limit is the message; the file is not read).
 * @param {File} file
 */
export async function loadPairsFile(file) {
  const max = trainer.limits?.maxBytes;
  if (max && file.size > max) {
    Object.assign(pairs, {
      status: 'error',
      parsed: null,
      fileName: file.name,
      failure: {
        code: 'limit_exceeded',
        message: `${file.name} has ${file.size.toLocaleString('en')} bytes; the trainer takes at most ${max.toLocaleString('en')} bytes of pairs.`,
        details: { limit: max, length: file.size },
      },
    });
    return;
  }
  config.data = 'pairs';
  setPairsText(await file.text(), file.name);
}

/**
 * What a run is created from (every value explicit, so what is shown is what is used).
 * @returns {import('@engine/trainer.js').TrainConfig}
 */
function runConfig(score) {
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
  return {
    ...data,
    score,
    style: /** @type {import('../../../wasm/playground').AttentionStyle} */ (config.style),
    ...(scenes ? {} : { encoder: /** @type {import('@engine/trainer.js').EncoderKind} */ (config.encoder) }),
    ...set,
    seed: config.seed,
    evalExamples: config.evalExamples,
  };
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
  runs.push({
    id,
    label: `${score.replace('_', ' ')} · ${config.style}`,
    score,
    style: config.style,
    task,
    status: 'starting',
    message: '',
    step: 0,
    totalSteps: stepsOf(),
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
    saveShare: SAVE_SHARE,
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
    // Own pairs: the engine's probe (its tokens, as they are written) is the input opened in Decode.
    if (!data.probeText && e.probe.source.length)
      data.probeText = e.probe.source.join(pairs.parsed?.tokenization === 'word' ? ' ' : '');
    data.evaluations.push({ ...e, bytes: message.bytes ?? null, at: performance.now() });
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
    const last = data.evaluations.at(-1);
    run.status = 'done';
    if (last?.bytes) {
      data.final = { step: last.step, bytes: last.bytes };
      run.finalStep = last.step;
      void keepRun(id);
    }
    stopWorker(id);
  } else if (message.type === 'diverged') {
    run.status = 'diverged';
    run.message = message.message;
    data.final = { step: message.step, bytes: message.bytes };
    run.finalStep = message.step;
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
      data.final = { step: last.step, bytes: last.bytes };
      run.finalStep = last.step;
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
 * Keeps a run's final model (the last good one of a diverged run) in this browser. A second call
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
  const last = data.evaluations.filter((e) => e.step === data.final?.step).at(-1);
  const meta = {
    id: newModelId(`${run.task}-${run.score}-${run.style}-step${data.final.step}`),
    label: `${run.task} · ${run.label} · step ${data.final.step}${run.status === 'diverged' ? ' (last good before divergence)' : ''}`,
    task: run.task,
    score: run.score,
    style: run.style,
    encoder: config.encoder,
    step: data.final.step,
    heldoutExactMatch: last?.heldoutExactMatch ?? null,
    bytes: data.final.bytes.length,
    created: Date.now(),
    origin: /** @type {const} */ ('trained'),
  };
  if (await keepModel(meta, data.final.bytes)) run.savedId = meta.id;
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
  if (run.task === 'speech') {
    // a speech model hears sound: the Listen view shows it (its state loads with the view)
    void import('../listen/listen.svelte.js').then(({ openTrainedSpeech }) => {
      openTrainedSpeech(name, run.score, bytes);
      nav.view = 'listen';
    });
    return;
  }
  if (run.task === 'scenes') {
    // a scenes model reads pictures: the Caption view shows it
    openTrainedScene(name, run.score, bytes);
    nav.view = 'caption';
    return;
  }
  chooseTrained(
    { id: name, task: run.task, score: run.score, style: run.style, encoder: config.encoder },
    { input: data.probeText || undefined, view },
  );
}

/** The evaluation shown for a run at the scrub position (its latest when following). */
export function evaluationAt(id, scrub = timeline.scrub) {
  const list = runData.get(id)?.evaluations ?? [];
  if (!list.length) return null;
  const i = scrub === null ? list.length - 1 : Math.min(scrub, list.length - 1);
  return { index: i, evaluation: list[i] };
}

/** How many evaluations the longest run has (the slider's range). */
export const evaluationCount = () => {
  void timeline.version;
  return Math.max(0, ...[...runData.values()].map((d) => d.evaluations.length));
};
