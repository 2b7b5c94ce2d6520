// Colour scales (d3's colour schemes): sequential blues for weights in [0, 1], diverging red–blue
// around 0 for signed numbers. A step recolours hundreds of cells, so each scheme is sampled once
// into a table of 1025 colours (steps of 1/1024 of the scheme: no visible difference) and a
// colour is a table look-up instead of an interpolation and a new string.
import { interpolateBlues, interpolateRdBu } from 'd3-scale-chromatic';

const STEPS = 1024;
const sample = (scheme) => Array.from({ length: STEPS + 1 }, (_, i) => scheme(i / STEPS));
// Blues starts a little above white so 0 is still visible; RdBu's 0.15 margins keep its ends
// readable under dark text.
const BLUES = sample((t) => interpolateBlues(0.08 + 0.85 * t));
const RDBU = sample((t) => interpolateRdBu(0.15 + 0.7 * t));
const look = (table, t) => table[Math.round(Math.min(1, Math.max(0, t)) * STEPS)];

/** weight in [0, 1] → a blue, light to dark. */
export function weightColor(w) {
  return Number.isFinite(w) ? look(BLUES, w) : undefined;
}

/**
 * A diverging scale symmetric around 0 for the given numbers: red below, blue above.
 * `.domain()` gives [−extent, 0, extent].
 */
export function signedColor(numbers) {
  let extent = 0;
  for (const x of numbers) if (Math.abs(x) > extent) extent = Math.abs(x);
  if (extent === 0) extent = 1;
  const color = (x) => (Number.isFinite(x) ? look(RDBU, (x / extent + 1) / 2) : undefined);
  color.domain = () => [-extent, 0, extent];
  return color;
}

const inks = new Map();
/** WCAG 2's relative luminance of an sRGB colour (0–255 channels). */
export function luminance(r, g, b) {
  const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
}

/**
 * Black or white text, whichever has the higher WCAG contrast on the colour: at least 4.58 : 1 on
 * any colour (pure black is needed for that; #111 leaves mid-blues at 4.35).
 */
export function textOn(color) {
  let ink = inks.get(color);
  if (ink === undefined) {
    const match = /rgb\((\d+), (\d+), (\d+)\)/.exec(color);
    if (match) {
      const [r, g, b] = match.slice(1).map(Number);
      const l = luminance(r, g, b);
      ink = (1 + 0.05) / (l + 0.05) > (l + 0.05) / 0.05 ? '#fff' : '#000';
    } else ink = '#111';
    if (inks.size < 5000) inks.set(color, ink);
  }
  return ink;
}
