// What the person chose: the view, the task, the model (score function, style, encoder), the
// input, the forced tokens and the beam width, and where the stepper stands. The views' engine
// requests (decode, compare, beam, self-attention) follow from these.
import { scoreFunction } from '../lib/formulas.js';
import { modelName, task as taskOf } from './tasks.js';
import { availableModels, hasModel, selfAttentionModel } from '../engine/engine.svelte.js';
import { initialDecode } from './initial.js';
import { noteLink } from '../link/notes.svelte.js';
import { Text } from '../i18n/translate.js';
import linksDict from '../link/strings.js';

export const choice = $state({
  task: initialDecode.task,
  score: initialDecode.score,
  style: initialDecode.style,
  encoder: initialDecode.encoder,
  input: initialDecode.input,
  forces: initialDecode.forces,
  beamWidth: initialDecode.beamWidth,
  /** a model trained in the page or loaded from a file (its engine name), instead of a shipped one */
  trained: '',
});

export const nav = $state({
  view: initialDecode.view,
  /** the decoding step shown */
  step: initialDecode.step,
  playing: false,
  /** ms per step while playing */
  speed: 700,
  /** whether the output not decoded yet is shown (greyed) after the current step */
  reveal: initialDecode.reveal ?? false,
});

export const currentModelName = () =>
  choice.trained ||
  modelName(choice.task, choice.score, choice.style) +
    (choice.encoder === 'transformer' ? '-transformer' : '');

/** The choice in one line (the folded settings on a phone): task · model · “input”. */
export function choiceSummary() {
  const style = choice.style === 'bahdanau' ? 'Bahdanau' : 'Luong';
  const encoder = choice.encoder === 'transformer' ? ' · Transformer' : '';
  return `${taskOf(choice.task).label} · ${scoreFunction(choice.score).label} · ${style}${encoder} · “${choice.input}”`;
}

/** The empty-input message, in the task's words (before the engine is asked). */
export function inputProblem(input) {
  if (input.trim() === '') return `Type ${taskOf(choice.task).what}, or pick an example.`;
  return '';
}

/** What-if: take `tokenId` at step `index`; the forced tokens after it are dropped. */
export function forceToken(index, tokenId) {
  choice.forces = [...choice.forces.filter(([i]) => i < index), [index, tokenId]];
  nav.step = index;
}

export function clearForces() {
  choice.forces = [];
}

export function setInput(text) {
  choice.input = text;
  choice.forces = [];
  nav.step = 0;
}

// Typing: the input is taken once the keys pause for 250 ms (Enter takes it at once).
let typing;
export function setInputSoon(text) {
  clearTimeout(typing);
  typing = setTimeout(() => setInput(text), 250);
}
export function setInputNow(text) {
  clearTimeout(typing);
  setInput(text);
}

/** Replaces the word `word` of the input by `by` (an unknown word by the engine's suggestion). */
export function replaceInputWord(word, by) {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  setInputNow(choice.input.replace(new RegExp(`(^|\\s)${escaped}(?=\\s|$)`), `$1${by}`));
}

export function setTask(taskId) {
  if (choice.task === taskId && !choice.trained) return;
  choice.trained = '';
  choice.task = taskId;
  const shipped = availableModels(taskId);
  if (shipped.length && !shipped.some((m) => m.score === choice.score && m.style === choice.style))
    Object.assign(choice, shipped.find((m) => m.score === choice.score) ?? shipped[0]);
  keepEncoderShipped();
  setInput(taskOf(taskId).examples[0]);
}

export function setModel(score, style = choice.style) {
  choice.trained = '';
  choice.score = score;
  choice.style = style;
  choice.forces = [];
  keepEncoderShipped();
}

/** Whether the chosen task, score function and style are shipped with a Transformer encoder too. */
export const hasTransformer = () =>
  hasModel(`${modelName(choice.task, choice.score, choice.style)}-transformer`);

// Back to the BiGRU encoder when the choice has no Transformer-encoder checkpoint.
function keepEncoderShipped() {
  if (choice.encoder === 'transformer' && !hasTransformer()) choice.encoder = 'gru';
}

/** 'gru' or 'transformer'; choosing the Transformer moves to the score and style it is shipped with. */
export function setEncoder(encoder) {
  if (encoder === 'transformer' && !hasTransformer()) {
    if (!hasModel(selfAttentionModel(choice.task))) return;
    choice.score = 'additive';
    choice.style = 'bahdanau';
  }
  choice.trained = '';
  choice.encoder = encoder;
  choice.forces = [];
}

// A link may name a model that is not shipped (a Luong model on the reverse task, a Transformer
// encoder for another score function): the nearest shipped one is shown, and the link note says so.
function keepLinkedModelShipped() {
  const asked = currentModelName();
  if (hasModel(asked)) return;
  const shipped = availableModels(choice.task);
  if (!shipped.length) return;
  if (!hasModel(modelName(choice.task, choice.score, choice.style)))
    Object.assign(choice, shipped.find((m) => m.score === choice.score) ?? shipped[0]);
  keepEncoderShipped();
  noteLink(new Text(linksDict, 'notShipped', { model: asked, shown: currentModelName() }));
}
keepLinkedModelShipped();
