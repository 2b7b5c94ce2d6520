// The engine's module Worker: loads the wasm build once and answers the page through Comlink, so
// the page's thread never blocks on the engine (engine-api.js holds what it answers).
import * as Comlink from 'comlink';
import createPlayground from '@engine/playground.js';
import { createEngineApi } from './engine-api.js';
import { carryErrorCodes } from './errors.js';

carryErrorCodes();
// The trainer module holds the Transformer decoder: imported dynamically, it is a chunk of its
// own, fetched only when a checkpoint of that decoder is first opened.
const api = createEngineApi(
  () => createPlayground(),
  () => import('@engine/trainer.js').then((module) => module.default()),
);
// The browser tests read this to check that the page closes the sessions it no longer shows.
/** @type {any} */ (globalThis).openSessions = api.openSessions;
// Synchronously, before anything awaits, so no early message is missed.
Comlink.expose(api);
