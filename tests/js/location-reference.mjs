// Double-precision reference for the location score's features, computed straight from a
// checkpoint's bytes so that the engine's own loading and convolution are what is checked.
import assert from 'node:assert/strict';

/** The float32 tensor `name` of a .safetensors file, read straight from its bytes. */
export function tensor(bytes, name) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
  const [begin, end] = header[name].data_offsets;
  const data = bytes.slice(8 + headerLength + begin, 8 + headerLength + end);
  return { shape: header[name].shape, data: new Float32Array(data.buffer) };
}

/**
 * f[j][c] = Σ_t F[c][t] α[j + t − (r − 1)/2], α zero outside the source (for a picture, its cells
 * in reading order); row-major over j then c, as the engine's location matrix.
 */
export function convolve(filters, alpha) {
  const [kf, r] = filters.shape;
  const half = (r - 1) / 2;
  const n = alpha.length;
  const out = [];
  for (let j = 0; j < n; ++j)
    for (let c = 0; c < kf; ++c) {
      let sum = 0;
      for (let t = 0; t < r; ++t) {
        const m = j + t - half;
        if (m >= 0 && m < n) sum += filters.data[c * r + t] * alpha[m];
      }
      out.push(sum);
    }
  return out;
}

/** Asserts `actual` equals `expected` element by element within float32 rounding. */
export function assertClose(actual, expected, what) {
  assert.equal(actual.length, expected.length, what);
  for (let i = 0; i < expected.length; ++i)
    assert.ok(Math.abs(actual[i] - expected[i]) <= 1e-5 * (1 + Math.abs(expected[i])), `${what}[${i}]`);
}
