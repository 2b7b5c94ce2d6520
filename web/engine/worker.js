// The engine's module Worker: loads the wasm build once and answers the page through Comlink, so
// the page's thread never blocks on the engine. Errors thrown here (the C++ messages) reach the
// caller as rejected promises carrying the same Error message.
import * as Comlink from 'comlink';
import createPlayground from '@engine/playground.js';

let loading;
const playground = () => (loading ??= createPlayground());

/** @type {import('./engine').EngineApi} */
const api = {
  async init() {
    const ap = await playground();
    return { isa: ap.simdIsa(), kinds: ap.scoreKinds() };
  },
  async attend(kind, query, keys, values, options) {
    return (await playground()).attend(kind, query, keys, values, options);
  },
  async defaultParams(kind, dq, dk, da) {
    return (await playground()).defaultParams(kind, dq, dk, da);
  },
};

// Synchronously, before anything awaits, so no early message is missed.
Comlink.expose(api);
