// The page's own colours in both themes (web/shared/lib/colors.js, score-functions.js), seen as
// people with the common colour-vision deficiencies see them: each colour is passed through
// Machado, Oliveira and Fernandes's (2009) simulation of protanopia, deuteranopia and tritanopia
// at full severity (in linear RGB), then compared in CIELAB (ΔE*ab; about 2.3 is the smallest
// difference one notices, and two line colours ~20 apart are told apart at a glance). The weights'
// scale must stay ordered in lightness and span most of it, the signed scale's two sides must stay
// apart from each other and from its middle, and the score functions' line colours with the
// baseline's must stay pairwise apart and show on the theme's card.
import '../../support/svelte.mjs';

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

const { luminance, scalesOf } = await import('../../../../web/shared/lib/colors.js');
const { BASELINE_COLORS, scoreFunctions } = await import('../../../../web/shared/lib/score-functions.js');

// rows: simulated linear R, G, B from the original's (Machado et al. 2009, severity 1.0)
const VISIONS = {
  normal: [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};
// the cards' colours (styles.css: --paper in each theme)
const PAPER = { light: '#ffffff', dark: '#1c2128' };

/** '#rrggbb' or 'rgb(r, g, b)' → [r, g, b] in 0–255 */
function channels(color) {
  if (color.startsWith('#')) return [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16));
  const m = /rgb\((\d+), (\d+), (\d+)\)/.exec(color);
  assert.ok(m, color);
  return m.slice(1).map(Number);
}
const linear = (v) => ((v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);

/** CIELAB (D65) of `color` as seen with `vision`. */
function lab(color, vision = 'normal') {
  const c = channels(color).map(linear);
  const [r, g, b] = VISIONS[vision].map((row) =>
    Math.min(1, Math.max(0, row[0] * c[0] + row[1] * c[1] + row[2] * c[2])),
  );
  const X = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const Y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const Z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  return [116 * f(Y) - 16, 500 * (f(X) - f(Y)), 200 * (f(Y) - f(Z))];
}
const deltaE = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** WCAG 2's contrast ratio of two colours, from the page's own luminance (colors.js). */
function contrast(a, b) {
  const [hi, lo] = [a, b].map((c) => luminance(...channels(c))).sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const at = (table, t) => table[Math.round(t * (table.length - 1))];

describe('the simulation', () => {
  test('turns red and green into one colour for a deuteranope and keeps them apart for a tritanope', () => {
    // a check that the matrices are the right way round: the classic confusion pair of red–green
    // colour blindness (~2 apart with deuteranopia), which tritanopia leaves far apart
    const [red, green] = ['#b3261e', '#7a5c00'];
    assert.ok(deltaE(lab(red, 'deuteranopia'), lab(green, 'deuteranopia')) < 5);
    assert.ok(deltaE(lab(red, 'tritanopia'), lab(green, 'tritanopia')) > 15);
    assert.ok(deltaE(lab(red), lab(green)) > 20);
  });
});

for (const themeName of ['light', 'dark']) {
  const scales = scalesOf(themeName);
  const dark = themeName === 'dark';
  describe(`the ${themeName} theme`, () => {
    for (const vision of Object.keys(VISIONS)) {
      test(`weights: lightness ordered and spanning at least 45 of L*, with ${vision}`, () => {
        const L = Array.from({ length: 11 }, (_, k) => lab(at(scales.weights, k / 10), vision)[0]);
        for (let k = 1; k < L.length; k++)
          // more weight stands out more: darker on the light card, lighter on the dark one
          assert.ok(
            dark ? L[k] > L[k - 1] + 1 : L[k] < L[k - 1] - 1,
            `${vision}: ${L.map((l) => l.toFixed(1))}`,
          );
        assert.ok(Math.abs(L[10] - L[0]) >= 45, `${vision}: ${L[0].toFixed(1)} to ${L[10].toFixed(1)}`);
        // a weight of 0 is still a cell, apart from the card
        assert.ok(deltaE(lab(at(scales.weights, 0), vision), lab(PAPER[themeName], vision)) >= 4);
      });

      test(`signed numbers: the two sides apart from each other and from 0, with ${vision}`, () => {
        const [low, mid, high] = [0, 0.5, 1].map((t) => lab(at(scales.signed, t), vision));
        assert.ok(deltaE(low, high) >= 25, `${vision}: ends ${deltaE(low, high).toFixed(1)} apart`);
        for (const end of [low, high]) assert.ok(deltaE(end, mid) >= 25, `${vision}: an end and 0`);
        // halfway to either end is still on its side
        const [q1, q3] = [0.25, 0.75].map((t) => lab(at(scales.signed, t), vision));
        assert.ok(deltaE(q1, q3) >= 15, `${vision}: ±half ${deltaE(q1, q3).toFixed(1)} apart`);
      });

      test(`the score functions' and the baseline's lines are pairwise apart, with ${vision}`, () => {
        const colors = [
          ...scoreFunctions.map((f) => [f.kind, f.colors[dark ? 1 : 0]]),
          ['baseline', BASELINE_COLORS[dark ? 1 : 0]],
        ];
        // the closest pair, named
        let closest = { d: Infinity, pair: '' };
        for (let i = 0; i < colors.length; i++)
          for (let j = i + 1; j < colors.length; j++) {
            const d = deltaE(lab(colors[i][1], vision), lab(colors[j][1], vision));
            if (d < closest.d) closest = { d, pair: `${colors[i][0]} and ${colors[j][0]}` };
          }
        assert.ok(closest.d >= 18, `${vision}: ${closest.pair} only ${closest.d.toFixed(1)} apart`);
      });
    }

    test('every line colour is at least 3 : 1 on the card, as a 2 px line needs (WCAG 1.4.11)', () => {
      const colors = [...scoreFunctions.map((f) => f.colors[dark ? 1 : 0]), BASELINE_COLORS[dark ? 1 : 0]];
      for (const c of colors)
        assert.ok(contrast(c, PAPER[themeName]) >= 3, `${c}: ${contrast(c, PAPER[themeName])}`);
    });
  });
}

test('the cards’ colours here are styles.css’s', async () => {
  const { readFileSync } = await import('node:fs');
  const css = readFileSync(new URL('../../../../web/shared/styles.css', import.meta.url), 'utf8');
  const [light, dark] = css.split('prefers-color-scheme: dark');
  assert.match(light, new RegExp(`--paper: ${PAPER.light};`));
  assert.match(dark, new RegExp(`--paper: ${PAPER.dark};`));
});
