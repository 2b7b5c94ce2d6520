// The Caption view's state: the image module's Worker (started only when the view first opens),
// the scene models, the composed scene (or an uploaded image) and the engine's caption of it, and
// the step shown. Every number shown comes from an engine answer; the page only moves the scene's
// description and draws.
import { declareLink } from '../../shared/link/link.svelte.js';
import { noteLink } from '../../shared/link/notes.svelte.js';
import { quote } from '../../shared/link/parse.js';
import { Text } from '../../shared/i18n/translate.js';
import captionDict from './strings.js';
import {
  moduleEngine,
  moduleFields,
  moduleLinkFields,
  shippedModels,
} from '../../shared/stepping/module-engine.svelte.js';
import { Stepper } from '../../shared/stepping/stepper.svelte.js';
import {
  defaultScene,
  describeScene,
  freeSpot,
  insideImage,
  nearestFree,
  overlapsOther,
  readScene,
  writeScene,
} from './scene.js';

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
    // the link's scene is checked once the engine has said which objects there are: its notes go
    // with the other link values' (a link's text is checked as it is read, this one a moment later)
    const notes = [];
    const linked = linkedScene !== null ? readScene(linkedScene, info.scene, notes) : null;
    caption.objects = linked ?? defaultScene(info.scene);
    if (linkedScene !== null && !linked)
      notes.push(
        new Text(captionDict, 'noScene', {
          scene: quote(linkedScene),
          shown: describeScene(caption.objects),
        }),
      );
    linkedScene = null;
    for (const note of notes) noteLink(note);
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

// The image module's words and sizes, or a stand-in until it has said them.
const sceneVocab = () =>
  caption.vocab ?? { shapes: [], colors: [], sizes: [], radius: {}, imageSize: 32, maxObjects: 0 };
const inside = (v, size) => insideImage(v, size, sceneVocab());
const overlaps = (i, size, x, y) => overlapsOther(caption.objects, i, size, x, y, sceneVocab());

// The furthest free centre on the straight way from object `i`'s centre to (x, y), one pixel at a
// time: a drag stops at another object's edge instead of going over it.
function freeTowards(i, x, y) {
  const o = caption.objects[i];
  const n = Math.max(Math.abs(x - o.x), Math.abs(y - o.y));
  let free = { x: o.x, y: o.y };
  for (let k = 1; k <= n; k++) {
    const px = Math.round(o.x + ((x - o.x) * k) / n);
    const py = Math.round(o.y + ((y - o.y) * k) / n);
    if (overlaps(i, o.size, px, py)) break;
    free = { x: px, y: py };
  }
  return free;
}

// The free centre for object `i` at `size` nearest (x, y), or (x, y) itself when no place is: a
// grown or added object moves off the others.
const freeNear = (i, size, x, y) => nearestFree(caption.objects, i, size, x, y, sceneVocab()) ?? { x, y };

/**
 * Moves object `i` towards (x, y) in the input's pixels (kept inside the image and off the other
 * objects: blocked, it slides along their edge) and re-captions. An object that already overlaps
 * one (grown where no free place was left) moves freely, so it can be dragged apart.
 */
export function moveObject(i, x, y) {
  const o = caption.objects[i];
  if (!o) return;
  let nx = inside(x, o.size);
  let ny = inside(y, o.size);
  if (!overlaps(i, o.size, o.x, o.y) && overlaps(i, o.size, nx, ny)) {
    const ways = [freeTowards(i, nx, ny), freeTowards(i, nx, o.y), freeTowards(i, o.x, ny)];
    const gone = (p) => Math.abs(p.x - o.x) + Math.abs(p.y - o.y);
    ({ x: nx, y: ny } = ways.reduce((best, p) => (gone(p) > gone(best) ? p : best)));
  }
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
  // a larger size may reach another object: the nearest place where it covers none
  ({ x: o.x, y: o.y } = freeNear(i, o.size, inside(o.x, o.size), inside(o.y, o.size)));
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
  const at = freeNear(-1, size, inside(spot.x, size), inside(spot.y, size));
  caption.objects.push({ shape, color, size, ...at });
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
