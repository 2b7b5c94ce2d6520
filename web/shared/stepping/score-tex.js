// The score functions of the speech models in TeX, for KaTeX: the page's own for the content-based
// ones, and location-aware attention, whose score also reads location features f_j made by
// convolving the previous letter's weights α_{i−1} with learned filters F.
import { decoderScoreTex } from '../lib/formulas.js';

// Two lines, so the stage panel's column holds it.
const LOCATION = String.raw`\begin{gathered}e_j = \mathbf{v}^{\top}\tanh\!\left(W_q\,\mathbf{s}_{i-1} + W_k\,\mathbf{h}_j + W_f\,\mathbf{f}_j + \mathbf{b}\right)\\ \mathbf{f} = F * \boldsymbol{\alpha}_{i-1}\end{gathered}`;

/** The score function of a speech model (score `kind`, `style`) as the decoder computes it. */
export function listenScoreTex(kind, style) {
  return kind === 'location' ? LOCATION : decoderScoreTex(kind, style);
}
