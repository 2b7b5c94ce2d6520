// A composed scene as the page keeps it and as the link carries it. The page only moves the
// description around (objects, their shape, colour, size and centre in the input's pixels); the
// engine draws it and captions what it drew.
//
//   #view=caption&scene=circle.red.small.16.20_square.blue.large.44.40
import { Text } from '../../shared/i18n/translate.js';
import captionDict from './strings.js';

/** @typedef {{ shape: string, color: string, size: string, x: number, y: number }} SceneObject */
/**
 * The engine's words and sizes: `radius` is each size's half-width in pixels (an object's box is
 * its centre ± radius).
 * @typedef {{ shapes: string[], colors: string[], sizes: string[], radius: Record<string, number>,
 *   imageSize: number, maxObjects: number }} SceneVocabulary
 */

/**
 * The scene the view starts from when the link names none, in the engine's first words: a small
 * circle well above a large square (the caption's order is then clearly top to bottom).
 * @param {SceneVocabulary} vocab
 */
export function defaultScene(vocab) {
  const n = vocab.imageSize;
  const at = (f) => Math.round(n * f);
  return [
    { shape: vocab.shapes[0], color: vocab.colors[0], size: vocab.sizes[0], x: at(0.5), y: at(0.22) },
    {
      shape: vocab.shapes[1 % vocab.shapes.length],
      color: vocab.colors[2 % vocab.colors.length],
      size: vocab.sizes[vocab.sizes.length - 1],
      x: at(0.44),
      y: at(0.72),
    },
  ];
}

/** The engine's scene description: "small red circle at 16,7; large blue square at 14,23". */
export const describeScene = (objects) =>
  objects.map((o) => `${o.size} ${o.color} ${o.shape} at ${Math.round(o.x)},${Math.round(o.y)}`).join('; ');

/** @param {SceneObject[]} objects */
export const writeScene = (objects) =>
  objects.map((o) => [o.shape, o.color, o.size, Math.round(o.x), Math.round(o.y)].join('.')).join('_');

/**
 * A centre coordinate kept where an object of `size` stays inside the image (the engine refuses a
 * scene whose object leaves it).
 * @param {number} v
 * @param {string} size
 * @param {SceneVocabulary} vocab
 */
export function insideImage(v, size, vocab) {
  const r = vocab.radius[size] ?? 0;
  return Math.max(r, Math.min(vocab.imageSize - 1 - r, Math.round(v)));
}

/**
 * Whether an object of `size` centred at (x, y) would share a pixel of its box with one of
 * `objects` other than the i-th: the one drawn later would cover it, and the caption could name
 * an object the learner cannot see.
 * @param {SceneObject[]} objects
 * @param {number} i the object that moves (−1: a new one)
 * @param {string} size
 * @param {number} x
 * @param {number} y
 * @param {SceneVocabulary} vocab
 */
export function overlapsOther(objects, i, size, x, y, vocab) {
  const r = vocab.radius[size] ?? 0;
  return objects.some((o, k) => {
    const reach = r + (vocab.radius[o.size] ?? 0);
    return k !== i && Math.abs(o.x - x) <= reach && Math.abs(o.y - y) <= reach;
  });
}

/**
 * The free centre for object `i` at `size` nearest (x, y) (by straight-line distance; of two as
 * near, the first row by row), inside the image, or null when there is none.
 * @param {SceneObject[]} objects
 * @param {number} i
 * @param {string} size
 * @param {number} x
 * @param {number} y
 * @param {SceneVocabulary} vocab
 * @returns {{ x: number, y: number } | null}
 */
export function nearestFree(objects, i, size, x, y, vocab) {
  let best = null;
  let bestDistance = Infinity;
  // ring d holds the places d pixels away along a row or a column; none nearer than d lies beyond it
  for (let d = 0; d < vocab.imageSize && d * d <= bestDistance; d++)
    for (let dy = -d; dy <= d; dy++)
      for (let dx = -d; dx <= d; dx++) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) !== d) continue;
        const [px, py] = [insideImage(x + dx, size, vocab), insideImage(y + dy, size, vocab)];
        const distance = (px - x) ** 2 + (py - y) ** 2;
        if (distance < bestDistance && !overlapsOther(objects, i, size, px, py, vocab)) {
          best = { x: px, y: py };
          bestDistance = distance;
        }
      }
  return best;
}

/**
 * The objects a link's `scene` names, each checked against the engine's words and the image's
 * size; what is not a scene goes into `notes` (the page shows them) and is left out. An object
 * whose box reaches an earlier one's moves to the nearest free place, with a note: drawn over it,
 * it would hide it while the caption still named it.
 * @param {string} text
 * @param {SceneVocabulary} vocab
 * @param {(string | Text)[]} notes
 * @returns {SceneObject[] | null} null when the link holds no usable object
 */
export function readScene(text, vocab, notes) {
  const objects = [];
  const parts = String(text).split('_').filter(Boolean);
  for (const part of parts.slice(0, vocab.maxObjects)) {
    const [shape, color, size, x, y] = part.split('.');
    const nx = Number(x);
    const ny = Number(y);
    const r = vocab.radius[size] ?? 0;
    const inside = (v) => Number.isInteger(v) && v >= r && v < vocab.imageSize - r;
    if (
      vocab.shapes.includes(shape) &&
      vocab.colors.includes(color) &&
      vocab.sizes.includes(size) &&
      inside(nx) &&
      inside(ny)
    ) {
      if (!overlapsOther(objects, -1, size, nx, ny, vocab))
        objects.push({ shape, color, size, x: nx, y: ny });
      else {
        const free = nearestFree(objects, -1, size, nx, ny, vocab);
        if (free) objects.push({ shape, color, size, ...free });
        notes.push(
          new Text(captionDict, free ? 'movedObject' : 'noRoom', {
            part: part.slice(0, 40),
            x: free?.x,
            y: free?.y,
          }),
        );
      }
    } else notes.push(new Text(captionDict, 'badObject', { part: part.slice(0, 40), size: vocab.imageSize }));
  }
  if (parts.length > vocab.maxObjects) notes.push(new Text(captionDict, 'tooMany', { n: vocab.maxObjects }));
  return objects.length ? objects : null;
}

/** A free spot for a new object: the centre of the first cell of a coarse grid no object is near. */
export function freeSpot(objects, size) {
  const step = size / 4;
  let best = { x: size / 2, y: size / 2, d: -1 };
  for (let gy = step / 2; gy < size; gy += step)
    for (let gx = step / 2; gx < size; gx += step) {
      const d = Math.min(Infinity, ...objects.map((o) => Math.hypot(o.x - gx, o.y - gy)));
      if (d > best.d) best = { x: gx, y: gy, d };
    }
  return { x: Math.round(best.x), y: Math.round(best.y) };
}

/** "a1" … "h8": a grid cell's name, column letter then row number (row 1 at the top). */
export const cellName = (i, cols) => `${String.fromCharCode(97 + (i % cols))}${Math.floor(i / cols) + 1}`;
