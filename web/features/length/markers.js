// The chart's point markers and line styles, one per model, so lines that lie on top of each other
// still show each model: a dash pattern and a marker shape of its own besides its colour.

/** The baseline first, then the score functions in the pickers' order. */
const STYLES = {
  none: { dash: '8 4', width: 5, marker: 'square' },
  dot: { dash: '', width: 2, marker: 'circle' },
  scaled_dot: { dash: '2 3', width: 2, marker: 'diamond' },
  general: { dash: '6 3', width: 2, marker: 'up' },
  additive: { dash: '', width: 2.5, marker: 'down' },
  cosine: { dash: '1 2', width: 2.5, marker: 'cross' },
  scaled_cosine: { dash: '10 3 2 3', width: 2, marker: 'left' },
  location: { dash: '4 2', width: 2, marker: 'right' },
};

/** @param {string} score */
export const lineStyle = (score) => STYLES[/** @type {keyof typeof STYLES} */ (score)] ?? STYLES.dot;

/**
 * A marker's outline centred at (x, y), about 2r across.
 * @param {string} shape
 * @param {number} x
 * @param {number} y
 * @param {number} r
 */
export function markerPath(shape, x, y, r) {
  const f = (n) => n.toFixed(1);
  const poly = (points) => `M${points.map(([px, py]) => `${f(x + px)},${f(y + py)}`).join('L')}Z`;
  if (shape === 'square')
    return poly([
      [-r, -r],
      [r, -r],
      [r, r],
      [-r, r],
    ]);
  if (shape === 'diamond')
    return poly([
      [0, -1.3 * r],
      [1.3 * r, 0],
      [0, 1.3 * r],
      [-1.3 * r, 0],
    ]);
  if (shape === 'up')
    return poly([
      [0, -1.3 * r],
      [1.2 * r, r],
      [-1.2 * r, r],
    ]);
  if (shape === 'down')
    return poly([
      [0, 1.3 * r],
      [1.2 * r, -r],
      [-1.2 * r, -r],
    ]);
  if (shape === 'left')
    return poly([
      [-1.3 * r, 0],
      [r, -1.2 * r],
      [r, 1.2 * r],
    ]);
  if (shape === 'right')
    return poly([
      [1.3 * r, 0],
      [-r, -1.2 * r],
      [-r, 1.2 * r],
    ]);
  if (shape === 'cross') {
    const w = 0.45 * r;
    return poly([
      [-w, -r * 1.2],
      [w, -r * 1.2],
      [w, -w],
      [r * 1.2, -w],
      [r * 1.2, w],
      [w, w],
      [w, r * 1.2],
      [-w, r * 1.2],
      [-w, w],
      [-r * 1.2, w],
      [-r * 1.2, -w],
      [-w, -w],
    ]);
  }
  return `M${f(x - r)},${f(y)}a${f(r)},${f(r)} 0 1,0 ${f(2 * r)},0a${f(r)},${f(r)} 0 1,0 ${f(-2 * r)},0Z`;
}
