// What the formula panels (decode, caption, listen) write out of a step record the same way: a
// number in TeX, the softmax's worked example for one position, and for a long source the
// positions with the largest weights, the others summed up. Only the record's numbers are read
// and arranged; nothing is computed that the engine did not give.

import { formatFloat32 } from '../lib/format.js';

/** A step's τ as written (the float32 the engine used, shortest), '' for τ = 1 (no what-if). */
export const temperatureText = (/** @type {{ temperature?: number | null }} */ record) =>
  record.temperature != null && record.temperature !== 1 ? formatFloat32(record.temperature) : '';

/**
 * A softmax term's exponent as the engine took it: e − m, or (e − m)/τ at a τ ≠ 1.
 * @param {{ temperature?: number | null }} record
 * @param {string} e @param {string} m
 * @param {string} [tau] τ as written (the record's number without it, '\tau' for the symbol)
 */
export function exponentTex(record, e, m, tau = temperatureText(record)) {
  return temperatureText(record) ? String.raw`(${e} - ${m})/${tau}` : `${e} - ${m}`;
}

/** A number in TeX: three decimals, a dash when it is not finite. */
export const texNumber = (x) => (Number.isFinite(x) ? Number(x).toFixed(3) : '\\text{–}');

/**
 * The softmax of position `j` written out with the record's numbers, α_j = exp((e_j − m)/τ) / Z =
 * exps[j] / expSum = weights[j] (/τ only at a τ ≠ 1); '' when the record has no exponentials (the engine gives them
 * with the step).
 * @param {{ scores: ArrayLike<number>, weights: ArrayLike<number>, maxScore?: number,
 *           exps?: ArrayLike<number> | null, expSum?: number | null, temperature?: number | null }} record
 * @param {number} j
 * @param {string} label α's subscript in TeX
 * @param {string} denominator the softmax's sum in TeX
 */
export function softmaxExampleTex(record, j, label, denominator) {
  if (!record.exps || record.expSum == null) return '';
  const exponent = exponentTex(record, texNumber(record.scores[j]), texNumber(record.maxScore));
  return String.raw`\alpha_{${label}} = \frac{\exp(${exponent})}{${denominator}} = \frac{${texNumber(record.exps[j])}}{${texNumber(record.expSum)}} = ${texNumber(record.weights[j])}`;
}

/**
 * The `count` positions of the largest weights, in that order, and the others with their share of
 * the weight and of the exponentials' sum (null without exponentials): what a panel writes out
 * term by term and what it sums up in one line.
 * @param {{ weights: ArrayLike<number>, exps?: ArrayLike<number> | null }} record
 * @param {number} count
 */
export function topTerms(record, count) {
  const order = Array.from({ length: record.weights.length }, (_, j) => j).sort(
    (a, b) => record.weights[b] - record.weights[a],
  );
  const rest = order.slice(count);
  const exps = record.exps;
  return {
    best: order[0],
    top: order.slice(0, count),
    rest,
    restWeight: rest.reduce((s, j) => s + record.weights[j], 0),
    restExp: exps ? rest.reduce((s, j) => s + exps[j], 0) : null,
  };
}
