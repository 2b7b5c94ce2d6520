// The "Why attention" view's state: which task's held-out pairs are evaluated, the progress per
// model while the Worker runs, and each model's counts per source-length bucket as the engine gave
// them. Results are kept per task and bucket width for the session, so coming back is instant.
import * as Comlink from 'comlink';
import lengthDict from './strings.js';
import { Text } from '../../shared/i18n/translate.js';
import { modelName } from '../../shared/text/tasks.js';
import { SCORES } from '../../shared/lib/score-functions.js';
import { checkpoints } from '../../shared/engine/checkpoints.js';
import { choice } from '../../shared/text/choice.svelte.js';
import { BUCKET_WIDTHS, lengthLink } from './length-link.svelte.js';
import { platform } from '../../shared/platform.js';

export { BUCKET_WIDTHS };
export const LENGTH_TASKS = ['reverse', 'dates', 'zh'];

export const lengthView = $state({
  /** @type {'idle' | 'running' | 'done' | 'cancelled' | 'failed'} */
  status: 'idle',
  /** @type {string | Text} the Worker's message, or a Text of the page's own (shown in the language of the moment) */
  error: '',
  /** the task and width of what is shown below */
  task: '',
  width: 0,
  /** @type {{ name: string, score: string }[]} the models evaluated, baseline first */
  models: [],
  /** @type {Record<string, { done: number, total: number }>} */
  progress: {},
  /** @type {Record<string, import('./evaluate.js').ModelLengths>} */
  results: {},
  /** @type {Record<number, string[]>} data seed → the held-out sources in the engine's order (pair k of a result with that seed) */
  sources: {},
  /** @type {Record<number, string[]>} data seed → the sources' reference targets, in the same order */
  targets: {},
});

/** The task's Bahdanau BiGRU models that are shipped: the fixed-vector baseline first, then each score function. */
export function lengthModels(task) {
  return ['none', ...SCORES]
    .map((score) => ({ name: modelName(task, score, 'bahdanau'), score }))
    .filter((m) => checkpoints[m.name]);
}

/** @type {Map<string, { results: typeof lengthView.results, sources: Record<number, string[]>, targets: Record<number, string[]> }>} */
const finished = new Map();

/** @type {{ api: Comlink.Remote<import('./worker.js').LengthWorkerApi>, worker: Worker } | null} */
let started = null;
function worker() {
  if (started) return started;
  const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'length' });
  w.addEventListener('error', (event) => {
    event.preventDefault();
    lengthView.status = 'failed';
    lengthView.error = event.message || new Text(lengthDict, 'workerFailed');
    started = null;
  });
  started = { api: Comlink.wrap(w), worker: w };
  return started;
}

let runId = 0;

/** Evaluates the chosen task's models (or shows the kept result); a run already going is ended (the Worker ends it at a new run). */
export async function evaluateLengths(task = choice.task, width = lengthLink.bucketWidth) {
  const key = `${task}/${width}`;
  const id = ++runId;
  const models = lengthModels(task);
  Object.assign(lengthView, { task, width, models, error: '' });
  const kept = finished.get(key);
  if (kept) {
    Object.assign(lengthView, {
      status: 'done',
      results: kept.results,
      sources: kept.sources,
      targets: kept.targets,
      progress: Object.fromEntries(
        models.map((m) => [m.name, { done: kept.results[m.name].pairs, total: kept.results[m.name].pairs }]),
      ),
    });
    return;
  }
  Object.assign(lengthView, {
    status: 'running',
    results: {},
    sources: {},
    targets: {},
    progress: Object.fromEntries(models.map((m) => [m.name, { done: 0, total: 0 }])),
  });
  const { api } = worker();
  /** @param {import('./evaluate.js').LengthReport} r */
  const report = (r) => {
    if (id !== runId) return;
    if (r.kind === 'pairs')
      ((lengthView.sources[r.seed] = r.sources), (lengthView.targets[r.seed] = r.targets));
    else if (r.kind === 'progress') lengthView.progress[r.name] = { done: r.done, total: r.total };
    else lengthView.results[r.result.name] = r.result;
  };
  try {
    const end = await api.run(
      {
        task,
        bucketWidth: width,
        models: models.map((m) => ({ name: m.name, url: absolute(checkpoints[m.name]) })),
      },
      Comlink.proxy(report),
    );
    if (id !== runId) return;
    lengthView.status = end === 'done' ? 'done' : 'cancelled';
    if (end === 'done')
      finished.set(key, {
        results: $state.snapshot(lengthView.results),
        sources: $state.snapshot(lengthView.sources),
        targets: $state.snapshot(lengthView.targets),
      });
  } catch (error) {
    if (id !== runId) return;
    lengthView.status = 'failed';
    lengthView.error = error instanceof Error ? error.message : String(error);
  }
}

/** Stops the evaluation after the Worker's current slice; the models done so far stay shown. */
export function cancelLengths() {
  runId++;
  if (lengthView.status === 'running') lengthView.status = 'cancelled';
  void started?.api.cancel();
}

// The Worker fetches from its own script's URL: a relative checkpoint URL must be made absolute here.
const absolute = (url) => new URL(url, platform.href()).href;
