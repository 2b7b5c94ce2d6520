// Exact match by source length for several models over a task's held-out pairs, as the Worker runs
// it (web/features/length/worker.js) and as the tests and the benchmark run it under node. The engine gives
// the held-out pairs (heldoutPairs, the data seed of each model's training record, as `apg eval`)
// and, slice by slice, each slice's bucket counts and which pairs matched (accuracyByLength). The
// slices exist so the Worker can report progress and read a cancel between them; this file only
// adds up the engine's counts per bucket.

/** Pairs per accuracyByLength call: a progress report and a chance to cancel every ~50 decodes. */
export const SLICE = 50;

/**
 * @typedef {{ minLength: number, maxLength: number, pairs: number, hits: number }} BucketCount
 * @typedef {{ name: string, bucketWidth: number, pairs: number, hits: number, buckets: BucketCount[],
 *             matches: Uint8Array, sourceLengths: Int32Array, seed: number, seconds: number }} ModelLengths
 * @typedef {{ kind: 'pairs', seed: number, sources: string[], targets: string[] }
 *         | { kind: 'progress', name: string, done: number, total: number }
 *         | { kind: 'model', result: ModelLengths }} LengthReport
 */

/**
 * Evaluates each model in turn; `report` hears the held-out sources and their reference targets
 * (once per data seed), the
 * progress after each slice and each model's result, and is awaited (from a Worker it is a call to
 * the page, so its last result arrives before the end does). Resolves to 'done', or 'cancelled' when
 * `cancelled()` turned true between two slices.
 * @param {any} trainer the trainer module (Model, heldoutPairs)
 * @param {{ task: string, bucketWidth: number, models: { name: string, bytes: Uint8Array }[] }} job
 * @param {{ report: (r: LengthReport) => unknown, cancelled?: () => boolean, pause?: () => Promise<unknown>,
 *           now?: () => number }} hooks
 */
export async function lengthAccuracy(trainer, job, hooks) {
  const { report, cancelled = () => false, pause = async () => {}, now = () => performance.now() } = hooks;
  /** @type {Map<number, [string, string][]>} */
  const heldout = new Map();
  for (const { name, bytes } of job.models) {
    const model = trainer.Model.load(bytes);
    try {
      const info = model.info();
      if (info.task !== job.task)
        throw new Error(`${name} is a model of the ${info.task} task, not ${job.task}`);
      const seed = Number(info.training?.data_seed ?? 1);
      let pairs = heldout.get(seed);
      if (!pairs) {
        pairs = /** @type {[string, string][]} */ (trainer.heldoutPairs(job.task, seed));
        heldout.set(seed, pairs);
        await report({
          kind: 'pairs',
          seed,
          sources: pairs.map((p) => p[0]),
          targets: pairs.map((p) => p[1]),
        });
      }
      const started = now();
      const total = pairs.length;
      const matches = new Uint8Array(total);
      const sourceLengths = new Int32Array(total);
      /** @type {Map<number, BucketCount>} */
      const byMin = new Map();
      let hits = 0;
      for (let from = 0; from < total; from += SLICE) {
        const part = model.accuracyByLength(pairs.slice(from, from + SLICE), {
          bucketWidth: job.bucketWidth,
        });
        matches.set(part.matches, from);
        sourceLengths.set(part.sourceLengths, from);
        hits += part.hits;
        for (const b of part.buckets) {
          const sum = byMin.get(b.minLength) ?? {
            minLength: b.minLength,
            maxLength: b.maxLength,
            pairs: 0,
            hits: 0,
          };
          sum.pairs += b.pairs;
          sum.hits += b.hits;
          byMin.set(b.minLength, sum);
        }
        await report({ kind: 'progress', name, done: Math.min(from + SLICE, total), total });
        await pause();
        if (cancelled()) return 'cancelled';
      }
      await report({
        kind: 'model',
        result: {
          name,
          bucketWidth: job.bucketWidth,
          pairs: total,
          hits,
          buckets: contiguous(byMin, job.bucketWidth),
          matches,
          sourceLengths,
          seed,
          seconds: (now() - started) / 1000,
        },
      });
    } finally {
      model.delete();
    }
  }
  return 'done';
}

// The engine's buckets run from the shortest source's to the longest's with the empty ones between
// kept; slices may each miss a bucket in the middle, so the gaps are put back (0 pairs).
function contiguous(byMin, width) {
  const mins = [...byMin.keys()].sort((a, b) => a - b);
  const out = [];
  for (let min = mins[0]; mins.length && min <= mins.at(-1); min += width)
    out.push(byMin.get(min) ?? { minLength: min, maxLength: min + width - 1, pairs: 0, hits: 0 });
  return out;
}
