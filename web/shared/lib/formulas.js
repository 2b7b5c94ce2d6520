// The formulas of the three stages in TeX, for KaTeX.
import location from '../i18n/location.js';
import { formatNumber } from './format.js';
import { translatorOf } from '../i18n/translate.js';
import formulasDict from '../i18n/formulas.js';

const t = translatorOf(formulasDict);
const tl = translatorOf(location);

export const scoreFunctions = [
  {
    kind: 'dot',
    get label() {
      return t('dotLabel');
    },
    tex: String.raw`e_j = \mathbf{q}^{\top}\mathbf{k}_j`,
    get note() {
      return t('dotNote');
    },
  },
  {
    kind: 'scaled_dot',
    get label() {
      return t('scaled_dotLabel');
    },
    tex: String.raw`e_j = \frac{\mathbf{q}^{\top}\mathbf{k}_j}{\sqrt{d_k}}`,
    get note() {
      return t('scaled_dotNote');
    },
  },
  {
    kind: 'general',
    get label() {
      return t('generalLabel');
    },
    tex: String.raw`e_j = \mathbf{q}^{\top} W \mathbf{k}_j`,
    get note() {
      return t('generalNote');
    },
  },
  {
    kind: 'additive',
    get label() {
      return t('additiveLabel');
    },
    tex: String.raw`e_j = \mathbf{v}^{\top}\tanh\!\left(W_q\,\mathbf{q} + W_k\,\mathbf{k}_j\right)`,
    get note() {
      return t('additiveNote');
    },
  },
  {
    kind: 'cosine',
    get label() {
      return t('cosineLabel');
    },
    tex: String.raw`e_j = \frac{\mathbf{q}^{\top}\mathbf{k}_j}{\lVert\mathbf{q}\rVert\,\lVert\mathbf{k}_j\rVert}`,
    get note() {
      return t('cosineNote');
    },
  },
  {
    kind: 'scaled_cosine',
    get label() {
      return t('scaled_cosineLabel');
    },
    tex: String.raw`e_j = g\,\frac{\mathbf{q}^{\top}\mathbf{k}_j}{\lVert\mathbf{q}\rVert\,\lVert\mathbf{k}_j\rVert}`,
    get note() {
      return t('scaled_cosineNote');
    },
  },
  {
    // A decoder's only: it reads the previous step's weights, which the sandbox's one query lacks.
    kind: 'location',
    get label() {
      return tl('label');
    },
    tex: String.raw`e_j = \mathbf{v}^{\top}\tanh\!\left(W_q\,\mathbf{q} + W_k\,\mathbf{k}_j + W_f\,\mathbf{f}_j + \mathbf{b}\right),\;\; \mathbf{f}_j = \left(F * \boldsymbol{\alpha}_{i-1}\right)_j`,
    get note() {
      return tl('note');
    },
    decoderOnly: true,
  },
];

/** The score functions the sandbox can run on one query (all but location). */
export const sandboxScoreFunctions = scoreFunctions.filter((f) => !f.decoderOnly);

// Softmax in the form the engine computes it: shifted by the largest score m (the same weights,
// no overflow), and with the temperature τ. WeightsPanel says what m is.
export const softmaxTex = String.raw`\alpha_j = \frac{\exp\left((e_j - m)/\tau\right)}{\sum_i \exp\left((e_i - m)/\tau\right)}`;
export const contextTex = String.raw`\mathbf{c} = \sum_j \alpha_j\,\mathbf{v}_j`;

export const scoreFunction = (kind) => scoreFunctions.find((f) => f.kind === kind) ?? scoreFunctions[0];

/** Scaled cosine's g written as the engine's value (g under it), so the formula says which g scored. */
export const fillScale = (tex, scale) =>
  Number.isFinite(scale)
    ? tex.replace('g\\,', `\\underset{g}{${formatNumber(scale).replace('−', '-')}}\\,`)
    : tex;

/**
 * The score function written for a decoder: query s_{i-1} (Bahdanau) or s_i (Luong), keys h_j;
 * for scaled cosine with the model's learned g in place of g when `scale` is given.
 */
export function decoderScoreTex(kind, style, scale = null) {
  const query = style === 'luong' ? 's_i' : 's_{i-1}';
  const tex = scoreFunction(kind)
    .tex.replaceAll('\\mathbf{q}', `\\mathbf{${query}}`)
    .replaceAll('\\mathbf{k}_j', '\\mathbf{h}_j')
    .replaceAll('d_k', 'd_h');
  return kind === 'scaled_cosine' && scale !== null ? fillScale(tex, scale) : tex;
}
