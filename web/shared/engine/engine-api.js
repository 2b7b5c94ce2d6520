// What the engine's Worker (worker.js) answers the page: the wasm build's calls, the checkpoints
// loaded into it by name and the decoding sessions the page keeps. Errors thrown here reach the
// caller as rejected promises carrying the same Error: message, code and details (errors.js). The
// node tests call it directly, with the same wasm build.
//
// Each checkpoint is loaded once, when the page first chooses it, and kept. Every decode the page
// wants to come back to (its beams, its export) is a session with an id the page holds; the page
// closes a session when it no longer shows it, so sessions never pile up.
//
// A checkpoint of the Transformer decoder does not load in the page's module (it links none of the
// decoder, to stay small); the module that reads it, named by the refusal's details.module (the
// trainer module), is started then, once, and loads it. Its Model and Session have the same
// methods, so everything below serves both alike.

/**
 * The engine's API over the wasm module `load` makes (once, on the first call that needs it).
 * @param {() => Promise<import('../../../wasm/playground').Playground>} load
 * @param {(() => Promise<import('../../../wasm/playground').Playground>) | null} [loadDecoderModule]
 *   the module with the Transformer decoder (null: this build has none, and its refusal stands)
 * @returns {import('./engine').EngineApi & { openSessions: () => number[] }}
 */
