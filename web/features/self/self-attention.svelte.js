// The self-attention view: the chosen input through the task's transformer-encoder model (every
// layer and head), the decoder's cross-attention beside it, and what is selected.
import { readError } from '../../shared/lib/errors.js';
import { task as taskOf } from '../../shared/text/tasks.js';
import { choice, inputProblem } from '../../shared/text/choice.svelte.js';
import {
  engineApi,
  hasModel,
  loadModel,
  models,
  selfAttentionModel,
} from '../../shared/engine/engine.svelte.js';
import { declareLink } from '../../shared/link/link.svelte.js';
import { latest } from '../../shared/lib/latest.js';
import { Text, translatorOf } from '../../shared/i18n/translate.js';
import { noteLink } from '../../shared/link/notes.svelte.js';
import { quote } from '../../shared/link/parse.js';
import linksDict from '../../shared/link/strings.js';
import selfDict from './strings.js';

const t = translatorOf(selfDict);

export const selfAttention = $state({
  /** @type {'idle' | 'running' | 'ready' | 'error'} */
  status: 'idle',
  error: '',
  /** @type {import('../../shared/lib/errors.js').Failure | null} the engine's error, by code */
  failure: null,
  key: '',
  name: '',
  /** @type {string[]} */
  sourceTokens: [],
  /** @type {import('../../../wasm/playground').SelfAttentionRecord[]} */
  layers: [],
  /** @type {{token: string, weights: Float32Array}[]} the decoder's cross-attention, one row per step */
  cross: [],
  /** @type {string[]} */
  output: [],
  /** the input of the layers shown */
  input: '',
  layer: 0,
  head: 0,
  /** the query token whose scores are spelled out */
  token: 0,
  showCross: true,
});

// The layer, head and query token in the link, each from 0: sa=1.2.3 (written while the view is shown).
declareLink('self', [
  {
    key: 'sa',
    get: () => [selfAttention.layer, selfAttention.head, selfAttention.token],
    set: ([layer, head, token]) => {
      Object.assign(selfAttention, { layer, head, token });
      linked = [layer, head, token];
    },
    parse: (text, fallback) => {
      const sa = text.split('.').map(Number);
      return sa.length === 3 && sa.every((x) => Number.isInteger(x) && x >= 0 && x < 1000)
        ? { value: sa }
        : {
            value: fallback,
            note: new Text(linksDict, 'badSelf', { sa: quote(text), shown: fallback.join('.') }),
          };
    },
    format: (sa) => sa.join('.'),
    fallback: () => [0, 0, 0],
    written: (earlier) => (earlier.view === 'self' ? 'always' : 'never'),
  },
]);

// The layer, head and token the link asked for, until the first answer says whether the model has them.
let linked = /** @type {number[] | null} */ (null);

const selfAttentionRuns = latest();

/** Runs the chosen input through the task's transformer-encoder model: its layers and its decoder's alignment. */
export async function runSelfAttention() {
  const view = selfAttention;
  const name = selfAttentionModel(choice.task);
  const { input } = choice;
  const key = JSON.stringify([name, input]);
  if (view.key === key) return;
  const current = selfAttentionRuns();
  view.key = key;
  /** @param {string} error @param {import('../../shared/lib/errors.js').Failure | null} [failure] */
  const fail = (error, failure = null) =>
    Object.assign(view, { status: 'error', error, failure, layers: [], cross: [] });
  if (!hasModel(name)) return fail(t('noTransformer', { task: taskOf(choice.task).label }));
  const problem = inputProblem(input);
  if (problem) return fail(problem);
  view.status = 'running';
  await loadModel(name);
  if (!current()) return;
  const loaded = models[name];
  if (loaded?.status !== 'ready') return fail(loaded?.error ?? 'the model did not load');
  try {
    const result = await engineApi().selfAttention(name, input);
    if (!current()) return;
    const n = result.sourceTokens.length;
    const layers = result.layers.length;
    const heads = result.layers[0]?.heads ?? 1;
    const asked = linked;
    linked = null;
    Object.assign(view, {
      status: 'ready',
      error: '',
      failure: null,
      name,
      input,
      ...result,
      layer: Math.min(view.layer, layers - 1),
      head: Math.min(view.head, heads - 1),
      token: Math.min(view.token, n - 1),
    });
    const shown = [view.layer, view.head, view.token];
    if (asked && asked.some((x, i) => x !== shown[i]))
      noteLink(
        new Text(linksDict, 'selfPast', { sa: asked.join('.'), layers, heads, n, shown: shown.join('.') }),
      );
  } catch (error) {
    if (!current()) return;
    const failure = readError(error);
    fail(failure.message, failure);
  }
}

/** The engine's trace JSON of the input shown: the decoder's steps and every encoder layer's record. */
export async function exportSelfAttentionJson() {
  if (selfAttention.status !== 'ready') throw new Error('there is no self-attention to export');
  return engineApi().selfAttentionJson(selfAttention.name, selfAttention.input);
}

/** The row shown (layer, head, query token) as the engine's Python file that recomputes it with NumPy. */
export async function exportSelfAttentionPython() {
  if (selfAttention.status !== 'ready') throw new Error('there is no self-attention to export');
  const { name, input, layer, head, token } = selfAttention;
  return engineApi().selfAttentionPython(name, input, layer, head, token);
}
