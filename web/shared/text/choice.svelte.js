// What the person chose for the text views (Decode, Compare, Beam, Self-attention): the task, the
// model (score function, style, encoder, or a trained one), the input, the forced tokens and the
// beam width. The views' engine requests follow from these; where the stepper stands is
// decode.svelte.js's.
import { scoreFunction } from '../lib/score-functions.js';
import { modelName, ownPairs, STYLES, TASK_IDS, task as taskOf } from './tasks.js';
import { availableModels, hasModel, selfAttentionModel } from '../engine/engine.svelte.js';
import { Text, translatorOf } from '../i18n/translate.js';
import textDict from './strings.js';
import linksDict from '../link/strings.js';

/**
 * @typedef {{ task: string, score: string, style: string, encoder: string, decoder: string,
 *             input: string, forces: [number, number][], beamWidth: number }} ChoiceFields
 */
/** What the text views show without a link. @type {Readonly<ChoiceFields>} */
export const choiceDefaults = Object.freeze({
  task: 'zh',
  score: 'additive',
  style: 'bahdanau',
  /** 'gru' (BiGRU) or 'transformer' (shipped for additive Bahdanau on zh and dates) */
  encoder: 'gru',
  /** 'gru' (the GRU decoder with score × style) or 'transformer' (encoder and decoder, "<task>-transformer") */
  decoder: 'gru',
  input: 'tom chase jerry',
  /** [step, tokenId]: the tokens forced (what-if) */
  forces: [],
  beamWidth: 3,
});

/** @type {ChoiceFields & { trained: string, trainedTask: string }} */
export const choice = $state({
  task: choiceDefaults.task,
  score: choiceDefaults.score,
  style: choiceDefaults.style,
  encoder: choiceDefaults.encoder,
  decoder: choiceDefaults.decoder,
  input: choiceDefaults.input,
  /** @type {[number, number][]} */
  forces: [],
  beamWidth: choiceDefaults.beamWidth,
  /** a model trained in the page or loaded from a file (its engine name), instead of a shipped one */
  trained: '',
  /** the trained model's own task, from its metadata ('pairs', or any other, for own pairs) */
  trainedTask: '',
});

/**
 * The task of the model decoded, whose hint, examples, limits and baseline the text views show: a
 * shipped model's, or a trained model's own (never the task shipped models were last chosen for).
 */
export const modelTask = () =>
  taskOf(choice.trained && !TASK_IDS.includes(choice.trainedTask) ? ownPairs.id : choice.task);

/** The input a task starts from without a link's input: the default's, or the task's first example. */
export const inputOf = (taskId) =>
  taskId === choiceDefaults.task ? choiceDefaults.input : taskOf(taskId).examples[0];

export const currentModelName = () =>
  choice.trained ||
  (choice.decoder === 'transformer'
    ? transformerModel(choice.task)
    : modelName(choice.task, choice.score, choice.style) +
      (choice.encoder === 'transformer' ? '-transformer' : ''));

/** The choice in one line (the folded settings on a phone): task · model · “input”. */
export function choiceSummary() {
  if (choice.decoder === 'transformer' && !choice.trained)
    return `${modelTask().label} · Transformer · “${choice.input}”`;
  const style = choice.style === 'bahdanau' ? 'Bahdanau' : 'Luong';
  const encoder = choice.encoder === 'transformer' ? ' · Transformer' : '';
  // the fixed-vector baseline has no score function: named as such, not as the first one (dot)
  const score =
    choice.score === 'none' ? translatorOf(textDict)('noAttention') : scoreFunction(choice.score).label;
  return `${modelTask().label} · ${score} · ${style}${encoder} · “${choice.input}”`;
}

/** The empty-input message, in the task's words (before the engine is asked). */
export function inputProblem(input) {
  const task = modelTask();
  if (input.trim() === '') return `Type ${task.what}${task.examples.length ? ', or pick an example' : ''}.`;
  return '';
}

/**
 * The shipped model of the model's task for `score` (and `style`, when asked for): with the style
 * shown if it is shipped so, else the other one; null when the task has no model of that score
 * function (the view says so, and the model shown stays).
 * @param {string} score
 * @param {string} [style]
 */
export function shippedModel(score, style) {
  // (the fixed-vector baseline, 'none', is no score function of the pickers, but is shipped)
  const styles = style ? [style] : [choice.style, ...STYLES.filter((s) => s !== choice.style)];
  const found = styles.find((s) => hasModel(modelName(modelTask().id, score, s)));
  return found ? { score, style: found } : null;
}

