// The engine's module Worker: loads the wasm build once and answers the page through Comlink, so
// the page's thread never blocks on the engine. Errors thrown here (the C++ messages) reach the
// caller as rejected promises carrying the same Error message.
//
// Trained models (issue 4's API, wasm/model_bindings.cpp): each checkpoint is loaded once, when
// the page first chooses it, and kept; each model keeps its latest decoding session, so the
// page can ask for that session's beams or exports afterwards.
import * as Comlink from 'comlink';
import createPlayground from '@engine/playground.js';

let loading;
const playground = () => (loading ??= createPlayground());

/** name → Model */
const models = new Map();
/** name → the latest Session of that model */
const sessions = new Map();

function model(name) {
  const m = models.get(name);
  if (!m) throw new Error(`the model ${name} is not loaded`);
  return m;
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
  async weightDifference(a, b) {
    return (await playground()).weightDifference(a, b);
  },

  // The page fetches the checkpoint and hands its bytes over (transferred, not copied).
  async loadModel(name, buffer) {
    const ap = await playground();
    if (!ap.Model) throw new Error('this engine build has no trained-model API yet');
    if (!models.has(name)) models.set(name, ap.Model.load(new Uint8Array(buffer)));
    return models.get(name).info();
  },

  // Decodes `text` from the start: greedy steps, except where `forces` ([[step, tokenId], …])
  // says which token to take (the what-if); later steps follow from it.
  async decode(name, text, { topK = 5, forces = [] } = {}) {
    const s = model(name).decode(text, { topK });
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

  // The transformer encoder's layers for `text` (every stage of every head), and the decoder's
  // cross-attention over them, from a session of its own (the model's latest session is kept).
  async selfAttention(name, text) {
    const s = model(name).decode(text, { topK: 1 });
    try {
      const layers = s.selfAttention();
      const steps = s.run();
      return {
        sourceTokens: s.sourceTokens(),
        layers,
        cross: steps.map((step) => ({ token: step.token, weights: step.weights })),
        output: s.outputTokens(),
      };
    } finally {
      s.delete();
    }
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
