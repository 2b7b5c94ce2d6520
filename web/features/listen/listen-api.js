// What the Listen view's module Worker (worker.js) answers: the audio module's synthesizer, and
// its models (the audio encoder and the GRU decoder over its positions; wasm/audio/audio.d.ts)
// loaded by name. Errors reach the page with their code and details (shared/engine/errors.js);
// the node tests call it directly, with the same wasm build.
//
// Every answer is plain data: the utterance (frames, letter spans, the rendered sound) and, per
// model, its encoder states and one step record per letter written.
import * as Comlink from 'comlink';
import { moduleModels, reproduceStep } from '../../shared/engine/module-worker.js';

/**
 * The Worker's API over the module `loader` starts (null: the build has none, and every call says so).
 * @param {(() => Promise<import('../../../wasm/audio/audio').AudioModule>) | null} loader
 */
export function createListenApi(loader) {
  const {
    module: audio,
    model,
    load,
  } = moduleModels(loader, 'the audio engine is not part of this build', (au, bytes) =>
    au.AudioModel.load(bytes),
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
  return {
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

    async reproduce(name, input, step) {
      const utterance = (await audio()).synthesize(input);
      return reproduceStep(model(name).listen(utterance.frames, {}), step, name, utterance.text);
    },
  };
}