/**
 * Chooses the shipped model of `score` (a pill, a digit key, the baseline's link): true when the
 * task has one, false (nothing changed) when it has none.
 * @param {string} score
 * @param {string} [style] only this style (the style pills); without it the shown style if shipped
 */
export function setModel(score, style) {
  const m = shippedModel(score, style);
  if (!m) return false;
  choice.trained = '';
  choice.decoder = 'gru';
  choice.score = m.score;
  choice.style = m.style;
  choice.forces = [];
  keepEncoderShipped();
  return true;
}

/** Whether the chosen task, score function and style are shipped with a Transformer encoder too. */
export const hasTransformer = () =>
  hasModel(`${modelName(choice.task, choice.score, choice.style)}-transformer`);

// Back to the BiGRU encoder when the choice has no Transformer-encoder checkpoint.
export function keepEncoderShipped() {
  if (choice.encoder === 'transformer' && !hasTransformer()) choice.encoder = 'gru';
}

/** The encoder–decoder Transformer of a task ("dates-transformer"): scaled dot-product heads. */
export const transformerModel = (taskId) => `${taskId}-transformer`;
export const hasTransformerDecoder = () => hasModel(transformerModel(choice.task));

/** 'gru' or 'transformer': the decoder; the Transformer's is shipped with a Transformer encoder. */
export function setDecoder(decoder) {
  if (decoder === 'transformer' && !hasTransformerDecoder()) return;
  choice.trained = '';
  choice.decoder = decoder;
  if (decoder === 'transformer')
    Object.assign(choice, { score: 'scaled_dot', style: 'luong', encoder: 'transformer' });
  else keepLinkedDecoderShipped();
  choice.forces = [];
}

// Back from the Transformer's own score and style to a shipped GRU decoder of the task.
function keepLinkedDecoderShipped() {
  if (hasModel(modelName(choice.task, choice.score, choice.style))) return keepEncoderShipped();
  const shipped = availableModels(choice.task);
  if (shipped.length) Object.assign(choice, shipped.find((m) => m.score === choice.score) ?? shipped[0]);
  keepEncoderShipped();
}

/** 'gru' or 'transformer'; choosing the Transformer moves to the score and style it is shipped with. */
export function setEncoder(encoder) {
  choice.decoder = 'gru';
  if (encoder === 'transformer' && !hasTransformer()) {
    if (!hasModel(selfAttentionModel(choice.task))) return;
    choice.score = 'additive';
    choice.style = 'bahdanau';
  }
  choice.trained = '';
  choice.encoder = encoder;
  choice.forces = [];
}

/** The digit key that found no model of its score function for the task (shown by the score pills). */
export const keyNote = $state({ key: '', score: '' });

/**
 * A digit key's score function (Decode's and Compare's keys): its shipped model, as a pill would
 * choose it; when the task has none, the model shown stays and keyNote says why.
 * @param {string} score
 * @param {string} key
 */
export function chooseScoreKey(score, key) {
  const chosen = setModel(score);
  Object.assign(keyNote, chosen ? { key: '', score: '' } : { key, score });
  return chosen;
}

/**
 * A link may name a model that is not shipped (a Luong model on the reverse task, a Transformer
 * encoder for another score function): the nearest shipped one is shown, and the link note says so.
 * @param {(string | Text)[]} notes
 */
export function keepLinkedModelShipped(notes) {
  if (choice.decoder === 'transformer' && !choice.trained && !hasTransformerDecoder()) choice.decoder = 'gru';
  const asked = currentModelName();
  if (hasModel(asked)) return;
  const shipped = availableModels(choice.task);
  if (!shipped.length) return;
  if (!hasModel(modelName(choice.task, choice.score, choice.style)))
    Object.assign(choice, shipped.find((m) => m.score === choice.score) ?? shipped[0]);
  keepEncoderShipped();
  notes.push(new Text(linksDict, 'notShipped', { model: asked, shown: currentModelName() }));
}

/**
 * Makes the model `m` (trained in the page or loaded from a file) the one the text views decode,
 * with its score function and style, so the formulas are its own.
 * @param {{ id: string, task: string, score: string, style: string, encoder?: string, decoder?: string }} m
 */
export function chooseModel(m) {
  choice.trained = m.id;
  choice.score = m.score;
  choice.style = m.style;
  choice.encoder = m.encoder === 'transformer' ? 'transformer' : 'gru';
  choice.decoder = m.decoder === 'transformer' ? 'transformer' : 'gru';
  choice.trainedTask = m.task;
  if (hasTask(m.task)) choice.task = m.task;
  choice.forces = [];
}

/** Whether `taskId` is one of the text tasks (a trained own-pairs model has none of them). */
export const hasTask = (taskId) => TASK_IDS.includes(taskId);
