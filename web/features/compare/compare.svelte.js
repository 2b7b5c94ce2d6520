// Compare: the same input through several models, and where each model's weights differ most
// from the chosen model's (the engine computes it).
import { choice, inputProblem } from '../../shared/text/choice.svelte.js';
import { engineApi, loadModel, models } from '../../shared/engine/engine.svelte.js';
import { latest } from '../../shared/lib/latest.js';
import { row } from '../../shared/lib/tensor.js';
import { activeWhatIfs, baseModel, hasWhatIfs, whatIfRequest } from '../../shared/text/whatif.svelte.js';

/**
 * @typedef {{ key: string, status: 'running' | 'ready' | 'error', error: string, sourceTokens: string[],
 *   steps: import('../../../wasm/playground').StepRecord[], outputText?: string }} Compared
 */
/** @type {Record<string, Compared>} model name → its decode of the input */
export const compare = $state({});
/**
 * @type {Record<string, { key: string, result: import('../../../wasm/playground').WeightDifference | null }>}
 *   model name → where its weights differ most from the chosen model's
 */
export const compareDiff = $state({});

/**
 * @type {Record<string, { key: string, heads: (import('../../../wasm/playground').WeightDifference | null)[][] | null }>}
 *   a Transformer decoder's name → each layer × head's cross-attention against the reference
 *   model's alignment (null while the engine computes it)
 */
export const headDiffs = $state({});

const compareRuns = latest();
const diffRuns = latest();
const headRuns = latest();

/**
 * The same input through `names`: each model's decode (greedy) lands in compare[name]; a name of
 * withWhatIfs(model) is that model decoded with the decode's what-ifs.
 */
export async function runCompare(names) {
  const input = choice.input;
  await Promise.all(
    names.map(async (name) => {
      const whatIfs = hasWhatIfs(name) ? activeWhatIfs() : [];
      const key = JSON.stringify([name, input, whatIfs]);
      if (compare[name]?.key === key) return;
      const current = compareRuns(name);
      const fail = (error) => (compare[name] = { key, status: 'error', error, steps: [], sourceTokens: [] });
      compare[name] = { key, status: 'running', error: '', steps: [], sourceTokens: [], outputText: '' };
      const problem = inputProblem(input);
      if (problem) return fail(problem);
      const model = baseModel(name);
      await loadModel(model);
      if (!current()) return;
      if (models[model]?.status !== 'ready') return fail(models[model]?.error ?? 'the model did not load');
      try {
        // Only the steps are shown: the engine need not keep the session.
        const options = hasWhatIfs(name) ? whatIfRequest() : {};
        const result = await engineApi().decode(model, input, { topK: 5, keep: false, ...options });
        if (current()) compare[name] = { key, status: 'ready', error: '', ...result };
      } catch (error) {
        if (current()) fail(String(error?.message ?? error));
      }
    }),
  );
}

/** The key of the comparison of `name` against `reference` (both decodes as they are now). */
export function compareDiffKey(reference, name) {
  const a = compare[reference];
  const b = compare[name];
  return a?.status === 'ready' && b?.status === 'ready' ? `${a.key}|${b.key}` : '';
}

/**
 * Where each of `names` has its weights most unlike the `reference` model's, over the steps both
 * took: the engine computes it (trace::largest_weight_difference); the answer lands in
 * compareDiff[name].
 */
export async function runCompareDifferences(reference, names) {
  const weights = (name) => compare[name].steps.map((s) => s.weights ?? new Float32Array(0));
  await Promise.all(
    names
      .filter((name) => name !== reference)
      .map(async (name) => {
        const key = compareDiffKey(reference, name);
        if (!key || compareDiff[name]?.key === key) return;
        const current = diffRuns(name);
        compareDiff[name] = { key, result: null };
        let result = null;
        try {
          result = await engineApi().weightDifference(weights(reference), weights(name));
        } catch {
          result = null; // no step in common: nothing to mark
        }
        if (current()) compareDiff[name] = { key, result };
      }),
  );
}

/**
 * How far each cross-attention head of the Transformer decoder `name` is from the alignment of
 * `reference` (the additive Bahdanau model), over the steps both took: the engine's measure for
 * every layer × head, in headDiffs[name].heads[layer][head].
 */
export async function runHeadDifferences(reference, name) {
  const key = compareDiffKey(reference, name);
  if (!key || headDiffs[name]?.key === key) return;
  const current = headRuns(name);
  headDiffs[name] = { key, heads: null };
  const steps = compare[name].steps;
  const alignment = compare[reference].steps.map((s) => s.weights ?? new Float32Array(0));
  const [layers, perLayer] = steps[0]?.crossWeights?.shape ?? [0, 0];
  const head = (l, h) =>
    engineApi()
      .weightDifference(
        alignment,
        steps.map((s) => (s.crossWeights ? row(s.crossWeights, l, h).slice() : new Float32Array(0))),
      )
      .catch(() => null); // no step in common: nothing to measure
  const heads = await Promise.all(
    Array.from({ length: layers }, (_, l) =>
      Promise.all(Array.from({ length: perLayer }, (_, h) => head(l, h))),
    ),
  );
  if (current()) headDiffs[name] = { key, heads };
}
