// The Caption view's state: the image module's Worker (started only when the view first opens),
// the scene models, the composed scene (or an uploaded image) and the engine's caption of it, and
// the step shown. Every number shown comes from an engine answer; the page only moves the scene's
// description and draws.
import { declareLink } from '../../shared/link/link.svelte.js';
import {
  moduleEngine,
  moduleFields,
  moduleLinkFields,
  shippedModels,
} from '../../shared/stepping/module-engine.svelte.js';
import { Stepper } from '../../shared/stepping/stepper.svelte.js';
import { defaultScene, describeScene, freeSpot, readScene, writeScene } from './scene.js';

/** @typedef {import('./caption').CaptionApi} CaptionApi */
/** @typedef {import('./caption').Captioned} Captioned */
/** @typedef {import('./scene.js').SceneObject} SceneObject */

/** The scene models this build ships, by score function: "scenes-additive-bahdanau" → "additive". */
// in the order of the other views' keys 1–5 (dot, scaled dot, general, additive, cosine), others after
export const sceneModels = shippedModels('scenes');

export const caption = $state({
  .../** @type {import('../../shared/stepping/module-engine.svelte.js').ModuleState<Captioned>} */ (
    moduleFields(sceneModels, false)
  ),
  /** @type {import('./scene.js').SceneVocabulary | null} */
  vocab: null,
  /** @type {{ maxUploadSide: number, maxUploadBytes: number } | null} the engine's, for uploads */
  limits: null,
  /** @type {SceneObject[]} */
  objects: [],
  /** the object being edited (its panel open, its outline drawn), or -1 */
  selected: 0,
  /** @type {{ name: string, width: number, height: number } | null} an uploaded image shown instead of the scene */
  upload: null,
  /** the last upload's problem, for the person */
  uploadError: '',
  /** @type {import('./caption').Captions['scene']} the engine's scene of the results (null: an upload) */
  scene: null,
  /** why the last request failed */
  runError: '',
  /** @type {string[]} what the link asked for that the view cannot show */
  notes: [],
});

/** The step shown of the current model's caption. */
export const stepper = new Stepper(() => currentResult()?.steps.length ?? 0);

// The link's scene (scene=…) is read once the image module has said which objects there are.
let linkedScene = /** @type {string | null} */ (null);

// The upload's pixels, kept out of the reactive state (they go to the Worker as they are).
/** @type {import('./caption').ImageInput | null} */
let uploadPixels = null;

const engine = moduleEngine(caption, stepper, {
  task: 'scenes',
  models: sceneModels,
  worker: () => new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'imaging' }),
  workerFailed: 'the image worker failed to start',
  init(info) {
    caption.vocab = info.scene;
    caption.limits = info.limits;
    const notes = [];
    const linked = linkedScene !== null ? readScene(linkedScene, info.scene, notes) : null;
    linkedScene = null;
    caption.notes = notes;
    caption.objects = linked ?? defaultScene(info.scene);
  },
  compareWhileTrained: true,
  noModel: 'no scene model loaded',
  question: () => ({
    // the scene (as in the link) or "upload:" and the file's name
    key: caption.upload ? `upload:${caption.upload.name}` : writeScene(caption.objects),
    /** @type {import('./caption').CaptionInput} */
    input:
      caption.upload && uploadPixels
        ? { image: uploadPixels }
        : { description: describeScene(caption.objects) },
  }),
  ask: (remote, names, input) =>
    /** @type {import('comlink').Remote<CaptionApi>} */ (remote).caption(names, input, { topK: 5 }),
  shown(answer) {
    caption.scene = answer.scene;
    caption.runError = '';
  },
  failed(failure) {
    caption.runError = failure.message;
  },
});

export const {
  modelName,
  currentName,
  currentResult,
  setScore,
  setCompare,
  request: requestCaption,
  /** Starts the image module's Worker (once): only the Caption view calls it, when it opens. */
  open: openCaption,
  /** Shows a scenes model trained in the Train view (its .safetensors bytes) instead of a shipped one. */
  openTrained: openTrainedScene,
  /** The step shown as the engine's Python file that recomputes it with NumPy. */
  stepPython,
} = engine;

// The centre of an object of this size, kept where its box stays inside the image (the engine
// refuses a scene whose object leaves it).
function inside(v, size) {
  const n = caption.vocab?.imageSize ?? 32;
  const r = caption.vocab?.radius[size] ?? 0;
  return Math.max(r, Math.min(n - 1 - r, Math.round(v)));
}

/** Moves object `i` to (x, y) in the input's pixels (kept inside the image) and re-captions. */
export function moveObject(i, x, y) {
  const o = caption.objects[i];
  if (!o) return;
  const nx = inside(x, o.size);
  const ny = inside(y, o.size);
  if (nx === o.x && ny === o.y) return;
  o.x = nx;
  o.y = ny;
  requestCaption();
}

/** Sets the shape, colour or size of object `i`. */
export function editObject(i, field, value) {
  const o = caption.objects[i];
  if (!o || o[field] === value) return;
  o[field] = value;
  o.x = inside(o.x, o.size);
  o.y = inside(o.y, o.size);
  requestCaption();
}

export function addObject() {
  const vocab = caption.vocab;
  if (!vocab || caption.objects.length >= vocab.maxObjects) return;
  const used = new Set(caption.objects.map((o) => o.shape));
  const shape = vocab.shapes.find((s) => !used.has(s)) ?? vocab.shapes[0];
  const color = vocab.colors[(caption.objects.length * 3 + 1) % vocab.colors.length];
  const spot = freeSpot(caption.objects, vocab.imageSize);
  const size = vocab.sizes[0];
  caption.objects.push({ shape, color, size, x: inside(spot.x, size), y: inside(spot.y, size) });
  caption.selected = caption.objects.length - 1;
  backToScene();
}

export function removeObject(i) {
  if (caption.objects.length <= 1) return;
  caption.objects.splice(i, 1);
  caption.selected = Math.min(caption.selected, caption.objects.length - 1);
  requestCaption();
}

/** Leaves an uploaded image for the composed scene again. */
export function backToScene() {
  caption.upload = null;
  uploadPixels = null;
  caption.uploadError = '';
  requestCaption();
}

/**
 * Captions an uploaded image (its pixels as ../caption/upload.js read them; the engine scales them).
 * @param {{ name: string, width: number, height: number, pixels: import('./caption').ImageInput }} upload
 */
export function showUpload({ name, width, height, pixels }) {
  uploadPixels = pixels;
  caption.upload = { name, width, height };
  caption.uploadError = '';
  stepper.step = 0;
  requestCaption();
}

export function uploadFailed(message) {
  caption.uploadError = message;
}

// The view's part of the link: model, step, compare and the scene (an upload is not in it). The
// scene is the link's own until the engine could read it.
declareLink('caption', [
  ...moduleLinkFields(caption, stepper, { score: 'cap', step: 'cstep', compare: 'ccmp' }, sceneModels, false),
  {
    key: 'scene',
    get: () => (caption.vocab ? writeScene(caption.objects) : (linkedScene ?? '')),
    set: (text) => (linkedScene = text || null),
    parse: (text) => ({ value: text }),
    fallback: () => (caption.vocab ? writeScene(defaultScene(caption.vocab)) : ''),
  },
]);
