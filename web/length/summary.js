// What the view says under the chart, read off the engine's counts (no claim is written in
// advance): the baseline's exact match on the shortest and the longest well-filled bucket, and the
// range of the attention models on the longest one.

/** Buckets with fewer pairs are left out of the sentences (a few pairs say little). */
export const MIN_PAIRS = 20;

/** "5.43 %", as `apg eval --by-length` prints it. */
export const percent = (hits, pairs) => (pairs > 0 ? `${((100 * hits) / pairs).toFixed(2)} %` : '–');

/**
 * @param {{ buckets: { minLength: number, maxLength: number, pairs: number, hits: number }[] }} baseline
 * @param {{ buckets: { minLength: number, maxLength: number, pairs: number, hits: number }[] }[]} attention
 * @returns {null | { first: any, last: any, falls: boolean, lo: number | null, hi: number | null, count: number }}
 *   first/last: the baseline's buckets; lo/hi: the attention models' exact match on `last`'s lengths.
 */
export function lengthSummary(baseline, attention) {
  const filled = baseline.buckets.filter((b) => b.pairs >= MIN_PAIRS);
  if (filled.length < 2) return null;
  const [first, last] = [filled[0], filled.at(-1)];
  const rate = (b) => b.hits / b.pairs;
  const onLast = attention
    .map((m) => m.buckets.find((b) => b.minLength === last.minLength))
    .filter((b) => b && b.pairs > 0)
    .map(rate);
  return {
    first,
    last,
    // 20 points lower on the long inputs than on the short ones
    falls: rate(first) - rate(last) >= 0.2,
    lo: onLast.length ? Math.min(...onLast) : null,
    hi: onLast.length ? Math.max(...onLast) : null,
    count: onLast.length,
  };
}
