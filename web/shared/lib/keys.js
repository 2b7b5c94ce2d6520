// Which key presses the page's shortcuts (←/→, Home/End, space, 1–7, ↑/↓) may take. A control
// that has the focus keeps its own keys: a radio group's arrows move its choice, a text field's
// arrows move the caret, a slider's move the slider, space presses a button. The page's keys act
// only when the focus is on none of them (the page itself, a heading, a card).

import { SCORES } from './score-functions.js';

const OWN_KEYS =
  'input, select, textarea, [contenteditable]:not([contenteditable=false]), [role=radio], [role=radiogroup], [role=slider], [role=listbox], [role=tablist], [role=menu], [role=grid], [role=spinbutton], [role=textbox], [role=combobox]';
const PRESSABLE = 'button, a[href], summary, [role=button], [role=link], [role=switch], [role=checkbox]';

/**
 * Whether a page shortcut may act on `event` (a keydown): no modifier, and the focus is not in a
 * control that uses the key itself.
 * @param {KeyboardEvent} event
 */
export function shortcutAllowed(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return false;
  const target = event.target;
  if (!target || typeof (/** @type {Element} */ (target).closest) !== 'function') return true;
  const element = /** @type {Element} */ (target);
  if (element.closest(OWN_KEYS)) return false;
  if ((event.key === ' ' || event.key === 'Enter') && element.closest(PRESSABLE)) return false;
  return true;
}

/**
 * The score function a digit key picks, the same in every view (Decode's order: 1 dot, 2 scaled
 * dot, 3 general, 4 additive, 5 cosine, 6 scaled cosine, 7 location); null for any other key.
 * A view without a model of that score function says so rather than pick another.
 * @param {string} key a KeyboardEvent's key
 */
export function scoreOfKey(key) {
  const index = /^[1-9]$/.test(key) ? Number(key) - 1 : -1;
  return index >= 0 && index < SCORES.length ? SCORES[index] : null;
}

/** The digit key that picks a score function ('' for one without a key). */
export const keyOfScore = (score) => (SCORES.includes(score) ? String(SCORES.indexOf(score) + 1) : '');

/**
 * The keys that pick one of `models`' score functions, written short ("1–5").
 * @param {{ score: string }[]} models
 */
export const modelKeys = (models) => keyRanges(models.map((m) => Number(keyOfScore(m.score))));

/**
 * Key numbers written short (a hint's list of the keys that work): [1, 2, 3, 4, 6, 7] → "1–4, 6, 7".
 * @param {number[]} numbers
 */
export function keyRanges(numbers) {
  const sorted = [...new Set(numbers)].filter((k) => k > 0).sort((a, b) => a - b);
  const parts = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(j - i >= 2 ? `${sorted[i]}–${sorted[j]}` : sorted.slice(i, j + 1).join(', '));
    i = j + 1;
  }
  return parts.join(', ');
}
