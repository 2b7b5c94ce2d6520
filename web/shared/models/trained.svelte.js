// Models that are not shipped: those trained in the Train view (kept in this browser, or only
// held in memory for the snapshots under the scrub slider) and .safetensors files the person
// loaded. Each gets an engine name, its bytes are registered with the engine state (loaded into
// the engine Worker by Model.load when first chosen), and the model choice lists the saved ones
// beside the shipped models.
import { errorText, readError } from '../lib/errors.js';
import { choice, chooseModel } from '../text/choice.svelte.js';
import { stepper } from '../text/decode.svelte.js';
import { page } from '../view.svelte.js';
import { engine, engineApi, loadEngine, models, modelSources } from '../engine/engine.svelte.js';
import {
  deleteSaved,
  listSaved,
  removeAllDamaged,
  removeDamaged,
  saveModel,
  savedBytes,
} from './saved-models.js';
import { declareLink } from '../link/link.svelte.js';
import { noteLink } from '../link/notes.svelte.js';
import { Text } from '../i18n/translate.js';
import linksDict from '../link/strings.js';
import modelsDict from './strings.js';
import { savedFacts, savedName } from './describe.js';

export const saved = $state({
  /** @type {'loading' | 'ready' | 'unavailable'} */
  status: 'loading',
  /** @type {import('./saved-models.js').SavedModel[]} */
  list: [],
  /** entries of the browser's index that are not whole models, set aside to be removed */
  /** @type {import('./saved-models.js').DamagedEntry[]} */
  damaged: [],
  /** @type {string | Text} the last file load's or save's problem, in the engine's words */
  error: '',
  /** @type {string | Text} */
  notice: '',
});

const register = (id) =>
  modelSources.set(id, () =>
    savedBytes(id).then((b) => b ?? Promise.reject(new Error('its bytes are gone from this browser'))),
  );

// The link may name a saved model (trained=…): it is chosen once the list is read.
let linked = '';
declareLink('trained', [
  {
    key: 'trained',
    get: () => choice.trained,
    set: (id) => {
      choice.trained = '';
      linked = id;
      if (saved.status !== 'loading') chooseLinked();
    },
    parse: (text) => ({ value: text }),
    fallback: () => '',
  },
]);

function chooseLinked() {
  const id = linked;
  linked = '';
  if (!id) return;
  const m = saved.list.find((s) => s.id === id);
  if (m) chooseTrained(m);
  else if (!modelSources.has(id)) noteLink(new Text(linksDict, 'noTrained', { model: id }));
}

export async function refreshSaved() {
  try {
    const { models, damaged } = await listSaved();
    for (const m of models) register(m.id);
    saved.list = models;
    saved.damaged = damaged;
    saved.status = 'ready';
  } catch (error) {
    saved.status = 'unavailable';
    saved.error = new Text(modelsDict, 'cannotKeep', { message: error?.message ?? error });
  }
}

/** @type {Promise<void> | null} */
let first = null;
/** Reads the models kept in this browser (main.js, once the link is read) and chooses the link's. */
export function readSaved() {
  first ??= refreshSaved().then(chooseLinked);
  return first;
}

