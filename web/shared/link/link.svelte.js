// The page's state in the address's hash (history.replaceState), so a reload or a shared link
// opens the same state. Each feature declares its fields (declareLink): the key, the parser of its
// text (the one its controls use, which says what it did with a bad value), how it is written and
// what the state holds without it. This module alone reads the hash into the states and writes
// the states into the hash; a field left out of the link reads as its fallback, so every link,
// old or new, opens the same state.
import { noteLink } from './notes.svelte.js';

/** @typedef {string | import('../i18n/translate.js').Text} Note */
/**
 * What a parser makes of a field's text: the value the state takes, and for a text that is not
 * one of the field's values a note saying what the link asked for and what is shown instead.
 * @template T
 * @typedef {{ value: T, note?: Note | Note[] }} Parsed
 */
/**
 * One field of the link. Its parser gets the field's text and what the state takes without it
 * (a bad text keeps that, and its note says so). `earlier` holds the values of the fields before it in the same pass
 * (read from a link, or the states' own when writing): a fallback may follow them (without an
 * input, a task's own first example).
 * @template T
 * @typedef {{
 *   key: string,
 *   get: () => T,
 *   set: (value: T) => void,
 *   parse: (text: string, fallback: T) => Parsed<T>,
 *   format?: (value: T) => string,
 *   fallback?: (earlier: Record<string, any>) => T,
 *   written?: (earlier: Record<string, any>) => 'always' | 'never' | 'changed',
 * }} LinkField
 */
/** @typedef {LinkField<any> & { group: string, rank: number }} Declared */

// The order of the link's groups, so a link reads the same whichever feature loaded first: what
// view, then what the text views decode, then each view's own fields. A group not named here
// comes after these, in the order declared.
const ORDER = [
  'view',
  'text',
  'self',
  'sandbox',
  'lang',
  'whatif',
  'beam',
  'trained',
  'tour',
  'length',
  'caption',
  'listen',
  'train',
];

/** @type {Declared[]} in the link's order */
const fields = [];
/** @type {Map<string, (params: URLSearchParams, notes: Note[]) => void>} group → its check after a read */
const afterReads = new Map();
/** a feature declared fields: the hash written from the states changes with them */
const declared = $state({ count: 0 });
/** the hash the page opened with: a feature whose code comes later reads its fields from it */
let opened = /** @type {string | null} */ (null);

const text = (/** @type {Declared} */ f, value) => (f.format ? f.format(value) : String(value));

/**
 * Declares a feature's fields of the link. When the page has opened already (a view's code that
 * came later), the fields are read at once from the address the page opened with.
 * @param {string} group the feature's name, for ORDER and for reading one feature's fields
 * @param {LinkField<any>[]} list
 * @param {{ afterRead?: (params: URLSearchParams, notes: Note[]) => void }} [options] a check
 *   once the group's fields are read (the text views: a model that is not shipped)
 */
export function declareLink(group, list, { afterRead } = {}) {
  const rank = ORDER.includes(group) ? ORDER.indexOf(group) : ORDER.length + afterReads.size;
  for (const field of list) {
    const start = $state.snapshot(field.get());
    fields.push({ fallback: () => start, ...field, group, rank });
  }
  fields.sort((a, b) => a.rank - b.rank);
  if (afterRead) afterReads.set(group, afterRead);
  declared.count++;
  if (opened !== null) for (const note of readLink(opened, { groups: [group] })) noteLink(note);
}

/**
 * Reads `hash` into the states: a field in it through its parser, a field left out as its
 * fallback. Only the fields of `groups` when given (the tour sets a stop's part of the page).
 * @param {string} hash
 * @param {{ groups?: string[] }} [options]
 * @returns {Note[]} what the link asked for that the page cannot show, each with what it shows instead
 */
