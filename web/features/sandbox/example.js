import { formatVector } from '../../shared/lib/vectors.js';

// The sandbox's starting point, the running example "Tom chase Jerry": a query that looks for the
// subject, and three key/value pairs of size 4. With dot attention the scores are 1.1 / 0 / 0,
// so the weights come out 0.60 / 0.20 / 0.20; each value has a 1 in its own slot and in the last,
// so the context reads the weights back and its last entry is their sum.
export const exampleQuery = Object.freeze([1, 0, 1, 0]);
export const exampleTokens = Object.freeze([
  { label: 'Tom', key: [0.6, 0.2, 0.5, 0.1], value: [1, 0, 0, 1] },
  { label: 'chase', key: [0, 1, 0, 0.5], value: [0, 1, 0, 1] },
  { label: 'Jerry', key: [0.5, 0.3, -0.5, 0.8], value: [0, 0, 1, 1] },
]);

/** The sandbox as the editor holds it (vectors as the text in their fields), without token ids. */
export function exampleSandbox() {
  return {
    kind: 'dot',
    temperature: 1,
    /** scaled cosine's g; null: the engine's default √dk */
    scale: null,
    query: formatVector(exampleQuery),
    tokens: exampleTokens.map(({ label, key, value }) => ({
      label,
      key: formatVector(key),
      value: formatVector(value),
      attend: true,
    })),
  };
}