/** A name for a new model, unique in this browser. */
export const newModelId = (base) =>
  `${base}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/**
 * Registers bytes under an engine name that is held only in memory (a snapshot under the slider).
 * @param {string} name
 * @param {Uint8Array} bytes
 */
export function holdModel(name, bytes) {
  if (!modelSources.has(name)) modelSources.set(name, () => bytes);
}

/**
 * Makes the model `name` the one decoded (Decode, Compare, Beam), with its score function and style
 * so the formulas are its own.
 * @param {{ id: string, task: string, score: string, style: string, encoder?: string }} m
 * @param {{ input?: string, view?: import('../view.svelte.js').View }} [options]
 */
export function chooseTrained(m, { input, view } = {}) {
  chooseModel(m);
  if (input) choice.input = input;
  stepper.step = 0;
  if (view) page.view = view;
}

/**
 * The SHA-256 of a model's bytes in hex: a model is known by its content, so the file of a model
 * kept here, downloaded and loaded back, is the same model and not a second entry.
 * @param {Uint8Array} bytes
 */
export async function contentDigest(bytes) {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', /** @type {BufferSource} */ (bytes)));
  return Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The kept entry whose bytes are these (by their digest), or undefined. An entry kept before
 * digests were recorded gets its digest here, from its bytes, once: it is written back with it,
 * so the bytes of an old entry are read at most once.
 * @param {string} digest
 */
async function keptByDigest(digest) {
  const known = saved.list.find((m) => m.digest === digest);
  if (known) return known;
  for (const old of saved.list.filter((m) => m.digest === undefined)) {
    const bytes = await savedBytes(old.id);
    if (!bytes) continue;
    const entry = { ...old, digest: await contentDigest(bytes) };
    await saveModel(entry, bytes);
    saved.list = saved.list.map((m) => (m.id === entry.id ? entry : m));
    if (entry.digest === digest) return entry;
  }
  return undefined;
}

/**
 * Keeps a model in this browser and lists it, unless a model with the same bytes is kept already.
 * @param {import('./saved-models.js').SavedModel} meta
 * @param {Uint8Array} bytes
 * @returns {Promise<import('./saved-models.js').SavedModel | null>} the entry that holds the model
 *   (this one, or the one kept before), null when it could not be kept
 */
export async function keepModel(meta, bytes) {
  try {
    const digest = await contentDigest(bytes);
    // (an old entry that cannot be read back is not this one: keeping goes on)
    const before = await keptByDigest(digest).catch(() => undefined);
    if (before) return before;
    const entry = { ...meta, digest };
    await saveModel(entry, bytes);
    register(entry.id);
    saved.list = [...saved.list.filter((m) => m.id !== entry.id), entry];
    saved.error = '';
    return entry;
  } catch (error) {
    saved.error = new Text(modelsDict, 'notKeptError', { message: error?.message ?? error });
    return null;
  }
}

/**
 * Removes a damaged entry (or all of them) from the browser's index, then reads the index again.
 * @param {import('./saved-models.js').DamagedEntry | 'all'} entry
 */
export async function removeDamagedEntry(entry) {
  try {
    await (entry === 'all' ? removeAllDamaged() : removeDamaged(entry));
  } catch (error) {
    saved.error = new Text(modelsDict, 'notRemoved', { message: error?.message ?? error });
  }
  await refreshSaved();
}

export async function forgetModel(id) {
  await deleteSaved(id);
  saved.list = saved.list.filter((m) => m.id !== id);
  modelSources.delete(id);
  delete models[id];
  if (choice.trained === id) choice.trained = '';
  engineApi()
    .unloadModel(id)
    .catch(() => {});
}

/** The saved model's bytes as a .safetensors download. */
export async function downloadModel(id) {
  const bytes = await savedBytes(id);
  if (!bytes) throw new Error('its bytes are gone from this browser');
  downloadBytes(`${id}.safetensors`, bytes);
}

/** @param {string} fileName @param {Uint8Array} bytes */
export function downloadBytes(fileName, bytes) {
  const url = URL.createObjectURL(
    new Blob([/** @type {BlobPart} */ (bytes)], { type: 'application/octet-stream' }),
  );
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * A .safetensors file the person picked or dropped: validated by the engine's loader (its message
 * shown when it refuses), then kept and listed.
 * @param {File} file
 */
export async function loadFile(file) {
  saved.error = '';
  saved.notice = '';
  await loadEngine();
  const limit = engine.limits?.maxFileBytes;
  if (limit && file.size > limit) {
    saved.error = new Text(modelsDict, 'tooBig', {
      file: file.name,
      size: file.size.toLocaleString('en'),
      limit: limit.toLocaleString('en'),
    });
    return null;
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  // A model kept here already (the download of a kept run, loaded back) is chosen, not listed twice.
  const digest = await contentDigest(bytes);
  const before = await keptByDigest(digest).catch(() => undefined);
  if (before) {
    saved.notice = new Text(modelsDict, 'alreadyKept', { file: file.name, name: savedName(before) });
    return before;
  }
  const id = newModelId(
    file.name
      .replace(/\.safetensors$/i, '')
      .replace(/[^A-Za-z0-9_.-]+/g, '-')
      .slice(0, 40) || 'file',
  );
  try {
    const info = await engineApi().loadBytes(id, bytes.slice().buffer);
    const meta = {
      id,
      label: file.name,
      task: String(info.task ?? ''),
      score: String(info.score ?? ''),
      style: String(info.style ?? ''),
      encoder: String(info.dims?.encoder ?? 'gru'),
      step: null,
      heldoutExactMatch: info.heldoutExactMatch ?? null,
      bytes: bytes.length,
      created: Date.now(),
      origin: /** @type {const} */ ('file'),
    };
    models[id] = { status: 'ready', info, error: '' };
    const kept = await keepModel(meta, bytes);
    if (kept) saved.notice = new Text(modelsDict, 'loaded', { file: file.name, facts: savedFacts(kept) });
    return kept ?? meta;
  } catch (error) {
    saved.error = new Text(modelsDict, 'notAModel', {
      file: file.name,
      message: errorText(readError(error)),
    });
    return null;
  }
}
