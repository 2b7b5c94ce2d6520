// The Listen view's module Worker: the audio module (the speech task's synthesizer, the audio
// encoder and the GRU decoder over its positions; wasm/audio/audio.d.ts) runs here, so making and
// decoding an utterance never blocks the page's thread. The page creates this Worker only when the
// Listen view opens; the module's code and .wasm are fetched then, not on the first page load.
// Errors reach the page with their code and details (../engine/errors.js).
//
// Every answer is plain data: the utterance (frames, letter spans, the rendered sound) and, per
// model, its encoder states and one step record per letter written.
import * as Comlink from 'comlink';
import { carryErrorCodes } from '../engine/errors.js';
import { audioLoader } from './module.js';

carryErrorCodes();

/** @type {Promise<import('../../wasm/audio/audio').AudioModule> | undefined} */
let loading;
function audio() {
  const load = audioLoader();
  if (!load)
    throw Object.assign(new Error('the audio engine is not part of this build'), { code: 'bad_state' });
  return (loading ??= load());
}

/** @type {Map<string, import('../../wasm/audio/audio').AudioModel>} name → model */
const models = new Map();

function model(name) {
  const m = models.get(name);
  if (!m) throw Object.assign(new Error(`the model ${name} is not loaded`), { code: 'bad_state' });
  return m;
}

// A session's whole transcript, greedy; the session is deleted, the page keeps the plain data.
function transcribe(m, utterance, topK) {
  const s = m.listen(utterance.frames, { topK });
  try {
    const steps = s.run();
    return {
      annotations: s.encoderStates(),
      reduction: s.reduction(),
      steps,
      output: s.outputTokens(),
      outputText: s.outputText(),
    };
  } finally {
    s.delete();
  }
}

/** @type {import('./listen').ListenApi} */
const api = {
  async init() {
    const au = await audio();
    return { lexicon: au.lexicon(), limits: au.limits() };
  },

  // The page fetches the checkpoint and hands its bytes over (transferred, not copied).
  async loadModel(name, buffer) {
    const au = await audio();
    const m = models.get(name) ?? au.AudioModel.load(new Uint8Array(buffer));
    models.set(name, m);
    return m.info();
  },

  async listen(names, input, { topK = 5 } = {}) {
    const au = await audio();
    const utterance = au.synthesize(input);
    const limits = au.limits();
    const pcm = au.renderAudio(utterance.frames, limits.sampleRate);
    /** @type {import('./listen').Listening} */
    const out = {
      utterance: {
        text: utterance.text,
        frames: utterance.frames,
        spans: utterance.spans,
        pcm,
        sampleRate: limits.sampleRate,
        samplesPerFrame: limits.samplesPerFrame,
      },
      models: {},
    };
    for (const name of names) out.models[name] = transcribe(model(name), utterance, topK);
    return Comlink.transfer(out, [pcm.buffer]);
  },
};

// Synchronously, before anything awaits, so no early message is missed.
Comlink.expose(api);
