// The largest weight cosine attention can give over n keys (the engine computes it:
// attention/cosine_bound), kept by (n, scale) so each view asks once.
import { engineApi } from './engine.svelte.js';

/** @type {Record<string, number | null>} "n|scale" → the bound, null while it is computed */
export const cosineBounds = $state({});

export const boundKey = (n, scale) => `${n}|${scale}`;

/** Asks the engine for the bound of n keys and scale g, once; it lands in cosineBounds. */
export async function requestCosineBound(n, scale = 1) {
  const key = boundKey(n, scale);
  if (key in cosineBounds) return;
  cosineBounds[key] = null;
  try {
    cosineBounds[key] = await engineApi().cosineWeightBound(n, scale);
  } catch {
    delete cosineBounds[key]; // no such bound (n = 0): nothing to show
  }
}
