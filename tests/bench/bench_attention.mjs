// Plain JavaScript baseline for the "sdpa" rows of bench_attention.cpp: the same three stages on
// Float32Arrays, written the straightforward way (no SIMD, no blocking), at the same sizes.
import { emit, timeNs } from './timer.mjs';

// Q: nq × d, K: nk × d, V: nk × dv, all row-major. Writes scores, weights (nq × nk), context (nq × dv).
function attention(q, k, v, nq, nk, d, dv, scale, scores, weights, context) {
  for (let i = 0; i < nq; i++) {
    let max = -Infinity;
    for (let j = 0; j < nk; j++) {
      let s = 0;
      for (let p = 0; p < d; p++) s += q[i * d + p] * k[j * d + p];
      s *= scale;
      scores[i * nk + j] = s;
      if (s > max) max = s;
    }
    let sum = 0;
    for (let j = 0; j < nk; j++) {
      const e = Math.exp(scores[i * nk + j] - max);
      weights[i * nk + j] = e;
      sum += e;
    }
    for (let j = 0; j < nk; j++) weights[i * nk + j] /= sum;
    for (let c = 0; c < dv; c++) context[i * dv + c] = 0;
    for (let j = 0; j < nk; j++) {
      const w = weights[i * nk + j];
      for (let c = 0; c < dv; c++) context[i * dv + c] += w * v[j * dv + c];
    }
  }
}

function randomArray(n, seed) {
  // A small linear congruential generator: deterministic inputs in [-1, 1).
  const a = new Float32Array(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    a[i] = (x / 2 ** 32) * 2 - 1;
  }
  return a;
}

const impl = process.argv[2] ?? 'js';
const sizes = [
  [1, 16, 64],
  [1, 128, 256],
  [64, 64, 64],
  [256, 256, 64],
  [512, 512, 128],
];
for (const [nq, nk, d] of sizes) {
  const q = randomArray(nq * d, 1);
  const k = randomArray(nk * d, 2);
  const v = randomArray(nk * d, 3);
  const scores = new Float32Array(nq * nk);
  const weights = new Float32Array(nq * nk);
  const context = new Float32Array(nq * d);
  const scale = 1 / Math.sqrt(d);
  const ns = timeNs(() => attention(q, k, v, nq, nk, d, d, scale, scores, weights, context));
  emit('sdpa', `(${nq},${nk},${d})`, impl, ns, 4 * nq * nk * d);
}
