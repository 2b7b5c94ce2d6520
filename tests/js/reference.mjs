// Plain-JS, double-precision recomputation of the three attention stages from the same inputs
// and parameters, for checking what the engine returns. Matrices are {data, rows, cols}.

const dot = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
const norm = (a) => Math.sqrt(dot(a, a));
const row = (m, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));
const matvec = (m, x) => Array.from({ length: m.rows }, (_, i) => dot(row(m, i), x));

export function referenceScores(kind, query, keys, params) {
  return keys.map((key) => {
    switch (kind) {
      case 'dot':
        return dot(query, key);
      case 'scaled_dot':
        return dot(query, key) / Math.sqrt(key.length);
      case 'general':
        // qᵀ W k
        return dot(query, matvec(params.w, key));
      case 'additive': {
        // vᵀ tanh(W_q q + W_k k)
        const wq = matvec(params.w_q, query);
        const wk = matvec(params.w_k, key);
        return dot(
          Array.from(params.v),
          wq.map((x, i) => Math.tanh(x + wk[i])),
        );
      }
      case 'cosine':
        return dot(query, key) / (norm(query) * norm(key));
      case 'scaled_cosine':
        // g · cos(q, k)
        return (params.scale * dot(query, key)) / (norm(query) * norm(key));
      default:
        throw new Error(`no reference for ${kind}`);
    }
  });
}

export function referenceWeights(scores, temperature = 1, mask = scores.map(() => 1)) {
  const live = scores.map((s, j) => (mask[j] ? s / temperature : -Infinity));
  const top = Math.max(...live);
  const exps = live.map((s) => (Number.isFinite(s) ? Math.exp(s - top) : 0));
  const total = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / total);
}

export function referenceContext(weights, values) {
  return values[0].map((_, d) => weights.reduce((sum, w, j) => sum + w * values[j][d], 0));
}

/** The float32 tensors of a .safetensors file, by name: {data: Float32Array, shape}. */
export function readSafetensors(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerSize = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerSize)));
  const out = {};
  for (const [name, t] of Object.entries(header)) {
    if (name === '__metadata__' || t.dtype !== 'F32') continue;
    const [begin, end] = t.data_offsets;
    const raw = bytes.slice(8 + headerSize + begin, 8 + headerSize + end);
    out[name] = { data: new Float32Array(raw.buffer), shape: t.shape };
  }
  return out;
}
