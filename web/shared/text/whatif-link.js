// The decode's what-ifs in the URL's hash, one field `wi`, items joined by commas, each
// <kind><argument>@<step> with steps and source positions counted from 0 (as step= and force=):
//   m2@3          mask source token 2 from step 3 on (the softmax over the rest)
//   u2@5          take that mask back from step 5 on
//   p1@4          pin step 4's attention one-hot on source token 1
//   p1/3/0@4      pin step 4's attention to these weights (the engine divides them by their sum)
//   t0.5@2        the attention temperature τ = 0.5 from step 2 on
// and, for a Transformer decoder, on one cross-attention head (layer.head, from 0):
//   hm1.2.0@3     mask source token 0 for layer 1's head 2 from step 3 on (hu: take it back)
//   hp1.2.0@4     pin that head's weights one-hot on token 0 at step 4 (hp1.2.1/3/0@4: these weights)
//   ho1.2@3       switch that head off (its output 0) from step 3 on (hn: back on)
// e.g. #view=decode&…&wi=m2@3,p1@4,t0.5@2. The page keeps no other form: the reader gives the
// items in the order written, and the writer writes them back in that order. whatif.svelte.js
// declares the field.
import { float32Text } from '../lib/format.js';

/**
 * @typedef {{ kind: 'mask' | 'unmask', step: number, token: number }
 *   | { kind: 'pin', step: number, token: number }
 *   | { kind: 'pin', step: number, weights: number[] }
 *   | { kind: 'temperature', step: number, tau: number }
 *   | HeadWhatIf} WhatIf
 * @typedef {{ kind: 'headMask' | 'headUnmask', step: number, layer: number, head: number, token: number }
 *   | { kind: 'headPin', step: number, layer: number, head: number, token: number }
 *   | { kind: 'headPin', step: number, layer: number, head: number, weights: number[] }
 *   | { kind: 'headOff' | 'headOn', step: number, layer: number, head: number }} HeadWhatIf
 */

/** The most items a link may carry: far more than a person sets by hand. */
export const MAX_WHATIFS = 200;
const MAX_STEP = 1e6;
const MAX_TOKEN = 1e4;
const MAX_WEIGHTS = 1000;
/** Layers and heads as large as a link may name (the engine refuses those past its model's). */
const MAX_HEAD = 63;
const LETTERS = { m: 'mask', u: 'unmask', p: 'pin', t: 'temperature' };
const HEAD_LETTERS = { m: 'headMask', u: 'headUnmask', p: 'headPin', o: 'headOff', n: 'headOn' };
const HEAD_WRITTEN = Object.fromEntries(Object.entries(HEAD_LETTERS).map(([letter, kind]) => [kind, letter]));
const index = (text) => (/^\d{1,7}$/.test(text) ? Number(text) : NaN);
const NUMBER = /^\d*\.?\d+(e[+-]?\d+)?$/i;

/** "1/3/0" → [1, 3, 0], or null unless they are finite, ≥ 0 and not all 0. */
function readWeights(argument) {
  const parts = argument.split('/');
  if (parts.length > MAX_WEIGHTS) return null;
  const weights = parts.map((p) => (NUMBER.test(p) ? Number(p) : NaN));
  return weights.every((w) => Number.isFinite(w) && w >= 0) && weights.some((w) => w > 0) ? weights : null;
}

/** A head what-if (h…), or null. */
function parseHeadWhatIf(text) {
  const match = /^h([mupon])(\d{1,2})\.(\d{1,2})(?:\.([^@]*))?@(\d+)$/.exec(text);
  if (!match) return null;
  const [, letter, layerText, headText, argument, stepText] = match;
  const [layer, head, step] = [Number(layerText), Number(headText), index(stepText)];
  if (layer > MAX_HEAD || head > MAX_HEAD || !(step <= MAX_STEP)) return null;
  const kind = HEAD_LETTERS[letter];
  if (kind === 'headOff' || kind === 'headOn')
    return argument === undefined ? { kind, step, layer, head } : null;
  if (argument === undefined) return null;
  if (kind === 'headPin' && argument.includes('/')) {
    const weights = readWeights(argument);
    return weights ? { kind, step, layer, head, weights } : null;
  }
  const token = index(argument);
  return token <= MAX_TOKEN ? /** @type {HeadWhatIf} */ ({ kind, step, layer, head, token }) : null;
}

/**
 * One item of the field, or null when it is not one of the forms above. The ranges the engine
 * knows (a source position past the input, τ outside limits()) are its to refuse.
 * @returns {WhatIf | null}
 */
export function parseWhatIf(text) {
  if (text.startsWith('h')) return parseHeadWhatIf(text);
  const match = /^([mupt])([^@]*)@(\d+)$/.exec(text);
  if (!match) return null;
  const [, letter, argument, stepText] = match;
  const step = index(stepText);
  if (!(step <= MAX_STEP)) return null;
  const kind = LETTERS[letter];
  if (kind === 'temperature') {
    const tau = NUMBER.test(argument) ? Number(argument) : NaN;
    return tau > 0 && Number.isFinite(tau) ? { kind, step, tau } : null;
  }
  if (kind === 'pin' && argument.includes('/')) {
    const weights = readWeights(argument);
    return weights ? { kind, step, weights } : null;
  }
  const token = index(argument);
  if (!(token <= MAX_TOKEN)) return null;
  return /** @type {WhatIf} */ ({ kind, step, token });
}

