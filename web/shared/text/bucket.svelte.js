// A length bucket's held-out examples opened in Decode from the "Why attention" chart: Decode shows
// the first and the person steps through the others. Which ones a model got right is the engine's
// per-pair result (accuracyByLength's matches), kept for every model of the chart, so the marks
// follow the model chosen in Decode.
import { choice, setModel } from './choice.svelte.js';
import { setInputNow, setTask } from './decode.svelte.js';
import { page } from '../view.svelte.js';

export const bucketExamples = $state({
  task: '',
  score: '',
  minLength: 0,
  maxLength: 0,
  /** @type {string[]} */
  sources: [],
  /** @type {string[]} each source's reference answer (the held-out pair's target), shown beside a wrong output */
  targets: [],
  /** @type {Record<string, boolean[]>} score function → whether each source matched */
  matches: {},
  index: 0,
});

/**
 * Opens the examples in Decode with the model of score function `score` (Bahdanau, BiGRU).
 * @param {{ task: string, score: string, minLength: number, maxLength: number, sources: string[],
 *           targets: string[], matches: Record<string, boolean[]> }} bucket
 */
export function openBucket(bucket) {
  if (!bucket.sources.length) return;
  Object.assign(bucketExamples, { ...bucket, index: 0 });
  setTask(bucket.task);
  choice.encoder = 'gru';
  setModel(bucket.score, 'bahdanau');
  setInputNow(bucket.sources[0]);
  page.view = 'decode';
}

/** The marks of the model Decode shows (null when it is not one the chart evaluated). */
export function shownMatches() {
  const chart = choice.style === 'bahdanau' && choice.encoder === 'gru' && !choice.trained;
  return chart ? (bucketExamples.matches[choice.score] ?? null) : null;
}

/** Shows example `index` of the bucket (clamped). */
export function showBucketExample(index) {
  const n = bucketExamples.sources.length;
  if (!n) return;
  bucketExamples.index = Math.max(0, Math.min(n - 1, index));
  setInputNow(bucketExamples.sources[bucketExamples.index]);
}

/** Whether Decode still shows the opened bucket (same task, one of its sources as the input). */
export const bucketShown = () =>
  bucketExamples.sources.length > 0 &&
  choice.task === bucketExamples.task &&
  bucketExamples.sources[bucketExamples.index] === choice.input;

export function closeBucket() {
  bucketExamples.sources = [];
}
