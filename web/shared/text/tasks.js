// The three trained tasks, their examples, and the checkpoints the page can offer for them.
import { translatorOf } from '../i18n/translate.js';
import tasksDict from './tasks-strings.js';
import { SCORES } from '../lib/score-functions.js';

const tr = translatorOf(tasksDict);

export const STYLES = ['bahdanau', 'luong'];

/**
 * One task: its name and what to type are read when shown (in the page's language of that
 * moment), from the dictionary's `${id}Label` and `${id}What`; `unit` names what its model counts.
 * @param {string} id
 * @param {'words' | 'characters' | 'letters' | 'tokens'} unit
 * @param {string[]} examples
 * @param {{ alphabet?: boolean }} [options] alphabet: a task of letters (its hint names them)
 */
function defineTask(id, unit, examples, { alphabet = false } = {}) {
  const words = /** @type {(key: string) => string} */ (tr);
  return {
    id,
    examples,
    alphabet,
    get label() {
      return words(`${id}Label`);
    },
    get what() {
      return words(`${id}What`);
    },
    get unit() {
      return tr(unit);
    },
  };
}

export const tasks = [
  defineTask('zh', 'words', [
    'tom chase jerry',
    'tom chased jerry in the kitchen yesterday',
    'the cat ate its fish',
    'tom said that he was hungry',
  ]),
  defineTask('dates', 'characters', ['29 november 2026', '11/29/26', 'sunday, 29 nov. 2026', '2026-11-29']),
  // the letters and how many come from the model (inputHint)
  defineTask('reverse', 'letters', ['abcdefj', 'jihgabc', 'aabbccdd'], { alphabet: true }),
];

export const TASK_IDS = tasks.map((t) => t.id);

/**
 * What a model trained on a person's own pairs reads: none of the tasks above, so no task pill,
 * no examples and no baseline of its own; its hint is its own limits (inputHint).
 */
export const ownPairs = defineTask('pairs', 'tokens', []);

export const task = (id) => (id === ownPairs.id ? ownPairs : (tasks.find((t) => t.id === id) ?? tasks[0]));

/**
 * What to type, with the true limits of the model that reads it (its info(): the fewest and most
 * source tokens, and for a task of letters the first and last letter of its vocabulary), so the
 * hint cannot drift from what the engine accepts: "1–19 letters from a to j, no spaces".
 * @param {string} taskId
 * @param {import('../../../wasm/playground').ModelInfo | null | undefined} info
 */
export function inputHint(taskId, info) {
  const t = task(taskId);
  if (!info) return t.what;
  const { minSourceTokens: min, maxSourceTokens: max } = info.limits;
  const range = tr('range', { min, max, unit: t.unit });
  if (t.alphabet) {
    const letters = info.srcVocab.slice(4); // after <pad>, <s>, </s>, <unk>
    return tr('lettersHint', { range, first: letters[0], last: letters.at(-1) ?? '' });
  }
  return tr('hint', { what: t.what, range });
}

/** "dates-additive-bahdanau" */
export const modelName = (taskId, score, style) => `${taskId}-${score}-${style}`;

/** The task, score and style of a shipped model's name, or null for a name that is not one. */
export function parseModelName(name) {
  const [taskId, score, style, ...rest] = String(name).split('-');
  return TASK_IDS.includes(taskId) && SCORES.includes(score) && STYLES.includes(style) && !rest.length
    ? { task: taskId, score, style }
    : null;
}
