// Colour scales (d3's colour schemes): sequential blues for weights in [0, 1], diverging red–blue
// around 0 for signed numbers, each in a light and a dark theme's version (theme.svelte.js). A step
// recolours hundreds of cells, so each scheme is sampled once into a table of 1025 colours (steps
// of 1/1024 of the scheme: no visible difference) and a colour is a table look-up instead of an
// interpolation and a new string. Both themes' scales stay ordered in lightness and their ends
// apart for the common colour-vision deficiencies (tests/web/shared/lib/colors.test.mjs simulates them).
import { interpolateLab, piecewise } from 'd3-interpolate';
import { interpolateBlues, interpolateRdBu } from 'd3-scale-chromatic';

import { theme } from '../theme.svelte.js';
import { BASELINE_COLORS, scoreFunctions } from './score-functions.js';

const STEPS = 1024;
const sample = (scheme) => Array.from({ length: STEPS + 1 }, (_, i) => scheme(i / STEPS));
// Light: Blues starts a little above white so 0 is still visible; RdBu's 0.15 margins keep its
// ends readable under dark text. Dark: the same blues the other way round, a weight of 0 a deep
// blue just off the card and 1 nearly white, and a red–blue scale through the card's grey, so that
// in both themes more weight stands out more from the page. A theme's tables are sampled when it is
// first drawn in: a light page never samples the dark ones.
const SCHEMES = {
  light: {
    weights: (t) => interpolateBlues(0.08 + 0.85 * t),
    signed: (t) => interpolateRdBu(0.15 + 0.7 * t),
  },
  dark: {
    weights: (t) => interpolateBlues(0.93 - 0.85 * t),
    signed: piecewise(interpolateLab, [interpolateRdBu(0.22), '#30363e', interpolateRdBu(0.8)]),
  },
};
/** @type {Record<string, { weights: string[], signed: string[] }>} */
const sampled = {};
/** The sampled scales of theme `name` ('light' or 'dark'). */
export function scalesOf(name) {
  return (sampled[name] ??= {
    weights: sample(SCHEMES[name].weights),
    signed: sample(SCHEMES[name].signed),
  });
}
const scales = () => scalesOf(theme.dark ? 'dark' : 'light');
const look = (table, t) => table[Math.round(Math.min(1, Math.max(0, t)) * STEPS)];

/** weight in [0, 1] → a blue that stands out more from the page the larger the weight. */
export function weightColor(w) {
  return Number.isFinite(w) ? look(scales().weights, w) : undefined;
}

/** The line colour of score function `score` in the theme of the moment ('none': the fixed-vector baseline's). */
export function scoreColor(score) {
  const colors = score === 'none' ? BASELINE_COLORS : scoreFunctions.find((f) => f.kind === score)?.colors;
  return colors ? colors[theme.dark ? 1 : 0] : theme.dark ? '#e4e8ec' : '#1b1f24';
}

/**
 * A diverging scale symmetric around 0 for the given numbers: red below, blue above.
 * `.domain()` gives [−extent, 0, extent].
 */
export function signedColor(numbers) {
  let extent = 0;
  for (const x of numbers) if (Math.abs(x) > extent) extent = Math.abs(x);
  if (extent === 0) extent = 1;
  const table = scales().signed;
  const color = (x) => (Number.isFinite(x) ? look(table, (x / extent + 1) / 2) : undefined);
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
