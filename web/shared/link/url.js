import { task as taskOf } from '../text/tasks.js';
import { Text, translatorOf } from '../i18n/translate.js';
import linksDict from './strings.js';

const t = translatorOf(linksDict);

// The sandbox in the URL's hash, so a reload or a shared link restores it:
//   #view=sandbox&kind=dot&t=1&q=1,0,1,0&tokens=[["Tom","0.6, 0.2, 0.5, 0.1","1, 0, 0, 1",1],…]
const KINDS = ['dot', 'scaled_dot', 'general', 'additive', 'cosine', 'scaled_cosine'];

/** The sandbox described by `hash`, field by field falling back to `defaults` when absent or malformed. */
export function readUrl(hash, defaults) {
  const params = new URLSearchParams(String(hash).replace(/^#/, ''));
  const out = {
    ...defaults,
    tokens: defaults.tokens.map(({ label, key, value, attend }) => ({ label, key, value, attend })),
  };
  const kind = params.get('kind') ?? '';
  if (KINDS.includes(kind)) out.kind = kind;
  const temperature = Number(params.get('t'));
  if (params.has('t') && temperature > 0 && temperature <= 10) out.temperature = temperature;
  // scaled cosine's g; the engine says so when it is out of its range
  const scale = Number(params.get('g'));
  if (params.get('g') && Number.isFinite(scale)) out.scale = scale;
  if (params.has('q')) out.query = (params.get('q') ?? '').slice(0, 500);
  try {
    const tokens = JSON.parse(params.get('tokens') ?? 'null');
    const valid =
      Array.isArray(tokens) &&
      tokens.length >= 1 &&
      tokens.length <= 8 &&
      tokens.every(
        (t) => Array.isArray(t) && t.length === 4 && t.slice(0, 3).every((s) => typeof s === 'string'),
      );
    if (valid)
      out.tokens = tokens.map(([label, key, value, attend]) => ({
        label,
        key,
        value,
        attend: Boolean(attend),
      }));
  } catch {
    // a hand-edited link with broken JSON: keep the defaults
  }
  return out;
}

export const VIEWS = ['decode', 'compare', 'beam', 'self', 'sandbox', 'train', 'caption', 'length', 'listen'];
const TASKS = ['dates', 'zh', 'reverse'];
const MAX_INPUT = 300;

/**
 * The decoding part of the hash:
 *   #view=decode&task=dates&model=additive-bahdanau&input=29+november+2026&step=3&force=2:17,5:4
 * (model=additive-bahdanau-transformer: the same decoder over the Transformer encoder)
 * The what-ifs (wi=m2@3,p1@4,t0.5@2) are read and written by state/whatif-url.js, through hashParts.
 * Each field falls back to `defaults` when absent or malformed, except the input: without one
 * it is the task's first example (another task's default input would not be valid for it).
 * What was malformed goes into `notes`, each saying what the link asked for and what is shown
 * instead (the page shows them: a hand-edited link is never silently replaced).
 * @param {string} hash
 * @param {any} defaults
 * @param {(string | import('../i18n/translate.js').Text)[]} [notes]
 */
export function readDecodeUrl(hash, defaults, notes = []) {
  const params = new URLSearchParams(String(hash).replace(/^#/, ''));
  const out = { ...defaults, forces: [...defaults.forces] };
  const quote = (text) => `“${String(text).slice(0, 40)}${String(text).length > 40 ? '…' : ''}”`;
  const view = params.get('view') ?? '';
  if (VIEWS.includes(view)) out.view = view;
  else if (params.has('view'))
    notes.push(new Text(linksDict, 'noView', { view: quote(view), shown: t(out.view) }));
  const task = params.get('task') ?? '';
  if (TASKS.includes(task)) out.task = task;
  else if (params.has('task'))
    notes.push(
      new Text(linksDict, 'noTask', {
        task: quote(task),
        tasks: TASKS.join(', '),
        shown: taskOf(out.task).label,
      }),
    );
  const model =
    /^(dot|scaled_dot|general|additive|cosine|scaled_cosine|location|none)-(bahdanau|luong)(-transformer)?$/.exec(
      params.get('model') ?? '',
    );
  if (model) [out.score, out.style, out.encoder] = [model[1], model[2], model[3] ? 'transformer' : 'gru'];
  else if (params.has('model'))
    notes.push(
      new Text(linksDict, 'noModel', {
        model: quote(params.get('model')),
        shown: `${out.score}-${out.style}`,
      }),
    );
  if (params.has('input')) {
    const input = params.get('input') ?? '';
    out.input = input.slice(0, MAX_INPUT);
    if (input.length > MAX_INPUT) notes.push(new Text(linksDict, 'inputCut', { n: MAX_INPUT }));
  } else if (out.task !== defaults.task) out.input = taskOf(out.task).examples[0];
  const step = Number(params.get('step'));
  // A step past the end is known only once decoded: the decode clamps it and says so.
  if (params.has('step') && Number.isInteger(step) && step >= 0) out.step = Math.min(step, 1e6);
  else if (params.has('step'))
    notes.push(new Text(linksDict, 'badStep', { step: quote(params.get('step')) }));
  if (params.has('force')) {
    const pairs = (params.get('force') ?? '').split(',').filter((pair) => pair !== '');
    const forces = pairs
      .map((pair) => pair.split(':').map(Number))
      .filter((p) => p.length === 2 && p.every((x) => Number.isInteger(x) && x >= 0));
    out.forces = forces.slice(0, 100);
    if (forces.length < pairs.length)
      notes.push(
        new Text(linksDict, out.forces.length ? 'badForcesKept' : 'badForcesGreedy', {
          force: quote(params.get('force')),
        }),
      );
  }
  if (params.has('reveal')) out.reveal = params.get('reveal') === '1';
  // The self-attention view's layer.head.token ("1.2.3"), each from 0.
  const sa = (params.get('sa') ?? '').split('.').map(Number);
  if (sa.length === 3 && sa.every((x) => Number.isInteger(x) && x >= 0 && x < 1000)) out.selfAttention = sa;
  const beam = Number(params.get('k'));
  if (params.has('k') && Number.isInteger(beam) && beam >= 1 && beam <= 8) out.beamWidth = beam;
  else if (params.has('k'))
    notes.push(new Text(linksDict, 'badBeam', { k: quote(params.get('k')), n: out.beamWidth }));
  return out;
}

// The views that decode the chosen task's input with the chosen model: their links name both
// even when they are the defaults, so such a link reads plainly.
const DECODING_VIEWS = ['decode', 'compare', 'beam', 'self'];

/**
 * Writes the page's state into the hash. A field is written only when it differs from what the
 * reader falls back to without it (readUrl, readDecodeUrl), or when the view shows it: a link of the
 * Decode view carries no Sandbox vectors nobody edited. Omitting a default changes nothing on
 * reading, so every link, old or new, opens the same state.
 * @param {any} sandbox the Sandbox's fields and the view
 * @param {any} decode the decoding fields
 * @param {{ decode: any, sandbox: any }} [defaults] what the page starts from without a link
 */
export function writeUrl({ view, kind, temperature, scale = null, query, tokens }, decode, defaults) {
  const params = new URLSearchParams({ view });
  if (decode) {
    const base = defaults?.decode;
    const decoding = DECODING_VIEWS.includes(view) || !base;
    const model = `${decode.score}-${decode.style}${decode.encoder === 'transformer' ? '-transformer' : ''}`;
    const baseModel =
      base && `${base.score}-${base.style}${base.encoder === 'transformer' ? '-transformer' : ''}`;
    // without an input the reader takes the task's first example, unless the task is the default's
    const fallbackInput = base && (decode.task === base.task ? base.input : taskOf(decode.task).examples[0]);
    if (decoding || decode.task !== base.task) params.set('task', decode.task);
    if (decoding || model !== baseModel) params.set('model', model);
    if (decoding || decode.input !== fallbackInput) params.set('input', decode.input);
    if (!base || decode.step !== base.step) params.set('step', String(decode.step));
    if (decode.forces.length) params.set('force', decode.forces.map((f) => f.join(':')).join(','));
    if (!base || view === 'beam' || decode.beamWidth !== base.beamWidth)
      params.set('k', String(decode.beamWidth));
    if (decode.reveal) params.set('reveal', '1');
    if (view === 'self' && decode.selfAttention) params.set('sa', decode.selfAttention.join('.'));
    for (const [name, value, fallback] of decode.caption ?? [])
      if (value !== fallback) params.set(name, value);
  }
  const box = defaults?.sandbox;
  const tokensText = (list) => JSON.stringify(list.map((t) => [t.label, t.key, t.value, t.attend ? 1 : 0]));
  if (!box || kind !== box.kind) params.set('kind', kind);
  if (!box || temperature !== box.temperature) params.set('t', String(temperature));
  if (scale !== null) params.set('g', String(scale));
  if (!box || query !== box.query) params.set('q', query);
  if (!box || tokensText(tokens) !== tokensText(box.tokens)) params.set('tokens', tokensText(tokens));
  for (const part of hashParts)
    for (const [key, value, fallback] of part()) if (value !== fallback) params.set(key, value);
  scheduleHash(`#${params}`);
}

/**
 * Other features' fields of the hash (the Train view's configuration, Listen's utterance…): each
 * gives [key, value] pairs, or [key, value, fallback] where `fallback` is what the feature reads
 * without the field (the field is then left out while it holds that value).
 */
export const hashParts = /** @type {(() => LinkField[])[]} */ ([]);

/** @typedef {[string, string] | [string, string, string]} LinkField */

// history.replaceState costs Chromium from under 1 ms to ~10 ms (it waits on the browser
// process, which is busy right after a frame): up to a step's whole budget. So the hash is
// written once the person has stopped for URL_DELAY ms, after the step's frame has been painted:
// a burst of steps (play, a held arrow key, quick clicks) writes only its last state. Copy link
// and leaving the page write it at once.
export const URL_DELAY = 250;
let pendingHash = null;
let timer = 0;
function scheduleHash(hash) {
  pendingHash = hash;
  clearTimeout(timer);
  timer = setTimeout(flushUrl, URL_DELAY);
}

// A view's code, and the state that reads the view's fields from the link, load when the view
// first opens. Until they have come no writer knows those fields, so a hash written meanwhile
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
    if (!viewsLoading && pendingHash !== null) {
      // the view, now shown, writes its own fields before this timer fires
      clearTimeout(timer);
      timer = setTimeout(flushUrl, URL_DELAY);
    }
  };
  loading.then(release, release);
  return loading;
}

/** Writes a pending hash now (before the address is read, e.g. by Copy link). */
export function flushUrl() {
  clearTimeout(timer);
  if (pendingHash === null || viewsLoading) return;
  if (pendingHash !== location.hash) history.replaceState(null, '', pendingHash);
  pendingHash = null;
}

if (typeof window !== 'undefined') {
  // A hash the person typed or followed wins over a write still waiting (main.js then reloads
  // the page from it; the pagehide flush must not put the old state back).
  window.addEventListener('hashchange', () => {
    clearTimeout(timer);
    pendingHash = null;
  });
  window.addEventListener('pagehide', flushUrl);
}
