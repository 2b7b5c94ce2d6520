// What the view says under the chart, read off the engine's counts (no claim is written in
// advance): the baseline's exact match on the shortest and the longest well-filled bucket, and the
// range of the attention models on the longest one.

/** Buckets with fewer pairs are left out of the sentences (a few pairs say little). */
export const MIN_PAIRS = 20;

/** "5.43 %", as `apg eval --by-length` prints it. */
export const percent = (hits, pairs) => (pairs > 0 ? `${((100 * hits) / pairs).toFixed(2)} %` : '–');

/** 20 points lower on the long inputs than on the short ones. */
const FALL = 0.2;

/**
 * @typedef {{ minLength: number, maxLength: number, pairs: number, hits: number }} Bucket
 * @param {{ buckets: Bucket[] }} baseline
 * @param {{ score: string, buckets: Bucket[] }[]} attention
 * @returns {null | { first: Bucket, last: Bucket, falls: boolean,
 *                    stay: { score: string, rate: number }[], fall: { score: string, rate: number }[],
 *                    weak: { score: string, rate: number }[] }}
 *   first/last: the baseline's shortest and longest buckets of at least MIN_PAIRS pairs; fall: the
 *   attention models whose exact match on `last`'s lengths is 20 points or more below theirs on
 *   `first`'s; weak: of the others, those no better than the baseline on `last` (a model weak at
 *   every length does not fall, yet "stays" would read as "holds up"); stay: the rest.
 */
export function lengthSummary(baseline, attention) {
  const filled = baseline.buckets.filter((b) => b.pairs >= MIN_PAIRS);
  if (filled.length < 2) return null;
  const first = filled[0];
  const last = filled[filled.length - 1];
  const rate = (b) => b.hits / b.pairs;
  const stay = [];
  const fall = [];
  const weak = [];
  for (const m of attention) {
    const a = m.buckets.find((b) => b.minLength === first.minLength);
    const z = m.buckets.find((b) => b.minLength === last.minLength);
    if (!a?.pairs || !z?.pairs) continue;
    (rate(a) - rate(z) >= FALL ? fall : rate(z) <= rate(last) ? weak : stay).push({
      score: m.score,
      rate: rate(z),
    });
  }
  return { first, last, falls: rate(first) - rate(last) >= FALL, stay, fall, weak };
}
