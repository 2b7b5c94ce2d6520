// The engine's module Worker: loads the wasm build once and answers the page through Comlink, so
// the page's thread never blocks on the engine. Errors thrown here (the C++ messages) reach the
// caller as rejected promises carrying the same Error message.
//
// Trained models (issue 4's API, wasm/model_bindings.cpp): each checkpoint is fetched once, when
// the page first asks for it, and kept; each model keeps its latest decoding session, so the
// page can ask for that session's beams or exports afterwards.
import * as Comlink from 'comlink';
import createPlayground from '@engine/playground.js';

let loading;
const playground = () => (loading ??= createPlayground());

/** name → Promise<Model> */
const models = new Map();
/** name → the latest Session of that model */
const sessions = new Map();

async function model(name, url) {
  if (!models.has(name)) {
    const loaded = (async () => {
      const ap = await playground();
      if (!ap.Model) throw new Error('this engine build has no trained-model API yet');
      const response = await fetch(url);
      if (!response.ok) throw new Error(`checkpoint ${name}: the server answered ${response.status}`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      return ap.Model.load(bytes);
    })();
    models.set(name, loaded);
    // A failed load may be retried (say, after the server comes back).
    loaded.catch(() => models.delete(name));
  }
  return models.get(name);
}

function session(name) {
  const s = sessions.get(name);
  if (!s) throw new Error(`no decode of ${name} yet`);
  return s;
}

/** @type {import('./engine').EngineApi} */
const api = {
  async init() {
    const ap = await playground();
    return { isa: ap.simdIsa(), kinds: ap.scoreKinds(), models: Boolean(ap.Model) };
  },
  async attend(kind, query, keys, values, options) {
    return (await playground()).attend(kind, query, keys, values, options);
  },
  async defaultParams(kind, dq, dk, da) {
    return (await playground()).defaultParams(kind, dq, dk, da);
  },

  async loadModel(name, url) {
    return (await model(name, url)).info();
  },

  // Decodes `text` from the start: greedy steps, except where `forces` ([[step, tokenId], …])
  // says which token to take (the what-if); later steps follow from it.
  async decode(name, url, text, { topK = 5, forces = [] } = {}) {
    const m = await model(name, url);
    const s = m.decode(text, { topK });
    sessions.get(name)?.delete();
    sessions.set(name, s);
    const forced = new Map(forces);
    const steps = [];
    while (!s.done()) {
      const i = s.length();
      steps.push(forced.has(i) ? s.force(forced.get(i)) : s.step());
    }
    return {
      sourceTokens: s.sourceTokens(),
      encoderStates: s.encoderStates(),
      steps,
      output: s.outputTokens(),
      outputText: s.outputText(),
    };
  },

  async beam(name, k) {
    return session(name).beam(k);
  },
  async exportJson(name) {
    return session(name).exportJson();
  },
};

// Synchronously, before anything awaits, so no early message is missed.
Comlink.expose(api);
