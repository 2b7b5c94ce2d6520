// The speech models' score functions by name, in the interface's language: content-based
// (additive) and location-aware in the Listen view's own words; any other by the name the rest of
// the page gives it (dot, scaled dot, … and their Chinese).
import { scoreFunctions } from '../lib/formulas.js';

/** @param {string} score @param {(key: any) => string} t the Listen view's translator */
export function scoreLabel(score, t) {
  if (score === 'additive') return t('additiveName');
  if (score === 'location') return t('locationName');
  return scoreFunctions.find((f) => f.kind === score)?.label ?? score.replace('_', ' ');
}

/**
 * Key numbers written short: [1, 2, 3, 4, 6, 7] → "1–4, 6, 7".
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
