// The page's handle on a training Worker: one per run (several train side by side on several
// cores), plus one that only answers the trainer's limits, tasks and the reading of own pairs.
import * as Comlink from 'comlink';

/** @typedef {import('comlink').Remote<import('./worker.js').TrainWorkerApi>} TrainRemote */

/**
 * @param {string} name the Worker's name (shown by the browser's developer tools)
 * @returns {{ api: TrainRemote, failed: Promise<never>, terminate: () => void }}
 *   `failed` rejects if the Worker cannot start (its script fails to load or throws).
 */
export function startTrainWorker(name) {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name });
  /** @type {Promise<never>} */
  const failed = new Promise((_, reject) => {
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      reject(new Error(event.message || 'the training worker failed to start'));
    });
  });
  failed.catch(() => {});
  const api = /** @type {TrainRemote} */ (Comlink.wrap(worker));
  return {
    api,
    failed,
    terminate() {
      api[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}

/** Wraps a page function so the Worker can call it (its messages: progress, evaluations, the end). */
export const reporter = (fn) => Comlink.proxy(fn);
