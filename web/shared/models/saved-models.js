// Trained models kept in this browser (IndexedDB through idb-keyval): an index of what each one is
// (its name, task, score function, style, the step it was taken at, its held-out exact match) and
// each model's .safetensors bytes under its own key, read only when the model is opened.
import { createStore, del, get, set, update } from 'idb-keyval';

/**
 * @typedef {{ id: string, label: string, task: string, score: string, style: string,
 *   encoder: string, decoder?: string, step: number | null, heldoutExactMatch: number | null,
 *   bytes: number, created: number, origin: 'trained' | 'file', diverged?: boolean }} SavedModel
 * label: an English name kept for the record; the page writes a model's name from the other
 * fields (describe.js), in the language shown
 */

/** @type {ReturnType<typeof createStore> | undefined} */
let db;
const store = () => (db ??= createStore('attention-playground', 'trained-models'));
const INDEX = 'index';
const bytesKey = (id) => `bytes:${id}`;

/** The saved models, oldest first ([] where IndexedDB is not available). */
export async function listSaved() {
  if (typeof indexedDB === 'undefined') return [];
  /** @type {SavedModel[] | undefined} */
  const list = await get(INDEX, store());
  return Array.isArray(list) ? list : [];
}

/**
 * Keeps a model: its bytes first, then its line in the index (a failure half-way leaves no line
 * without bytes).
 * @param {SavedModel} meta
 * @param {Uint8Array} bytes
 */
export async function saveModel(meta, bytes) {
  await set(bytesKey(meta.id), bytes, store());
  await update(
    INDEX,
    (list) => [...(Array.isArray(list) ? list : []).filter((m) => m.id !== meta.id), meta],
    store(),
  );
}

/** The bytes of a saved model, or null when there are none. */
export async function savedBytes(id) {
  const bytes = await get(bytesKey(id), store());
  return bytes instanceof Uint8Array ? bytes : null;
}

/** Forgets a saved model: its line first, then its bytes. */
export async function deleteSaved(id) {
  await update(INDEX, (list) => (Array.isArray(list) ? list : []).filter((m) => m.id !== id), store());
  await del(bytesKey(id), store());
}
