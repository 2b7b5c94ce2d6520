// The Train view's configuration in the link (never the data: own pairs stay on the person's
// machine), so a shared link sets up the same run:
//   #view=train&tr-task=dates&tr-scores=additive,dot&tr-style=bahdanau&tr-steps=500&tr-lr=0.003&tr-seed=1
// Only fields that differ from the defaults are written. A malformed field keeps the default and
// a note says so (a hand-edited link is never silently replaced).
import { Text } from '../../shared/i18n/translate.js';
import { SCORES } from '../../shared/lib/score-functions.js';
import { TRANSFORMER_DECODER } from './scores.js';
import { numberIn, oneOf } from '../../shared/link/parse.js';
import linksDict from '../../shared/link/strings.js';

/** The tasks the trainer generates data for, in its order (the text tasks, then images and speech). */
export const TRAIN_TASKS = ['dates', 'zh', 'reverse', 'scenes', 'speech'];
// The default race is the six content-based ones, so a link written before location keeps its meaning.
const RACE = SCORES.filter((s) => s !== 'location');

/**
 * @typedef {{ data: string, task: string, scores: string[], style: string, encoder: string,
 *   embed: number, hidden: number, batch: number, learningRate: number, steps: number,
 *   seed: number, evalEvery: number, evalExamples: number, tokenization: string }} TrainConfig
 */
/** @type {Readonly<TrainConfig>} */
export const trainDefaults = Object.freeze({
  /** 'task' (a generated task) or 'pairs' (the person's own pairs) */
  data: 'task',
  task: 'dates',
  /** one run per score function, side by side: the race of all six content-based ones */
  scores: RACE,
  style: 'bahdanau',
  encoder: 'gru',
  // 0: the trainer's recipe for the task (the command line's; the form shows its value)
  embed: 0,
  hidden: 0,
  batch: 0,
  learningRate: 0,
  steps: 0,
  seed: 1,
  /** held-out exact match and the probe's alignment every this many steps */
  evalEvery: 25,
  evalExamples: 200,
  /** own pairs: 'auto' | 'char' | 'word' */
  tokenization: 'auto',
});

/** A copy of the defaults to start a state from. @returns {TrainConfig} */
export const freshConfig = () => ({ ...trainDefaults, scores: [...trainDefaults.scores] });

// field → [link key, its values or kind of number, bounds]: the bounds only keep a link sane; the
// engine checks the values against its own limits when the run is created and names the field it
// refuses.
/** @type {Record<string, [string, string[] | 'int' | 'number', number?, number?]>} */
const FIELDS = {
  data: ['tr-data', ['task', 'pairs']],
  task: ['tr-task', TRAIN_TASKS],
  style: ['tr-style', ['bahdanau', 'luong']],
  encoder: ['tr-encoder', ['gru', 'transformer']],
  tokenization: ['tr-tok', ['auto', 'char', 'word']],
  embed: ['tr-embed', 'int', 0, 1e6],
  hidden: ['tr-hidden', 'int', 0, 1e6],
  batch: ['tr-batch', 'int', 0, 1e6],
  learningRate: ['tr-lr', 'number', 0, 1e300],
  steps: ['tr-steps', 'int', 0, 1e7],
  seed: ['tr-seed', 'int', 0, Number.MAX_SAFE_INTEGER],
  evalEvery: ['tr-eval', 'int', 1, 1e6],
  evalExamples: ['tr-examples', 'int', 1, 1e6],
};

// The fields whose 0 stands for the trainer's recipe (the form shows the recipe's value there).
const FROM_RECIPE = ['embed', 'hidden', 'batch', 'learningRate', 'steps'];

/**
 * The parser of one configuration field's text (the link's, and the form's field): its value, or
 * the value kept and a note naming the field, what it asked for and what is used.
 * @param {keyof typeof FIELDS} field
 * @param {{ min?: number, max?: number, name?: string }} [range] the engine's limits for the
 *   field once the trainer has told them (the note states them), and the field's name in the
 *   form (the link's key=value without it)
 * @returns {(text: string, fallback: any) => import('../../shared/link/link.svelte.js').Parsed<any>}
 */
export function configParser(field, { min: low, max: high, name } = {}) {
  const [key, kind, min, max] = FIELDS[field];
  const asked = (text) => (name ? `${name} ${text.slice(0, 30)}` : `${key}=${text.slice(0, 30)}`);
  const used = (fallback) =>
    fallback === 0 && FROM_RECIPE.includes(field) ? new Text(linksDict, 'recipeValue') : fallback;
  if (Array.isArray(kind))
    return oneOf(
      kind,
      (text, fallback) =>
        new Text(linksDict, 'notOneOf', { field: asked(text), options: kind.join(', '), used: fallback }),
    );
  const limited = low !== undefined && high !== undefined;
  return numberIn(limited ? low : Number(min), limited ? high : Number(max), {
    whole: kind === 'int',
    bad: (text, fallback) =>
      limited
        ? new Text(linksDict, 'notInRange', { field: asked(text), min: low, max: high, used: used(fallback) })
        : new Text(linksDict, 'notNumber', { field: asked(text), used: used(fallback) }),
  });
}

/** The race entries a link can name: the score functions, and the Transformer decoder. */
const ENTRIES = [...SCORES, TRANSFORMER_DECODER];

/** The score functions (and the Transformer decoder) a link names: those the page knows, once each; a note names the others. */
export function parseScores(/** @type {string} */ text, /** @type {string[]} */ fallback) {
  const asked = text.split(',').filter(Boolean);
  const known = [...new Set(asked.filter((s) => ENTRIES.includes(s)))];
  const value = known.length ? known : fallback;
  if (known.length === asked.length) return { value };
  const unknown = asked.filter((s) => !ENTRIES.includes(s)).join(', ');
  return { value, note: new Text(linksDict, 'unknownScores', { unknown, used: value.join(', ') }) };
}

/**
 * The fields, over the configuration's state.
 * @param {TrainConfig} config
 * @returns {import('../../shared/link/link.svelte.js').LinkField<any>[]}
 */
export function trainLinkFields(config) {
  return [
    ...Object.entries(FIELDS).map(([field, [key]]) => ({
      key,
      get: () => config[field],
      set: (value) => (config[field] = value),
      parse: configParser(/** @type {keyof typeof FIELDS} */ (field)),
      fallback: () => trainDefaults[field],
    })),
    {
      key: 'tr-scores',
      get: () => config.scores,
      set: (scores) => (config.scores = scores),
      parse: parseScores,
      format: (scores) => scores.join(','),
      fallback: () => trainDefaults.scores,
    },
  ];
}
