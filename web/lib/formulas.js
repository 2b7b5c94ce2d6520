// The formulas of the three stages in TeX, for KaTeX.
import location from '../i18n/location.js';
import { formatNumber } from './format.js';

export const scoreFunctions = [
  {
    kind: 'dot',
    label: 'dot',
    tex: String.raw`e_j = \mathbf{q}^{\top}\mathbf{k}_j`,
    note: 'How much the query and key point the same way, times their lengths.',
  },
  {
    kind: 'scaled_dot',
    label: 'scaled dot',
    tex: String.raw`e_j = \frac{\mathbf{q}^{\top}\mathbf{k}_j}{\sqrt{d_k}}`,
    note: 'The dot product divided by √dₖ, so scores do not grow with the key size.',
  },
  {
    kind: 'general',
    label: 'general',
    tex: String.raw`e_j = \mathbf{q}^{\top} W \mathbf{k}_j`,
    note: "Luong's bilinear form: a learned matrix W relates query and key.",
  },
  {
    kind: 'additive',
    label: 'additive',
    tex: String.raw`e_j = \mathbf{v}^{\top}\tanh\!\left(W_q\,\mathbf{q} + W_k\,\mathbf{k}_j\right)`,
    note: "Bahdanau's small feed-forward network over query and key.",
  },
  {
    kind: 'cosine',
    label: 'cosine',
    tex: String.raw`e_j = \frac{\mathbf{q}^{\top}\mathbf{k}_j}{\lVert\mathbf{q}\rVert\,\lVert\mathbf{k}_j\rVert}`,
    note: 'The angle only: lengths divided out, so every score lies in [−1, 1].',
  },
  {
    kind: 'scaled_cosine',
    label: 'scaled cosine',
    tex: String.raw`e_j = g\,\frac{\mathbf{q}^{\top}\mathbf{k}_j}{\lVert\mathbf{q}\rVert\,\lVert\mathbf{k}_j\rVert}`,
    note: 'The cosine times a learned scale g (trained with the rest, starting at √dₖ): scores span [−g, g], so softmax can pick one key sharply.',
  },
  {
    // A decoder's only: it reads the previous step's weights, which the sandbox's one query lacks.
    kind: 'location',
    label: location.en.label,
    tex: String.raw`e_j = \mathbf{v}^{\top}\tanh\!\left(W_q\,\mathbf{q} + W_k\,\mathbf{k}_j + W_f\,\mathbf{f}_j + \mathbf{b}\right),\;\; \mathbf{f}_j = \left(F * \boldsymbol{\alpha}_{i-1}\right)_j`,
    note: location.en.note,
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
