// The page's handle on the engine Worker. Every call returns a promise.
import * as Comlink from 'comlink';

/** @typedef {import('comlink').Remote<import('./engine').EngineApi>} EngineRemote */

/**
 * @returns {{ api: EngineRemote, failed: Promise<never> }}
 *   `failed` rejects if the Worker itself cannot start (its script fails to load or throws), which
 *   would otherwise leave every call pending forever.
 */
export function startEngine() {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'engine' });
  /** @type {Promise<never>} */
  const failed = new Promise((_, reject) => {
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      reject(new Error(event.message || 'the engine worker failed to start'));
    });
  });
  return { api: Comlink.wrap(worker), failed };
}
