// The speech models' score functions by name, in the interface's language: content-based
// (additive) and location-aware in the Listen view's own words; any other by the name the rest of
// the page gives it (dot, scaled dot, … and their Chinese).
import { scoreFunctions } from '../../shared/lib/score-functions.js';

/** @param {string} score @param {(key: any) => string} t the Listen view's translator */
export function scoreLabel(score, t) {
  if (score === 'additive') return t('additiveName');
  if (score === 'location') return t('locationName');
  return scoreFunctions.find((f) => f.kind === score)?.label ?? score.replace('_', ' ');
}