export function readLink(hash, { groups } = {}) {
  const params = new URLSearchParams(String(hash).replace(/^#/, ''));
  /** @type {Note[]} */
  const notes = [];
  const earlier = {};
  const chosen = fields.filter((f) => !groups || groups.includes(f.group));
  for (const f of chosen) {
    const fallback = /** @type {any} */ (f.fallback)(earlier);
    const parsed = params.has(f.key) ? f.parse(params.get(f.key) ?? '', fallback) : { value: fallback };
    if (parsed.note) notes.push(...[parsed.note].flat());
    f.set(parsed.value);
    earlier[f.key] = parsed.value;
  }
  for (const group of new Set(chosen.map((f) => f.group))) afterReads.get(group)?.(params, notes);
  return notes;
}

/**
 * The values `hash` gives the fields of `groups`, without setting them (a tour stop's state, to
 * compare with the page's).
 * @param {string} hash
 * @param {string[]} groups
 * @returns {Record<string, any>}
 */
export function linkValues(hash, groups) {
  const params = new URLSearchParams(String(hash).replace(/^#/, ''));
  const values = {};
  for (const f of fields.filter((f) => groups.includes(f.group))) {
    const fallback = /** @type {any} */ (f.fallback)(values);
    values[f.key] = params.has(f.key) ? f.parse(params.get(f.key) ?? '', fallback).value : fallback;
  }
  return values;
}

/**
 * The hash of the states now: each field whose value differs from its fallback, and those its
 * feature always writes (the view; the decoding views' task, model and input, so such a link
 * reads plainly). Read in an effect, it follows every field.
 */
export function linkHash() {
  void declared.count;
  const params = new URLSearchParams();
  const earlier = {};
  for (const f of fields) {
    const value = f.get();
    earlier[f.key] = value;
    const how = f.written?.(earlier) ?? 'changed';
    if (how === 'never') continue;
    const written = text(f, value);
    if (how === 'always' || written !== text(f, /** @type {any} */ (f.fallback)(earlier)))
      params.set(f.key, written);
  }
  return `#${params}`;
}

// ---- writing the address ----

/** @type {{ replace: (hash: string) => void, current: () => string }} */
let address = { replace() {}, current: () => '' };

/**
 * The page opens from `hash` (main.js, once every feature loaded with the page has declared its
 * fields): the states take the link's values, its notes are shown, and from now on the hash is
 * written through `replace` (`current` reads it back).
 * @param {string} hash
 * @param {{ replace: (hash: string) => void, current: () => string }} io
 */
export function openLink(hash, io) {
  opened = hash;
  address = io;
  known = io.current();
  for (const note of readLink(hash)) noteLink(note);
}

// history.replaceState costs Chromium from under 1 ms to ~10 ms (it waits on the browser
// process, which is busy right after a frame): up to a step's whole budget. So the hash is
// written URL_DELAY ms after a change, after the step's frame has been painted: a burst of steps
// (play, a held arrow key, quick clicks) writes at most once every URL_DELAY ms, its last state
// last. The delay runs from the burst's first change, not its latest: a state that changes all
// the time (a run training, a chart filling in) must not hold the address back for good, where a
// reload would open an older state. Copy link and leaving the page write it at once.
export const URL_DELAY = 250;
let pending = /** @type {string | null} */ (null);
let timer = /** @type {any} */ (0);
// The hash as the page last read or wrote it. An address that differs from it when a write is due
// was changed by someone else (a link followed, the address edited): its hashchange is on its way
// (main.js then reloads from it), and the write would put the old state back over it. A timer can
// fire between the new hash and that event, which is how a busy machine lost a followed link.
let known = '';

/** Writes the states' hash soon (an effect in App calls it: it follows every field). */
export function syncLink() {
  pending = linkHash();
  timer ||= setTimeout(flushLink, URL_DELAY);
}

// A view's code, and the state that reads the view's fields from the link, load when the view
// first opens. Until they have come no field of theirs is declared, so a hash written meanwhile
// would drop them: from the address, and from the view, whose state reads the address when its
// code arrives (on a slow network or a busy machine that is after the first write). So while a
// view's code is on its way the hash is not written, and a write waiting then happens after.
let viewsLoading = 0;

/**
 * Holds the hash as it is until `loading` (a view's dynamic import) settles.
 * @template T
 * @param {Promise<T>} loading
 * @returns {Promise<T>}
 */
export function keepLinkWhile(loading) {
  viewsLoading++;
  const release = () => {
    viewsLoading--;
    if (!viewsLoading && pending !== null) {
      // the view, now shown, declared its fields: the hash is made again, with them
      clearTimeout(timer);
      timer = setTimeout(() => {
        pending = linkHash();
        flushLink();
      }, URL_DELAY);
    }
  };
  loading.then(release, release);
  return loading;
}

/** Writes a pending hash now (before the address is read, e.g. by Copy link, or as the page is left). */
export function flushLink() {
  clearTimeout(timer);
  timer = 0;
  if (pending === null || viewsLoading) return;
  const now = address.current();
  if (now !== known) {
    known = now;
    pending = null;
    return;
  }
  if (pending !== now) address.replace(pending);
  known = address.current();
  pending = null;
}

/** A hash the person typed or followed wins over a write still waiting (main.js then reloads from it). */
export function dropPendingLink() {
  clearTimeout(timer);
  timer = 0;
  pending = null;
}
