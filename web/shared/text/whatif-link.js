// The decode's what-ifs in the URL's hash, one field `wi`, items joined by commas, each
// <kind><argument>@<step> with steps and source positions counted from 0 (as step= and force=):
//   m2@3          mask source token 2 from step 3 on (the softmax over the rest)
//   u2@5          take that mask back from step 5 on
//   p1@4          pin step 4's attention one-hot on source token 1
//   p1/3/0@4      pin step 4's attention to these weights (the engine divides them by their sum)
//   t0.5@2        the attention temperature τ = 0.5 from step 2 on
// e.g. #view=decode&…&wi=m2@3,p1@4,t0.5@2. The page keeps no other form: the reader gives the
// items in the order written, and the writer writes them back in that order. whatif.svelte.js
// declares the field.
import { float32Text } from '../lib/format.js';

/**
 * @typedef {{ kind: 'mask' | 'unmask', step: number, token: number }
 *   | { kind: 'pin', step: number, token: number }
 *   | { kind: 'pin', step: number, weights: number[] }
 *   | { kind: 'temperature', step: number, tau: number }} WhatIf
 */

/** The most items a link may carry: far more than a person sets by hand. */
export const MAX_WHATIFS = 200;
const MAX_STEP = 1e6;
const MAX_TOKEN = 1e4;
const MAX_WEIGHTS = 1000;
const LETTERS = { m: 'mask', u: 'unmask', p: 'pin', t: 'temperature' };
const index = (text) => (/^\d{1,7}$/.test(text) ? Number(text) : NaN);

/**
 * One item of the field, or null when it is not one of the forms above. The ranges the engine
 * knows (a source position past the input, τ outside limits()) are its to refuse.
 * @returns {WhatIf | null}
 */
export function parseWhatIf(text) {
  const match = /^([mupt])([^@]*)@(\d+)$/.exec(text);
  if (!match) return null;
  const [, letter, argument, stepText] = match;
  const step = index(stepText);
  if (!(step <= MAX_STEP)) return null;
  const kind = LETTERS[letter];
  if (kind === 'temperature') {
    const tau = /^\d*\.?\d+(e[+-]?\d+)?$/i.test(argument) ? Number(argument) : NaN;
    return tau > 0 && Number.isFinite(tau) ? { kind, step, tau } : null;
  }
  if (kind === 'pin' && argument.includes('/')) {
    const parts = argument.split('/');
    if (parts.length > MAX_WEIGHTS) return null;
    const weights = parts.map((p) => (/^\d*\.?\d+(e[+-]?\d+)?$/i.test(p) ? Number(p) : NaN));
    const valid = weights.every((w) => Number.isFinite(w) && w >= 0) && weights.some((w) => w > 0);
    return valid ? { kind, step, weights } : null;
  }
  const token = index(argument);
  if (!(token <= MAX_TOKEN)) return null;
  return /** @type {WhatIf} */ ({ kind, step, token });
}

/** One item as the link writes it. */
export function formatWhatIf(/** @type {WhatIf} */ w) {
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
  const form = `of the form m2@3, u2@5, p1@4, p1/3/0@4 or t0.5@2 (${params.items})`;
  return key === 'linkBadItems'
    ? `Some what-ifs in the link are not ${form}; the others are kept.`
    : `The what-ifs in the link are not ${form}; decoding without what-ifs.`;
}

/**
 * What the engine Worker's decode takes for `items` (web/shared/engine/worker.js applies each before
 * its step, masks first, then unmasks, the pin and the temperature).
 * @param {WhatIf[]} items
 */
export function decodeOptions(items) {
  const masks = [];
  const unmasks = [];
  const pins = [];
  const temperatures = [];
  for (const w of items) {
    if (w.kind === 'mask') masks.push([w.step, w.token]);
    else if (w.kind === 'unmask') unmasks.push([w.step, w.token]);
    else if (w.kind === 'pin') pins.push([w.step, 'weights' in w ? [...w.weights] : w.token]);
    else if (w.kind === 'temperature') temperatures.push([w.step, w.tau]);
  }
  return { masks, unmasks, pins, temperatures };
}