export function createEngineApi(load, loadDecoderModule = null) {
  /** @type {Promise<import('../../../wasm/playground').Playground> | undefined} */
  let loading;
  const playground = () => (loading ??= load());
  /** @type {Promise<import('../../../wasm/playground').Playground> | undefined} */
  let loadingDecoder;

  /** A checkpoint's Model: from the page's module, or from the decoder's module when it names that. */
  async function open(buffer) {
    const bytes = new Uint8Array(buffer);
    try {
      return (await playground()).Model.load(bytes);
    } catch (error) {
      const wanted = /** @type {any} */ (error)?.details?.module;
      if (!loadDecoderModule || /** @type {any} */ (error)?.code !== 'bad_checkpoint' || wanted !== 'trainer')
        throw error;
      return (await (loadingDecoder ??= loadDecoderModule())).Model.load(bytes);
    }
  }

  /** @type {Map<string, import('../../../wasm/playground').Model>} name → Model */
  const models = new Map();
  /** @type {Map<number, import('../../../wasm/playground').Session>} session id → Session */
  const sessions = new Map();
  let lastSession = 0;

  function model(name) {
    const m = models.get(name);
    if (!m) throw new Error(`the model ${name} is not loaded`);
    return m;
  }

  function session(id) {
    const s = sessions.get(id);
    if (!s) throw new Error(`there is no session ${id} (it was closed)`);
    return s;
  }

  return {
    /** The sessions kept (the browser tests check that the page closes those it no longer shows). */
    openSessions: () => [...sessions.keys()],
    async init() {
      const ap = await playground();
      return { isa: ap.simdIsa(), kinds: ap.scoreKinds(), limits: ap.limits() };
    },
    async attend(kind, query, keys, values, options) {
      return (await playground()).attend(kind, query, keys, values, options);
    },
    async defaultParams(kind, dq, dk, da) {
      return (await playground()).defaultParams(kind, dq, dk, da);
    },
    async cosineWeightBound(n, scale) {
      return (await playground()).cosineWeightBound(n, scale);
    },
    async weightDifference(a, b) {
      return (await playground()).weightDifference(a, b);
    },

    // The page fetches the checkpoint and hands its bytes over (transferred, not copied).
    async loadModel(name, buffer) {
      let m = models.get(name);
      if (!m) models.set(name, (m = await open(buffer)));
      return m.info();
    },

    // A model that is not shipped (trained in the page, or a file the person picked): loaded under
    // `name`, replacing a model of that name; the loader's coded error when the bytes are not one.
    async loadBytes(name, buffer) {
      const m = await open(buffer);
      models.get(name)?.delete();
      models.set(name, m);
      return m.info();
    },
    async unloadModel(name) {
      models.get(name)?.delete();
      models.delete(name);
    },

    // Decodes `text` from the start: greedy steps, except where `forces` ([[step, tokenId], …])
    // says which token to take (the what-if); later steps follow from it.
    // masks, unmasks, pins and temperatures ([[step, …], …]) are the other what-ifs, applied by the
    // engine before that step (Session.whatIf), in that order; then a Transformer decoder's head
    // what-ifs ([[step, layer, head, …], …], whatif-link.js's decodeOptions).
    async decode(
      name,
      text,
      {
        topK = 5,
        forces = [],
        masks = [],
        unmasks = [],
        pins = [],
        temperatures = [],
        headMasks = [],
        headUnmasks = [],
        headPins = [],
        headOffs = [],
        headOns = [],
        keep = true,
      } = {},
    ) {
      const m = model(name);
      // A Transformer decoder's records carry each head's q, k and v too: its stages show them.
      const s = m.decode(text, m.info().dims.decoder === 'transformer' ? { topK, qkv: true } : { topK });
      let kept = false;
      try {
        const forced = new Map(forces);
        const steps = [];
        // the engine's confidence over the steps taken so far, after each step: a view at step i
        // shows none of what is still to come (the output has at most limits.maxSteps tokens)
        const confidenceByStep = [];
        while (!s.done()) {
          const i = s.length();
          for (const [at, j] of masks) if (at === i) s.whatIf({ mask: j });
          for (const [at, j] of unmasks) if (at === i) s.whatIf({ unmask: j });
          for (const [at, what] of pins) if (at === i) s.whatIf({ pin: what });
          for (const [at, t] of temperatures) if (at === i) s.whatIf({ temperature: t });
          for (const [at, ...where] of headMasks) if (at === i) s.whatIf({ headMask: where });
          for (const [at, ...where] of headUnmasks) if (at === i) s.whatIf({ headUnmask: where });
          for (const [at, ...where] of headPins) if (at === i) s.whatIf({ headPin: where });
          for (const [at, ...where] of headOffs) if (at === i) s.whatIf({ headOff: where });
          for (const [at, ...where] of headOns) if (at === i) s.whatIf({ headOn: where });
          const token = forced.get(i);
          steps.push(token === undefined ? s.step() : s.force(token));
          confidenceByStep.push(s.confidence());
        }
        /** @type {import('./engine').Decoded} */
        const result = {
          session: null,
          sourceTokens: s.sourceTokens(),
          encoderStates: s.encoderStates(),
          steps,
          output: s.outputTokens(),
          outputText: s.outputText(),
          confidence: s.confidence(),
          confidenceByStep,
        };
        if (keep) {
          const id = ++lastSession;
          sessions.set(id, s);
          result.session = id;
          kept = true;
        }
        return result;
      } finally {
        if (!kept) s.delete();
      }
    },

    async closeSession(id) {
      sessions.get(id)?.delete();
      sessions.delete(id);
    },

    // The transformer encoder's layers for `text` (every stage of every head), and the decoder's
    // cross-attention over them, from a session used only for this answer.
    async selfAttention(name, text) {
      const s = model(name).decode(text, { topK: 1 });
      try {
        const layers = s.selfAttention();
        const steps = s.run();
        return {
          sourceTokens: s.sourceTokens(),
          layers,
          cross: steps.map((step) => ({ token: step.token, weights: step.weights ?? new Float32Array(0) })),
          output: s.outputTokens(),
        };
      } finally {
        s.delete();
      }
    },

    // The engine's trace of `text` through a transformer-encoder model as JSON: the decoder's steps
    // and, under "encoder", every layer's record (the Self-attention view's export).
    async selfAttentionJson(name, text) {
      const s = model(name).decode(text, { topK: 1 });
      try {
        s.run();
        return s.exportJson();
      } finally {
        s.delete();
      }
    },

    // One self-attention row as the engine's Python file (the Self-attention view's export).
    async selfAttentionPython(name, text, layer, head, query) {
      const s = model(name).decode(text, { topK: 1 });
      try {
        return s.reproduceSelfAttention(layer, head, query, name, text);
      } finally {
        s.delete();
      }
    },

    // whatIfs: the decode's form ({masks, unmasks, pins, temperatures}); every beam at step i gets step i's.
    async beam(id, k, whatIfs) {
      return session(id).beam(k, whatIfs);
    },
    async exportJson(id) {
      return session(id).exportJson();
    },
    async reproduce(id, step, name, input) {
      return session(id).reproduce(step, name, input);
    },
  };
}