/** One item as the link writes it. */
export function formatWhatIf(/** @type {WhatIf} */ w) {
  if ('layer' in w) {
    const where = `h${HEAD_WRITTEN[w.kind]}${w.layer}.${w.head}`;
    if (w.kind === 'headOff' || w.kind === 'headOn') return `${where}@${w.step}`;
    return `${where}.${'weights' in w ? w.weights.join('/') : 'token' in w ? w.token : ''}@${w.step}`;
  }
  // τ as the engine holds it (a float32): its limit 1e-3 is t0.001, not t0.0010000000474974513
  if (w.kind === 'temperature') return `t${float32Text(w.tau)}@${w.step}`;
  if ('weights' in w) return `p${w.weights.join('/')}@${w.step}`;
  return `${w.kind === 'mask' ? 'm' : w.kind === 'unmask' ? 'u' : 'p'}${w.token}@${w.step}`;
}

/** The field's value for `items` ('' for none: the field is then left out). */
export const writeWhatIfs = (/** @type {WhatIf[]} */ items) => items.map(formatWhatIf).join(',');

/**
 * The field's what-ifs (none for an empty field). A malformed item is left out and a note says
 * which, in `say`'s words (the page's translator; English by default).
 * @template {string | { toString(): string }} [N=string]
 * @param {string} field
 * @param {(key: 'linkBadItems' | 'linkBadItemsAll' | 'linkTooMany', params: Record<string, string | number>) => N} [say]
 * @returns {{ value: WhatIf[], note?: N[] }}
 */
export function parseWhatIfs(field, say = /** @type {any} */ (englishNote)) {
  const texts = field.split(',').filter((t) => t !== '');
  const items = [];
  const bad = [];
  const notes = [];
  for (const text of texts) {
    const item = parseWhatIf(text.trim());
    if (item) items.push(item);
    else bad.push(text);
  }
  if (bad.length) {
    const list = bad
      .slice(0, 3)
      .map((b) => `“${b.slice(0, 30)}”`)
      .join(', ');
    notes.push(
      say(items.length ? 'linkBadItems' : 'linkBadItemsAll', { items: list + (bad.length > 3 ? ', …' : '') }),
    );
  }
  if (items.length > MAX_WHATIFS) {
    notes.push(say('linkTooMany', { count: items.length, max: MAX_WHATIFS }));
    items.length = MAX_WHATIFS;
  }
  return notes.length ? { value: items, note: notes } : { value: items };
}

/**
 * The what-ifs of a whole hash's `wi` field (none without one), the notes into `notes`.
 * @param {string} hash
 * @template {string | { toString(): string }} [N=string]
 * @param {N[]} [notes]
 * @param {(key: 'linkBadItems' | 'linkBadItemsAll' | 'linkTooMany', params: Record<string, string | number>) => N} [say]
 * @returns {WhatIf[]}
 */
export function readWhatIfUrl(hash, notes = [], say = /** @type {any} */ (englishNote)) {
  const field = new URLSearchParams(String(hash).replace(/^#/, '')).get('wi') ?? '';
  const { value, note } = parseWhatIfs(field, say);
  notes.push(...(note ?? []));
  return value;
}

function englishNote(key, params) {
  if (key === 'linkTooMany')
    return `The link has ${params.count} what-ifs; the first ${params.max} are kept.`;
  const form = `of the form m2@3, u2@5, p1@4, p1/3/0@4, t0.5@2, hm1.2.0@3, hp1.2.0@4 or ho1.2@3 (${params.items})`;
  return key === 'linkBadItems'
    ? `Some what-ifs in the link are not ${form}; the others are kept.`
    : `The what-ifs in the link are not ${form}; decoding without what-ifs.`;
}

/**
 * What the engine Worker's decode takes for `items` (web/shared/engine/engine-api.js applies each
 * before its step, masks first, then unmasks, the pin and the temperature, then the head what-ifs),
 * and Session.beam too (playground.d.ts's BeamWhatIfs). The head what-ifs come only when there are
 * some and `heads` (the model has a Transformer decoder): a GRU decoder has no heads to name.
 * @param {WhatIf[]} items
 */
export function decodeOptions(items, heads = true) {
  const masks = [];
  const unmasks = [];
  const pins = [];
  const temperatures = [];
  /** @type {Record<string, any[]>} */
  const perHead = { headMasks: [], headUnmasks: [], headPins: [], headOffs: [], headOns: [] };
  for (const w of items) {
    if (w.kind === 'mask') masks.push([w.step, w.token]);
    else if (w.kind === 'unmask') unmasks.push([w.step, w.token]);
    else if (w.kind === 'pin') pins.push([w.step, 'weights' in w ? [...w.weights] : w.token]);
    else if (w.kind === 'temperature') temperatures.push([w.step, w.tau]);
    else if (w.kind === 'headOff' || w.kind === 'headOn')
      perHead[`${w.kind}s`].push([w.step, w.layer, w.head]);
    else if ('layer' in w)
      perHead[`${w.kind}s`].push([
        w.step,
        w.layer,
        w.head,
        'weights' in w ? [...w.weights] : 'token' in w ? w.token : 0,
      ]);
  }
  const some = heads ? Object.entries(perHead).filter(([, list]) => list.length) : [];
  return { masks, unmasks, pins, temperatures, ...Object.fromEntries(some) };
}
