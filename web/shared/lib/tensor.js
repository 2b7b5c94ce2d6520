// Reading the engine's n-d tensors ({data: Float32Array, shape}, row-major) by index. Indexing
// only: nothing here computes a model number.

/** The row-major offset of an index into a tensor of this shape. */
function offset(shape, index) {
  let at = 0;
  for (let k = 0; k < shape.length; k++) at = at * shape[k] + index[k];
  return at;
}

/** One element: at(t, h, i, j). */
export const at = (t, ...index) => t.data[offset(t.shape, index)];

/** The last axis at the leading indices, as a view: row(t, h, i) → Float32Array of shape[last]. */
export function row(t, ...index) {
  const length = t.shape[t.shape.length - 1];
  const start = offset(t.shape, [...index, 0]);
  return t.data.subarray(start, start + length);
}

/** The rows of the matrix at the leading indices: matrixRows(t, h) → n Float32Arrays. */
export function matrixRows(t, ...index) {
  const rows = t.shape[t.shape.length - 2];
  return Array.from({ length: rows }, (_, i) => row(t, ...index, i));
}

/** The last two axes at the leading indices, as a view: matrix(t, l, h) → {data, rows, cols}. */
export function matrix(t, ...index) {
  const [rows, cols] = t.shape.slice(-2);
  const start = offset(t.shape, [...index, 0, 0]);
  return { data: t.data.subarray(start, start + rows * cols), rows, cols };
}
