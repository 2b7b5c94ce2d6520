// The Caption view's state: the image module's Worker (started only when the view first opens),
// the scene models, the composed scene (or an uploaded image) and the engine's caption of it, and
// the step shown. Every number shown comes from an engine answer; the page only moves the scene's
// description and draws.
import * as Comlink from 'comlink';
import { checkpoints } from './checkpoints.js';
import { readError } from '../lib/errors.js';
import { SCORES } from '../lib/tasks.js';
import { defaultScene, describeScene, freeSpot, readScene, writeScene } from '../caption/scene.js';

/** @typedef {import('../caption/caption').CaptionApi} CaptionApi */
/** @typedef {import('../caption/caption').Captioned} Captioned */
/** @typedef {import('../caption/scene.js').SceneObject} SceneObject */

const TASK = 'scenes';
const params = new URLSearchParams(typeof location === 'undefined' ? '' : location.hash.replace(/^#/, ''));

const rank = (score) => (SCORES.includes(score) ? SCORES.indexOf(score) : SCORES.length);

/** The scene models this build ships, by score function: "scenes-additive-bahdanau" → "additive". */
export const sceneModels = Object.keys(checkpoints)
  .map((name) => ({ name, score: new RegExp(`^${TASK}-(\\w+)-bahdanau$`).exec(name)?.[1] ?? '' }))
  .filter((m) => m.score)
  // in the order of the other views' keys 1–5 (dot, scaled dot, general, additive, cosine), others after
  .sort((a, b) => rank(a.score) - rank(b.score) || a.score.localeCompare(b.score));

const linkedScore = params.get('cap') ?? '';
const DEFAULT_SCORE =
  (sceneModels.find((m) => m.score === 'additive') ?? sceneModels[0])?.score ?? 'additive';
const linkedStep = Number(params.get('cstep'));

export const caption = $state({
  /** @type {'closed' | 'loading' | 'ready' | 'failed'} the image module's Worker */
  status: 'closed',
  error: '',
  /** @type {import('../caption/scene.js').SceneVocabulary | null} */
  vocab: null,
  /** @type {{ maxUploadSide: number, maxUploadBytes: number } | null} the engine's, for uploads */
  limits: null,
  /** @type {Record<string, { status: 'loading' | 'ready' | 'failed', info: any, error: string }>} */
  models: {},
  /** a scenes model trained in the Train view (its name), shown instead of a shipped one; '' for none */
  trained: '',
  /** the score function of the model shown */
  score: sceneModels.some((m) => m.score === linkedScore) ? linkedScore : DEFAULT_SCORE,
  /** whether every score function's caption of the scene is shown side by side */
  compare: params.get('ccmp') === '1',
  /** @type {SceneObject[]} */
  objects: [],
  /** the object being edited (its panel open, its outline drawn), or -1 */
  selected: 0,
  /** @type {{ name: string, width: number, height: number } | null} an uploaded image shown instead of the scene */
  upload: null,
  /** the last upload's problem, for the person */
  uploadError: '',
  /** @type {Record<string, Captioned>} model name → the engine's caption of what is shown */
  results: {},
  /** @type {import('../caption/caption').Captions['scene']} the engine's scene of the results (null: an upload) */
  scene: null,
  /** what the results shown were asked for: the scene (as in the link) or "upload:" and the file's name */
  shownKey: '',
  /** @type {'idle' | 'running' | 'ready' | 'error'} */
  run: 'idle',
  runError: '',
  /** the step (caption word) shown */
  step: Number.isInteger(linkedStep) && linkedStep >= 0 ? linkedStep : 0,
  playing: false,
  /** @type {string[]} what the link asked for that the view cannot show */
  notes: [],
});

export const modelName = (score) => `${TASK}-${score}-bahdanau`;
export const currentName = () => caption.trained || modelName(caption.score);

/** The bytes of the scenes models the Train view opened here, by name (read by loadSceneModel). */
const trainedBytes = new Map();

/**
 * Shows a scenes model trained in the Train view (its .safetensors bytes) instead of a shipped one.
 * @param {string} name a name unique to this model
 * @param {string} score its score function (the formulas and labels are its own)
 * @param {Uint8Array} bytes
 */
export function openTrainedScene(name, score, bytes) {
  trainedBytes.set(name, bytes);
  caption.trained = name;
  if (SCORES.includes(score)) caption.score = score;
  caption.compare = false;
  requestCaption();
}
export const currentResult = () => caption.results[currentName()] ?? null;

/** @type {Comlink.Remote<CaptionApi> | null} */
let remote = null;
// The upload's pixels, kept out of the reactive state (they go to the Worker as they are).
/** @type {import('../caption/caption').ImageInput | null} */
let uploadPixels = null;
/** @type {Worker | null} */
let worker = null;

/** Starts the image module's Worker (once): only the Caption view calls it, when it opens. */
export async function openCaption() {
  if (remote) return;
  caption.status = 'loading';
  worker = new Worker(new URL('../caption/worker.js', import.meta.url), { type: 'module', name: 'imaging' });
  remote = Comlink.wrap(worker);
  /** @type {Promise<never>} */
  const failed = new Promise((_, reject) =>
    worker?.addEventListener('error', (event) => {
      event.preventDefault();
      reject(new Error(event.message || 'the image worker failed to start'));
    }),
  );
  try {
    const info = await Promise.race([remote.init(), failed]);
    caption.vocab = info.scene;
    caption.limits = info.limits;
    const notes = [];
    const linked = params.has('scene') ? readScene(params.get('scene') ?? '', info.scene, notes) : null;
    caption.notes = notes;
    caption.objects = linked ?? defaultScene(info.scene);
    caption.status = 'ready';
  } catch (error) {
    caption.status = 'failed';
    caption.error = readError(error).message;
    return;
  }
  requestCaption();
}

/** Loads a scene model into the Worker once (its checkpoint fetched when first needed). */
async function loadSceneModel(name) {
  const known = caption.models[name];
  if (known) return;
  caption.models[name] = { status: 'loading', info: null, error: '' };
  try {
    const held = trainedBytes.get(name);
    const url = checkpoints[name];
    if (!held && !url) throw new Error(`there is no checkpoint ${name}.safetensors in this build`);
    const response = held ? null : await fetch(new URL(url, document.baseURI));
    if (response && !response.ok)
      throw new Error(`the server answered ${response.status} ${response.statusText}`.trim());
    // a copy of a trained model's bytes: the transfer detaches what it sends
    const bytes = held ? held.slice().buffer : await /** @type {Response} */ (response).arrayBuffer();
    const info = await /** @type {Comlink.Remote<CaptionApi>} */ (remote).loadModel(
      name,
      Comlink.transfer(bytes, [bytes]),
    );
    caption.models[name] = { status: 'ready', info, error: '' };
  } catch (error) {
    caption.models[name] = { status: 'failed', info: null, error: `${name}: ${readError(error).message}` };
  }
}

/** The models the view shows: the chosen one, and with compare every shipped one. */
const wanted = () => (caption.compare ? sceneModels.map((m) => m.name) : [currentName()]);

// One caption request in flight at a time. A drag asks on every pointer move: while the engine
// answers one move the later ones collapse into a single follow-up request of the newest scene,
// so the captions keep up with the pointer instead of queueing behind it.
let inFlight = false;
let again = false;

export function requestCaption() {
  if (caption.status !== 'ready') return;
  if (inFlight) {
    again = true;
    return;
  }
  void askEngine();
}

async function askEngine() {
  inFlight = true;
  again = false;
  const names = wanted();
  const upload = caption.upload;
  /** @type {import('../caption/caption').CaptionInput} */
  const input =
    upload && uploadPixels ? { image: uploadPixels } : { description: describeScene(caption.objects) };
  const key = upload ? `upload:${upload.name}` : writeScene(caption.objects);
  caption.run = 'running';
  try {
    await Promise.all(names.map(loadSceneModel));
    const ready = names.filter((n) => caption.models[n]?.status === 'ready');
    if (!ready.length) throw new Error(caption.models[names[0]]?.error || 'no scene model loaded');
    const answer = await /** @type {Comlink.Remote<CaptionApi>} */ (remote).caption(ready, input, {
      topK: 5,
    });
    caption.results = answer.models;
    caption.scene = answer.scene;
    caption.run = 'ready';
    caption.runError = '';
    const steps = answer.models[currentName()]?.steps.length ?? 0;
    caption.step = Math.max(0, Math.min(caption.step, steps - 1));
    caption.shownKey = key;
  } catch (error) {
    caption.run = 'error';
    caption.runError = readError(error).message;
  } finally {
    inFlight = false;
    if (again) requestCaption();
  }
}

export function setScore(score) {
  if (!sceneModels.some((m) => m.score === score) || (caption.score === score && !caption.trained)) return;
  caption.trained = '';
  caption.score = score;
  if (!caption.results[currentName()]) requestCaption();
}

export function setCompare(on) {
  caption.compare = on;
  if (on) requestCaption();
}

export function goTo(step) {
  const last = (currentResult()?.steps.length ?? 1) - 1;
  caption.step = Math.max(0, Math.min(step, last));
}

export function togglePlay() {
  const last = (currentResult()?.steps.length ?? 1) - 1;
  if (!caption.playing && caption.step >= last) goTo(0);
  caption.playing = !caption.playing;
}

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
 * @param {{ name: string, width: number, height: number, pixels: import('../caption/caption').ImageInput }} upload
 */
export function showUpload({ name, width, height, pixels }) {
  uploadPixels = pixels;
  caption.upload = { name, width, height };
  caption.uploadError = '';
  caption.step = 0;
  requestCaption();
}

export function uploadFailed(message) {
  caption.uploadError = message;
}

/** The view's part of the link: model, step, compare and the scene (an upload is not in it). */
export function captionLink() {
  if (caption.status !== 'ready') {
    // the link's own until the engine could read it
    return [...params].filter(([k]) => ['cap', 'cstep', 'ccmp', 'scene'].includes(k));
  }
  // each with what the state reads without it: a field at that value is left out of the link
  /** @type {import('./url.js').LinkField[]} */
  const out = [
    ['cap', caption.score, DEFAULT_SCORE],
    ['cstep', String(caption.step), '0'],
  ];
  if (caption.compare) out.push(['ccmp', '1']);
  const fallback = caption.vocab ? writeScene(defaultScene(caption.vocab)) : '';
  out.push(['scene', writeScene(caption.objects), fallback]);
  return out;
}
