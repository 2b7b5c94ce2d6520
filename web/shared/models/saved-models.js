// Trained models kept in this browser (IndexedDB through idb-keyval): an index of what each one is
// (its name, task, score function, style, the step it was taken at, its held-out exact match) and
// each model's .safetensors bytes under its own key, read only when the model is opened.
import { createStore, del, get, set, update } from 'idb-keyval';

/**
 * @typedef {{ id: string, label: string, task: string, score: string, style: string,
 *   encoder: string, decoder?: string, step: number | null, heldoutExactMatch: number | null,
 *   bytes: number, created: number, origin: 'trained' | 'file', diverged?: boolean, digest?: string }} SavedModel
 * label: an English name kept for the record; the page writes a model's name from the other
 * fields (describe.js), in the language shown; digest: the SHA-256 of the bytes in hex, by which
 * the same model is kept once (entries kept before it was recorded have none)
 */

/** @type {ReturnType<typeof createStore> | undefined} */
let db;
const store = () => (db ??= createStore('attention-playground', 'trained-models'));
const INDEX = 'index';
const bytesKey = (id) => `bytes:${id}`;

/**
 * An entry of the index that cannot be listed: where it is in the index, its id when it has one,
 * and what is wrong with it (a field's name, or `entry` when it is not an object at all).
 * @typedef {{ position: number, id: string | null, problem: 'entry' | 'duplicate' | string }} DamagedEntry
 */

// (a file's metadata may leave its task, score or style empty: the file is still a model)
const isText = (v) => typeof v === 'string' && v.length <= 300;
const isName = (v) => isText(v) && v.length > 0;
const isCount = (v) => Number.isFinite(v) && v >= 0;
/** Each field of a kept model and what it must hold; the first that does not is the problem. */
const FIELDS = {
  id: isName,
  label: isText,
  task: isText,
  score: isText,
  style: isText,
  encoder: isText,
  decoder: (v) => v === undefined || isText(v),
  step: (v) => v === null || (Number.isInteger(v) && v >= 0),
  heldoutExactMatch: (v) => v === null || (Number.isFinite(v) && v >= 0 && v <= 1),
  bytes: isCount,
  created: isCount,
  origin: (v) => v === 'trained' || v === 'file',
  diverged: (v) => v === undefined || typeof v === 'boolean',
  digest: (v) => v === undefined || (typeof v === 'string' && /^[0-9a-f]{64}$/.test(v)),
};

/**
 * The index read entry by entry, in one pass: the entries that are whole kept models (the first
 * of any two with one id), and the others set aside with what is wrong, so one damaged entry
 * (written by an older page, another tab, or by hand) does not take the list down with it.
 * @param {unknown} list the index as stored
 * @returns {{ models: SavedModel[], damaged: DamagedEntry[] }}
 */
export function readIndex(list) {
  const models = [];
  const damaged = [];
  const seen = new Set();
  if (!Array.isArray(list)) return { models, damaged };
  list.forEach((entry, position) => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      damaged.push({ position, id: null, problem: 'entry' });
      return;
    }
    const id = isName(entry.id) ? entry.id : null;
    const bad = Object.keys(FIELDS).find((field) => !FIELDS[field](entry[field]));
    if (bad) damaged.push({ position, id, problem: bad });
    else if (seen.has(id)) damaged.push({ position, id, problem: 'duplicate' });
    else {
      seen.add(id);
      models.push(/** @type {SavedModel} */ (entry));
    }
  });
  return { models, damaged };
}

/** The saved models, oldest first, and the index's damaged entries (none where IndexedDB is not available). */
export async function listSaved() {
  if (typeof indexedDB === 'undefined') return readIndex([]);
  return readIndex(await get(INDEX, store()));
}

/**
 * Removes a damaged entry from the index: the line at `position` if it is still the one that was
 * read there (another tab may have changed the index since), and the bytes under its id unless a
 * listed model has that id (a duplicate's bytes are the listed model's).
 * @param {DamagedEntry} entry
 */
export async function removeDamaged(entry) {
  let keepBytes = true;
  await update(
    INDEX,
    (list) => {
      if (!Array.isArray(list)) return [];
      const now = readIndex(list).damaged.find((d) => d.position === entry.position);
      if (!now || now.id !== entry.id || now.problem !== entry.problem) return list;
      const rest = list.filter((_, i) => i !== entry.position);
      keepBytes = entry.id === null || readIndex(rest).models.some((m) => m.id === entry.id);
      return rest;
    },
    store(),
  );
  if (!keepBytes) await del(bytesKey(entry.id), store());
}

/**
 * Keeps a model: its bytes first, then its line in the index (a failure half-way leaves no line
 * without bytes). A model kept already keeps its place in the list, with the line given.
 * @param {SavedModel} meta
 * @param {Uint8Array} bytes
 */
export async function saveModel(meta, bytes) {
  await set(bytesKey(meta.id), bytes, store());
  await update(
    INDEX,
    (list) => {
      const lines = Array.isArray(list) ? list : [];
      return lines.some((m) => m?.id === meta.id)
        ? lines.map((m) => (m?.id === meta.id ? meta : m))
        : [...lines, meta];
    },
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
  await update(INDEX, (list) => (Array.isArray(list) ? list : []).filter((m) => m?.id !== id), store());
  await del(bytesKey(id), store());
}

/** Removes every damaged entry from the index, and the bytes of ids that no listed model has. */
export async function removeAllDamaged() {
  /** @type {string[]} */
  let orphans = [];
  await update(
    INDEX,
    (list) => {
      const { models, damaged } = readIndex(list);
      const listed = new Set(models.map((m) => m.id));
      const ids = damaged.flatMap((d) => (d.id === null || listed.has(d.id) ? [] : [d.id]));
      orphans = [...new Set(ids)];
      return models;
    },
    store(),
  );
  for (const id of orphans) await del(bytesKey(id), store());
}
