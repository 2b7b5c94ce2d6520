// The speech models' score functions by name, in the interface's language: content-based
// (additive) and location-aware; any other by its own name.
/** @param {string} score @param {(key: any) => string} t the Listen view's translator */
export function scoreLabel(score, t) {
  if (score === 'additive') return t('additiveName');
  if (score === 'location') return t('locationName');
  return score.replace('_', ' ');
}
