// A length bucket's held-out examples opened in Decode from the "Why attention" chart: Decode shows
// the first and the person steps through the others. Which ones the model got right is the
// engine's per-pair result (accuracyByLength's matches).
import { choice, nav, setInputNow, setModel, setTask } from './choice.svelte.js';

export const bucketExamples = $state({
  task: '',
  score: '',
  minLength: 0,
  maxLength: 0,
  /** @type {{ source: string, match: boolean }[]} */
  list: [],
  index: 0,
});

/**
 * Opens the examples in Decode with the model of score function `score` (Bahdanau, BiGRU).
 * @param {{ task: string, score: string, minLength: number, maxLength: number,
 *           list: { source: string, match: boolean }[] }} bucket
 */
export function openBucket(bucket) {
  if (!bucket.list.length) return;
  Object.assign(bucketExamples, { ...bucket, index: 0 });
  setTask(bucket.task);
  choice.encoder = 'gru';
  setModel(bucket.score, 'bahdanau');
  setInputNow(bucket.list[0].source);
  nav.view = 'decode';
}

/** Shows example `index` of the bucket (clamped). */
export function showBucketExample(index) {
  const n = bucketExamples.list.length;
  if (!n) return;
  bucketExamples.index = Math.max(0, Math.min(n - 1, index));
  setInputNow(bucketExamples.list[bucketExamples.index].source);
}

/** Whether Decode still shows the opened bucket (same task, one of its sources as the input). */
export const bucketShown = () =>
  bucketExamples.list.length > 0 &&
  choice.task === bucketExamples.task &&
  bucketExamples.list[bucketExamples.index]?.source === choice.input;

export function closeBucket() {
  bucketExamples.list = [];
}
