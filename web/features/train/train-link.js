// The Train view's configuration in the address's hash (never the data: own pairs stay on the
// person's machine), so a shared link sets up the same run:
//   #view=train&tr-task=dates&tr-scores=additive,dot&tr-style=bahdanau&tr-steps=500&tr-lr=0.003&tr-seed=1
// Only fields that differ from the defaults are written. A malformed field falls back to the
// default and a note says so (a hand-edited link is never silently replaced).

import { Text } from '../../shared/i18n/translate.js';
import linksDict from '../../shared/link/strings.js';

export const TRAIN_TASKS = ['dates', 'zh', 'reverse'];
export const ALL_SCORES = ['dot', 'scaled_dot', 'general', 'additive', 'cosine', 'scaled_cosine', 'location'];
// The default race is the six content-based ones, so a link written before location keeps its meaning.
const RACE = ALL_SCORES.filter((s) => s !== 'location');

/** @typedef {typeof trainDefaults} TrainConfig */
export const trainDefaults = {
  /** 'task' (a generated task) or 'pairs' (the person's own pairs) */
  data: 'task',
  task: 'dates',
  /** one run per score function, side by side: the race of all six content-based ones */
  scores: [...RACE],
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
};

// field → [hash key, kind, bounds]: the bounds only keep a link sane; the engine checks the values
// against its own limits when the run is created and names the field it refuses.
/** @type {Record<string, [string, string[] | 'int' | 'number', number?, number?]>} */
const FIELDS = {
  data: ['tr-data', ['task', 'pairs']],
  task: ['tr-task', [...TRAIN_TASKS, 'scenes', 'speech']],
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

/**
 * The configuration a hash describes, field by field falling back to `defaults`.
 * @param {string} hash
 * @param {TrainConfig} defaults
 * @param {(string | import('../../shared/i18n/translate.js').Text)[]} [notes] what was malformed, each with what is used instead
 */
export function readTrainUrl(hash, defaults = trainDefaults, notes = []) {
  const params = new URLSearchParams(String(hash).replace(/^#/, ''));
  const out = { ...defaults, scores: [...defaults.scores] };
  for (const [field, [key, kind, min, max]] of Object.entries(FIELDS)) {
    if (!params.has(key)) continue;
    const text = params.get(key) ?? '';
    if (Array.isArray(kind)) {
      if (kind.includes(text)) out[field] = text;
      else
        notes.push(
          new Text(linksDict, 'notOneOf', {
            field: `${key}=${text.slice(0, 30)}`,
            options: kind.join(', '),
            used: out[field],
          }),
        );
      continue;
    }
    const value = Number(text);
    const ok = text !== '' && Number.isFinite(value) && (kind !== 'int' || Number.isInteger(value));
    if (ok && value >= Number(min) && value <= Number(max)) out[field] = value;
    else
      notes.push(
        new Text(linksDict, 'notNumber', { field: `${key}=${text.slice(0, 30)}`, used: out[field] }),
      );
  }
  if (params.has('tr-scores')) {
    const asked = (params.get('tr-scores') ?? '').split(',').filter(Boolean);
    const known = [...new Set(asked.filter((s) => ALL_SCORES.includes(s)))];
    if (known.length) out.scores = known;
    if (known.length < asked.length)
      notes.push(
        new Text(linksDict, 'unknownScores', {
          unknown: asked.filter((s) => !ALL_SCORES.includes(s)).join(', '),
          used: out.scores.join(', '),
        }),
      );
  }
  return out;
}

/**
 * The hash fields of a configuration: those that differ from the defaults.
 * @param {TrainConfig} config
 * @param {TrainConfig} defaults
 * @returns {[string, string][]}
 */
export function trainUrlFields(config, defaults = trainDefaults) {
  /** @type {[string, string][]} */
  const out = [];
  for (const [field, [key]] of Object.entries(FIELDS))
    if (config[field] !== defaults[field]) out.push([key, String(config[field])]);
  if (config.scores.join() !== defaults.scores.join()) out.push(['tr-scores', config.scores.join(',')]);
  return out;
}
