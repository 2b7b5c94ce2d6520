// The page's handle on the engine Worker. Every call returns a promise.
import * as Comlink from 'comlink';

/** @returns {import('comlink').Remote<import('./engine').EngineApi>} */
export function startEngine() {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'engine' });
  return Comlink.wrap(worker);
}
