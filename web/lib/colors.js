// Colour scales (d3): sequential for weights in [0, 1], diverging around 0 for signed numbers.
import { scaleDiverging, scaleSequential } from 'd3-scale';
import { interpolateBlues, interpolateRdBu } from 'd3-scale-chromatic';

/** weight in [0, 1] → a blue, light to dark; starts a little above white so 0 is still visible. */
export const weightColor = scaleSequential((t) => interpolateBlues(0.08 + 0.85 * t)).domain([0, 1]);

/** A diverging scale symmetric around 0 for the given numbers: red below, blue above. */
export function signedColor(numbers) {
  let extent = 0;
  for (const x of numbers) if (Math.abs(x) > extent) extent = Math.abs(x);
  if (extent === 0) extent = 1;
  // RdBu runs red → blue; the 0.15 margins keep the ends readable under dark text.
  return scaleDiverging((t) => interpolateRdBu(0.15 + 0.7 * t)).domain([-extent, 0, extent]);
}

/** Black or white text, whichever reads better on the colour. */
export function textOn(color) {
  const match = /rgb\((\d+), (\d+), (\d+)\)/.exec(color);
  if (!match) return '#111';
  const [r, g, b] = match.slice(1).map(Number);
  return 0.299 * r + 0.587 * g + 0.114 * b < 140 ? '#fff' : '#111';
}
