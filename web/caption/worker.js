// The Caption view's module Worker: the image module (the conv encoder and the GRU decoder over its
// grid) runs here, so encoding a scene never blocks the page's thread. The page creates this
// Worker only when the Caption view opens; the module's code and .wasm are fetched then, not on the
// first page load. Errors reach the page with their code and details (../engine/errors.js).
//
// Every answer is plain data: the scene's pixels as the engine drew them (or the uploaded image as
// the engine received it), the grid's annotation vectors and one step record per caption word.
import * as Comlink from 'comlink';
import { carryErrorCodes } from '../engine/errors.js';
import { imagingLoader } from './module.js';

carryErrorCodes();

/** @type {Promise<any> | undefined} */
let loading;
function imaging() {
  const load = imagingLoader();
  if (!load)
    throw Object.assign(new Error('The image engine is not part of this build.'), { code: 'bad_state' });
  return (loading ??= load());
}

/** @type {Map<string, any>} name → the module's model */
const models = new Map();

function model(name) {
  const m = models.get(name);
  if (!m) throw Object.assign(new Error(`the model ${name} is not loaded`), { code: 'bad_state' });
  return m;
}

// A session's whole caption, greedy, then the session is deleted: the page keeps the plain data.
function captionOf(m, input, topK) {
  const s = m.caption(input, { topK });
  try {
    const steps = s.run();
    const image = s.image();
    return {
      image: { data: image.data, width: image.width, height: image.height, channels: image.channels ?? 3 },
      grid: s.grid(),
      annotations: s.annotations(),
      steps,
      output: s.outputTokens(),
      outputText: s.outputText(),
    };
  } finally {
    s.delete();
  }
}

/** @type {import('./caption').CaptionApi} */
const api = {
  async init() {
    const im = await imaging();
    return { isa: im.simdIsa(), scene: im.sceneVocabulary(), limits: im.limits() };
  },

  // The page fetches the checkpoint and hands its bytes over (transferred, not copied).
  async loadModel(name, buffer) {
    const im = await imaging();
    let m = models.get(name);
    if (!m) models.set(name, (m = im.CaptionModel.load(new Uint8Array(buffer))));
    return m.info();
  },

  // One scene (a description the engine draws, or an image's pixels) through each named model.
  async caption(names, input, { topK = 5 } = {}) {
    await imaging();
    const out = {};
    for (const name of names) out[name] = captionOf(model(name), input, topK);
    return out;
  },

  async render(scene) {
    const im = await imaging();
    return im.renderScene(scene);
  },
};

// Synchronously, before anything awaits, so no early message is missed.
Comlink.expose(api);
