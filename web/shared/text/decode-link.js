// The text views' part of the link:
//   #view=decode&task=dates&model=additive-bahdanau&input=29+november+2026&step=3&force=2:17,5:4&k=3&reveal=1
// (model=additive-bahdanau-transformer: the same decoder over the Transformer encoder;
// model=transformer: the encoder–decoder Transformer, whose heads are decode-link's). Steps are
// counted from 0 (step=0 is step 1). A view that decodes the chosen input (Decode, Compare, Beam,
// Self-attention) always writes its task, model and input, so such a link reads plainly; other
// fields only when they differ from what the page shows without them. The what-ifs (wi=…) are
// whatif-link.js's, the self-attention view's sa=… its own.
import { Text } from '../i18n/translate.js';
import { numberIn, quote } from '../link/parse.js';
import linksDict from '../link/strings.js';
import { choiceDefaults, inputOf } from './choice.svelte.js';
import { TASK_IDS, task as taskOf } from './tasks.js';

/** The most forced tokens a link carries. */
const MAX_FORCES = 100;
const MAX_STEP = 1e6;

const DECODING_VIEWS = ['decode', 'compare', 'beam', 'self'];
const plainly = (earlier) => (DECODING_VIEWS.includes(earlier.view) ? 'always' : 'changed');

/** @typedef {{ score: string, style: string, encoder: string, decoder: string }} ModelChoice */
const MODEL =
  /^(dot|scaled_dot|general|additive|cosine|scaled_cosine|location|none)-(bahdanau|luong)(-transformer)?$/;
/** "additive-bahdanau", "additive-bahdanau-transformer" */
export const formatModel = (/** @type {ModelChoice} */ m) =>
  m.decoder === 'transformer'
    ? 'transformer'
    : `${m.score}-${m.style}${m.encoder === 'transformer' ? '-transformer' : ''}`;

/** @param {string} text @param {ModelChoice} fallback */
export function parseModel(text, fallback) {
  if (text === 'transformer')
    return { value: { score: 'scaled_dot', style: 'luong', encoder: 'transformer', decoder: 'transformer' } };
  const match = MODEL.exec(text);
  if (match)
    return {
      value: { score: match[1], style: match[2], encoder: match[3] ? 'transformer' : 'gru', decoder: 'gru' },
    };
  return {
    value: fallback,
    note: new Text(linksDict, 'noModel', {
      model: quote(text),
      shown: `${fallback.score}-${fallback.style}`,
    }),
  };
}

/** "2:17,5:4" → [[2, 17], [5, 4]]: the pairs that are two whole numbers ≥ 0, the first 100. */
export function parseForces(/** @type {string} */ text) {
  const pairs = text.split(',').filter((pair) => pair !== '');
  const valid = /** @type {[number, number][]} */ (
    pairs
      .map((pair) => pair.split(':').map(Number))
      .filter((p) => p.length === 2 && p.every((x) => Number.isInteger(x) && x >= 0))
  );
  const value = valid.slice(0, MAX_FORCES);
  if (valid.length === pairs.length) return { value };
  const key = value.length ? 'badForcesKept' : 'badForcesGreedy';
  return { value, note: new Text(linksDict, key, { force: quote(text) }) };
}
export const formatForces = (/** @type {[number, number][]} */ forces) =>
  forces.map((f) => f.join(':')).join(',');

/** A step number from 0; one past the decode's end is known only once decoded (the decode says so). */
export function parseStep(/** @type {string} */ text, /** @type {number} */ fallback) {
  const step = Number(text);
  return Number.isInteger(step) && step >= 0
    ? { value: Math.min(step, MAX_STEP) }
    : { value: fallback, note: new Text(linksDict, 'badStep', { step: quote(text) }) };
}

/**
 * The fields, over the states that hold them.
 * @param {{ choice: any, stepper: { step: number }, output: { reveal: boolean },
 *           remember: (step: number) => void }} states
 *   remember: the step the link asked for, which the first decode checks against its steps
 * @returns {import('../link/link.svelte.js').LinkField<any>[]}
 */
export function textLinkFields({ choice, stepper, output, remember }) {
  return [
    {
      key: 'task',
      get: () => choice.task,
      set: (task) => (choice.task = task),
      parse: (text, fallback) =>
        TASK_IDS.includes(text)
          ? { value: text }
          : {
              value: fallback,
              note: new Text(linksDict, 'noTask', {
                task: quote(text),
                tasks: TASK_IDS.join(', '),
                shown: taskOf(fallback).label,
              }),
            },
      fallback: () => choiceDefaults.task,
      // a model trained on the person's own pairs has no task: its link names the model alone
      written: (earlier) =>
        choice.trained && !TASK_IDS.includes(choice.trainedTask) ? 'never' : plainly(earlier),
    },
    {
      key: 'model',
      get: () => ({
        score: choice.score,
        style: choice.style,
        encoder: choice.encoder,
        decoder: choice.decoder,
      }),
      set: (m) => Object.assign(choice, m),
      parse: parseModel,
      format: formatModel,
      fallback: () => ({
        score: choiceDefaults.score,
        style: choiceDefaults.style,
        encoder: choiceDefaults.encoder,
        decoder: choiceDefaults.decoder,
      }),
      written: plainly,
    },
    {
      key: 'input',
      get: () => choice.input,
      set: (input) => (choice.input = input),
      // taken whole: the decode cuts it to the engine's own limit (decode.svelte.js's fitInput)
      parse: (text) => ({ value: text }),
      // without an input, a task's own first example (another task's input would not be valid for it)
      fallback: (earlier) => inputOf(earlier.task ?? choice.task),
      written: plainly,
    },
    {
      key: 'step',
      get: () => stepper.step,
      set: (step) => {
        stepper.step = step;
        remember(step);
      },
      parse: parseStep,
      fallback: () => 0,
    },
    {
      key: 'force',
      get: () => choice.forces,
      set: (forces) => (choice.forces = forces),
      parse: parseForces,
      format: formatForces,
      fallback: () => [],
    },
    {
      key: 'k',
      get: () => choice.beamWidth,
      set: (k) => (choice.beamWidth = k),
      parse: numberIn(1, 8, {
        whole: true,
        bad: (text, fallback) => new Text(linksDict, 'badBeam', { k: quote(text), n: fallback }),
      }),
      fallback: () => choiceDefaults.beamWidth,
      written: (earlier) => (earlier.view === 'beam' ? 'always' : 'changed'),
    },
    {
      key: 'reveal',
      get: () => output.reveal,
      set: (on) => (output.reveal = on),
      parse: (text) => ({ value: text === '1' }),
      format: (on) => (on ? '1' : '0'),
      fallback: () => false,
    },
  ];
}
