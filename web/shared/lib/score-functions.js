// The score functions as the page draws them, in the order of their keys (1 dot … 7 location, the
// same in every view): each one's name in the page's language, its formula in TeX (for KaTeX) and
// its colour in the training charts, and the formulas of the other two stages. Which score
// functions there are is the engine's to say: attend() takes its scoreKinds() (every one here
// but location, a decoder's, which reads the previous step's weights), a trainer's task lists
// those it trains and each checkpoint names its own. This table only draws them
// (tests/web/shared/lib/score-functions.test.mjs holds it to the engine's list).
import location from '../i18n/location.js';
import { formatNumber } from './format.js';
import { translatorOf } from '../i18n/translate.js';
import formulasDict from '../i18n/formulas.js';

const t = translatorOf(formulasDict);
const tl = translatorOf(location);

/**
 * @typedef {{ kind: string, label: string, tex: string, note: string, colors: [string, string],
 *             decoderOnly?: boolean }} ScoreFunction
 * colors: one per score function for the training curves, the run cards and the length chart, the
 * light theme's and the dark theme's version of one hue (colors.js's scoreColor picks the one of the
 * moment). With the fixed-vector baseline's (BASELINE_COLORS) they stay told apart with each of the
 * common colour-vision deficiencies simulated, and each is at least 3 : 1 on the card for a 2 px
 * line (tests/web/shared/lib/colors.test.mjs); they were moved from Okabe–Ito's, whose cosine and
 * the baseline's red were one colour for a deuteranope.
 */
/**
 * One score function of the table: its name and note are read when shown (in the page's language
 * of that moment), from the dictionary's `${kind}Label` and `${kind}Note` unless given.
 * @param {string} kind
 * @param {string} tex
 * @param {[string, string]} colors the light theme's and the dark theme's
 * @param {{ label?: () => string, note?: () => string, decoderOnly?: boolean }} [options]
 * @returns {ScoreFunction}
 */
function entry(kind, tex, colors, options = {}) {
  const words = /** @type {(key: string) => string} */ (t);
  const { label = () => words(`${kind}Label`), note = () => words(`${kind}Note`), decoderOnly } = options;
  return {
    kind,
    tex,
    colors,
    ...(decoderOnly ? { decoderOnly } : {}),
    get label() {
      return label();
    },
    get note() {
      return note();
    },
  };
}

/** @type {ScoreFunction[]} */
export const scoreFunctions = [
  entry('dot', String.raw`e_j = \mathbf{q}^{\top}\mathbf{k}_j`, ['#7a89da', '#40bafa']),
  entry('scaled_dot', String.raw`e_j = \frac{\mathbf{q}^{\top}\mathbf{k}_j}{\sqrt{d_k}}`, [
    '#089f68',
    '#56f9c1',
  ]),
  entry('general', String.raw`e_j = \mathbf{q}^{\top} W \mathbf{k}_j`, ['#cd71a6', '#e69cc8']),
  entry(
    'additive',
    String.raw`e_j = \mathbf{v}^{\top}\tanh\!\left(W_q\,\mathbf{q} + W_k\,\mathbf{k}_j\right)`,
    ['#de7104', '#b37a0c'],
  ),
  entry(
    'cosine',
    String.raw`e_j = \frac{\mathbf{q}^{\top}\mathbf{k}_j}{\lVert\mathbf{q}\rVert\,\lVert\mathbf{k}_j\rVert}`,
    ['#735200', '#dbcb52'],
  ),
  entry(
    'scaled_cosine',
    String.raw`e_j = g\,\frac{\mathbf{q}^{\top}\mathbf{k}_j}{\lVert\mathbf{q}\rVert\,\lVert\mathbf{k}_j\rVert}`,
    ['#523f9d', '#a273b7'],
  ),
  // A decoder's only: it reads the previous step's weights, which the sandbox's one query lacks.
  entry(
    'location',
    String.raw`e_j = \mathbf{v}^{\top}\tanh\!\left(W_q\,\mathbf{q} + W_k\,\mathbf{k}_j + W_f\,\mathbf{f}_j + \mathbf{b}\right),\;\; \mathbf{f}_j = \left(F * \boldsymbol{\alpha}_{i-1}\right)_j`,
    ['#8c2a65', '#e34e81'],
    { label: () => tl('label'), note: () => tl('note'), decoderOnly: true },
  ),
];

/** The score functions' names, in the keys' order: what a link or a key may name. */
export const SCORES = scoreFunctions.map((f) => f.kind);

/** The score functions attend() takes on one query (all but location: the engine's scoreKinds()). */
export const attendable = scoreFunctions.filter((f) => !f.decoderOnly).map((f) => f.kind);

// Softmax in the form the engine computes it: shifted by the largest score m (the same weights,
// no overflow), and with the temperature τ. WeightsPanel says what m is.
export const softmaxTex = String.raw`\alpha_j = \frac{\exp\left((e_j - m)/\tau\right)}{\sum_i \exp\left((e_i - m)/\tau\right)}`;
export const contextTex = String.raw`\mathbf{c} = \sum_j \alpha_j\,\mathbf{v}_j`;
// The same sum over a model's encoder states h_j (Decode, Caption, Listen), where the sandbox's is
// over the values v_j it is given.
export const encoderContextTex = contextTex.replace('\\mathbf{v}_j', '\\mathbf{h}_j');

export const scoreFunction = (kind) => scoreFunctions.find((f) => f.kind === kind) ?? scoreFunctions[0];

/** The fixed-vector baseline's line (Why attention), light and dark: apart from the score functions'. */
export const BASELINE_COLORS = ['#8d002f', '#ff887f'];

/** Scaled cosine's g written as the engine's value (g under it), so the formula says which g scored. */
export const fillScale = (tex, scale) =>
  Number.isFinite(scale)
    ? tex.replace('g\\,', `\\underset{g}{${formatNumber(scale).replace('−', '-')}}\\,`)
    : tex;

// Location-aware attention in two lines, for a stage panel's column (Caption, Listen).
const LOCATION_NARROW = String.raw`\begin{gathered}e_j = \mathbf{v}^{\top}\tanh\!\left(W_q\,\mathbf{s}_{i-1} + W_k\,\mathbf{h}_j + W_f\,\mathbf{f}_j + \mathbf{b}\right)\\ \mathbf{f} = F * \boldsymbol{\alpha}_{i-1}\end{gathered}`;

/**
 * The score function written for a decoder: query s_{i-1} (Bahdanau) or s_i (Luong), keys h_j;
 * for scaled cosine with the model's learned g in place of g when `scale` is given. `narrow`:
 * location-aware attention in two lines.
 */
export function decoderScoreTex(kind, style, scale = null, { narrow = false } = {}) {
  if (narrow && kind === 'location') return LOCATION_NARROW;
  const query = style === 'luong' ? 's_i' : 's_{i-1}';
  const tex = scoreFunction(kind)
    .tex.replaceAll('\\mathbf{q}', `\\mathbf{${query}}`)
    .replaceAll('\\mathbf{k}_j', '\\mathbf{h}_j')
    .replaceAll('d_k', 'd_h');
  return kind === 'scaled_cosine' && scale !== null ? fillScale(tex, scale) : tex;
}
