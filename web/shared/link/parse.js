// The parsers of the link's fields that are one of a list or a number in a range, shared by the
// features' link fields and the controls that take the same values. Each gives the value the
// state takes, or for a text that is not one the fallback (what the state takes without the
// field) and a note made by `bad`, which says what the link asked for and what is used instead.

/** @typedef {import('./link.svelte.js').Note} Note */

/**
 * A link's text in a note: at most `n` characters, in quotes.
 * @param {unknown} text
 */
export const quote = (text, n = 40) => `“${String(text).slice(0, n)}${String(text).length > n ? '…' : ''}”`;

/**
 * One of `options`.
 * @template {string} T
 * @param {readonly T[]} options
 * @param {(text: string, fallback: T) => Note | undefined} [bad]
 * @returns {(text: string, fallback: T) => import('./link.svelte.js').Parsed<T>}
 */
export const oneOf = (options, bad) => (text, fallback) =>
  options.includes(/** @type {T} */ (text))
    ? { value: /** @type {T} */ (text) }
    : { value: fallback, note: bad?.(text, fallback) };

/**
 * A number from `min` to `max` (a whole one when `whole`), written as JavaScript reads numbers.
 * @param {number} min
 * @param {number} max
 * @param {{ whole?: boolean, bad?: (text: string, fallback: number) => Note | undefined }} [options]
 * @returns {(text: string, fallback: number) => import('./link.svelte.js').Parsed<number>}
 */
export const numberIn =
  (min, max, { whole = false, bad } = {}) =>
  (text, fallback) => {
    const value = Number(text);
    const ok = text.trim() !== '' && Number.isFinite(value) && (!whole || Number.isInteger(value));
    return ok && value >= min && value <= max ? { value } : { value: fallback, note: bad?.(text, fallback) };
  };

/** A yes/no field written 1 or 0 (anything but 1 reads as no). */
export const flag = (/** @type {string} */ text) => ({ value: text === '1' });
export const formatFlag = (/** @type {boolean} */ on) => (on ? '1' : '0');
