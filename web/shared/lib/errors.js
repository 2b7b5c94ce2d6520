// What the page makes of a failed engine call. Every engine error carries a code (one of
// ERROR_CODES) and the facts behind it (`details`: the unknown tokens and the known ones near
// them, the length and the limit, the checkpoint field), as well as a message for people. The
// page decides by the code and shows the message; it never reads the English.

import { currentLang, translatorOf } from '../i18n/translate.js';
import errorsDict from '../i18n/errors.js';

const t = translatorOf(errorsDict);

export const ERROR_CODES = /** @type {const} */ ([
  'empty_input',
  'unknown_token',
  'too_long',
  'bad_checkpoint',
  'bad_argument',
  'bad_state',
  'limit_exceeded',
]);

// The faults of a line of own pairs that the engine names (its details' "problem").
const PAIRS_PROBLEMS = /** @type {const} */ ([
  'not_utf8',
  'control',
  'no_tab',
  'tabs',
  'too_long',
  'empty_side',
  'reserved',
  'too_many',
  'empty_line',
  'blank_line',
]);

/** @typedef {{ code: string, message: string, details: Record<string, unknown> }} Failure */

/** An error as the page keeps it: its code ('' when it has none), the message, the details. */
export function readError(error) {
  /** @type {Failure} */
  const failure = {
    code: typeof error?.code === 'string' ? error.code : '',
    message: String(error?.message ?? error),
    details: error?.details && typeof error.details === 'object' ? error.details : {},
  };
  return failure;
}

// The codes of input a person can fix by editing the text (rather than a model or engine failure).
const INPUT_CODES = new Set(['empty_input', 'unknown_token', 'too_long']);

/**
 * The failure in the page's language: the engine's message in English, in Chinese a sentence
 * made from the code and its details (the engine's English kept in brackets where the details
 * do not say everything).
 * @param {Failure | null | undefined} failure
 */
export function errorText(failure) {
  if (!failure) return '';
  if (currentLang() === 'en' || !failure.code) return failure.message;
  const d = failure.details;
  // a line of own pairs: its number and its fault, from the details
  if (
    d.name === 'pairs' &&
    typeof d.line === 'number' &&
    PAIRS_PROBLEMS.includes(/** @type {any} */ (d.problem))
  ) {
    const side = d.side === 'source' || d.side === 'target' ? t(d.side) : String(d.side ?? '');
    // over its bytes, it is one word of the side that is too long, not the side
    const key = d.problem === 'too_long' && d.unit === 'bytes' ? 'pairs_word_too_long' : `pairs_${d.problem}`;
    return t(/** @type {any} */ (key), { ...d, side, unit: unitWord(d.unit) });
  }
  // own pairs over the trainer's bytes (the page's own check, or the engine's)
  if (
    d.name === 'pairs' &&
    failure.code === 'limit_exceeded' &&
    typeof d.length === 'number' &&
    typeof d.limit === 'number' &&
    d.line === undefined
  ) {
    const n = (x) => Number(x).toLocaleString('en');
    return t(d.pasted ? 'pairs_pasted_bytes' : 'pairs_bytes', { length: n(d.length), limit: n(d.limit) });
  }
  if (failure.code === 'unknown_token') {
    const tokens = strings(d.tokens).map((s) => `“${s}”`);
    const more = Number(d.count ?? tokens.length) - tokens.length;
    if (tokens.length)
      return t(more > 0 ? 'unknown_more' : 'unknown_token', { tokens: tokens.join(t('listSep')), more });
  }
  if (failure.code === 'too_long' && typeof d.length === 'number' && typeof d.limit === 'number') {
    return t('too_long', { length: d.length, limit: d.limit, unit: unitWord(d.unit ?? 'tokens') });
  }
  if (failure.code === 'empty_input') return t('empty_input');
  if (failure.code === 'limit_exceeded' && typeof d.length === 'number' && typeof d.limit === 'number')
    return t('limitNumbers', { length: d.length, limit: d.limit, message: failure.message });
  if (ERROR_CODES.includes(/** @type {any} */ (failure.code)))
    return t(/** @type {any} */ (failure.code), { message: failure.message });
  return failure.message;
}

/** A unit the engine names (tokens, bytes, …) in the page's words; one it does not know, as given. */
function unitWord(unit) {
  const name = String(unit ?? '');
  return UNITS.includes(name) ? t(/** @type {any} */ (name)) : name;
}
const UNITS = ['characters', 'tokens', 'words', 'letters', 'bytes'];

/** Whether the failure is about the text typed. */
export const isInputError = (failure) => INPUT_CODES.has(failure?.code);

const strings = (x) => (Array.isArray(x) ? x.map(String) : []);

/**
 * The unknown tokens and the known tokens near them, from an unknown_token failure; null for any
 * other failure.
 * @returns {{ tokens: string[], suggestions: string[] } | null}
 */
export function unknownTokens(failure) {
  if (failure?.code !== 'unknown_token') return null;
  return { tokens: strings(failure.details.tokens), suggestions: strings(failure.details.suggestions) };
}
