// What the view says under the chart, read off the engine's counts (no claim is written in
// advance): the baseline's exact match on the shortest and the longest well-filled bucket, and the
// range of the attention models on the longest one.

/**
 * Buckets with fewer pairs are left out of the sentences and drawn hollow and faint in the chart
 * (a few pairs say little): the one threshold of both.
 */
export const MIN_PAIRS = 20;

/** Whether a bucket holds pairs, but fewer than MIN_PAIRS. */
export const thin = (/** @type {{ pairs: number }} */ bucket) => bucket.pairs > 0 && bucket.pairs < MIN_PAIRS;

/**
 * Two lines within this share (3 points, about the baseline's stroke on the chart) of each other at
 * every bucket lie on top of each other in the chart.
 */
export const SAME_LINE = 0.03;

/**
 * The models whose lines the chart draws on top of each other: groups of two or more whose exact
 * match is within SAME_LINE at every bucket they share, in the order given.
 * @param {{ score: string, buckets: Bucket[] }[]} models
 * @returns {string[][]}
 */
export function coinciding(models) {
  const rates = (m) =>
    new Map(m.buckets.filter((b) => b.pairs > 0).map((b) => [b.minLength, b.hits / b.pairs]));
  const same = (a, b) => {
    const [ra, rb] = [rates(a), rates(b)];
    return ra.size === rb.size && [...ra].every(([k, r]) => rb.has(k) && Math.abs(r - rb.get(k)) < SAME_LINE);
  };
  /** @type {{ first: typeof models[number], scores: string[] }[]} */
  const groups = [];
  for (const m of models) {
    const group = groups.find((g) => same(g.first, m));
    if (group) group.scores.push(m.score);
    else groups.push({ first: m, scores: [m.score] });
  }
  return groups.filter((g) => g.scores.length > 1).map((g) => g.scores);
}

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
