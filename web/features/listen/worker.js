// The Listen view's module Worker: the audio module (the speech task's synthesizer, the audio
// encoder and the GRU decoder over its positions; wasm/audio/audio.d.ts) runs here, so making and
// decoding an utterance never blocks the page's thread. The page creates this Worker only when the
// Listen view opens; the module's code and .wasm are fetched then, not on the first page load.
// Errors reach the page with their code and details (../engine/errors.js).
//
// Every answer is plain data: the utterance (frames, letter spans, the rendered sound) and, per
// model, its encoder states and one step record per letter written.
import * as Comlink from 'comlink';
import { carryErrorCodes } from '../../shared/engine/errors.js';
import { moduleModels } from '../../shared/engine/module-worker.js';
import { audioLoader } from './module.js';

carryErrorCodes();

const {
  module: audio,
  model,
  load,
} = moduleModels(
  /** @type {(() => Promise<import('../../../wasm/audio/audio').AudioModule>) | null} */ (audioLoader()),
  'the audio engine is not part of this build',
  (au, bytes) => au.AudioModel.load(bytes),
);

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
  loadModel: load,

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
