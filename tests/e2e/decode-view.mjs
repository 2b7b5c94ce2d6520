// What the decoding views show, read back from the page for comparison with the engine's records.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { formatNumber } from '../../web/shared/lib/format.js';
import { waitForStep } from './browser.mjs';

/** A link's hash: the Decode view unless `fields` names another, with `fields`. */
export const hashOf = (fields) => `#${new URLSearchParams({ view: 'decode', ...fields })}`;

/** Waits until the stepper shows step `i` of model `name`, then reads its numbers. */
export async function shownStep(page, name, i) {
  await waitForStep(page, name, i);
  return page.evaluate(() => {
    const read = (prefix) =>
      [...document.querySelectorAll(`[data-testid^="${prefix}-"]`)]
        .filter((el) => new RegExp(`^${prefix}-\\d+$`).test(el.dataset.testid))
        .map((el) => ({ value: Number(el.dataset.value), text: el.textContent.trim() }));
    return {
      scores: read('score'),
      weights: read('weight'),
      // the context strip is a canvas; its numbers are in data-values
      context: (document.querySelector('[data-testid=context]')?.dataset.values ?? '')
        .split(',')
        .filter((v) => v !== '')
        .map((v) => ({ value: Number(v) })),
      source: read('source'),
      output: [...document.querySelectorAll('[data-testid^="output-"]')]
        .filter((el) => /^output-\d+$/.test(el.dataset.testid))
        .map((el) => el.textContent.trim()),
    };
  });
}

/** The numbers shownStep read are the step record's, and written as the page writes numbers. */
export function assertStep(shown, record, what) {
  for (const stage of ['scores', 'weights', 'context'])
    assert.deepEqual(
      shown[stage].map((x) => x.value),
      Array.from(record[stage]),
      `${what}: ${stage} are the trace's`,
    );
  for (const stage of ['scores', 'weights'])
    assert.deepEqual(
      shown[stage].map((x) => x.text),
      Array.from(record[stage], formatNumber),
      `${what}: ${stage} as written`,
    );
  assert.deepEqual(
    shown.source.map((x) => x.value),
    Array.from(record.weights),
    `${what}: source tokens lit by weight`,
  );
}

/** The data-value of the heatmap cells `${testid}-${i}-${j}`, `rows` × `cols`. */
export function heatmapValues(page, testid, rows, cols) {
  return page.evaluate(
    ([testid, rows, cols]) =>
      Array.from({ length: rows }, (_, i) =>
        Array.from({ length: cols }, (_, j) =>
          Number(document.querySelector(`[data-testid="${testid}-${i}-${j}"]`)?.dataset.value),
        ),
      ),
    [testid, rows, cols],
  );
}

/** Clicks an export button and returns the download's suggested name and bytes. */
export async function download(page, testid) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=${testid}]`)]);
  return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
}

/** The first bytes of every PNG file. */
export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Labels of the SVGs matching `selector` that reach outside their SVG (none, when all fit). */
export const clippedLabels = (page, selector) =>
  page.$$eval(selector, (svgs) =>
    svgs.flatMap((svg) => {
      const box = svg.getBoundingClientRect();
      return [...svg.querySelectorAll('text')]
        .map((t) => ({ text: t.textContent, r: t.getBoundingClientRect() }))
        .filter(
          ({ r }) =>
            r.left < box.left - 1 ||
            r.right > box.right + 1 ||
            r.top < box.top - 1 ||
            r.bottom > box.bottom + 1,
        )
        .map(
          ({ text, r }) =>
            `${text} (${Math.round(r.left - box.left)}…${Math.round(r.right - box.left)} of ${Math.round(box.width)})`,
        );
    }),
  );

/**
 * The labels of an exported SVG file, drawn alone on `page`, that reach outside the SVG elements
 * matching `selector` (the file's own drawing unless told).
 */
export async function clippedInFile(page, text, selector = 'body > svg') {
  await page.setContent(text.replace(/^<\?xml[^>]*>/, ''));
  return clippedLabels(page, selector);
}

/**
 * Linked pointing: which source position each figure of the step lights up (null: none; "n lit"
 * when several), the formulas' tables' lit rows, and the readout. `scores` is the scores panel's
 * testid and `score` its bars' prefix (a Transformer head's: tx-scores-panel, tx-score).
 * @param {import('playwright-core').Page} page
 */
export function pointedFigures(page, { scores = 'scores-panel', score = 'score' } = {}) {
  return page.evaluate(
    ([scores, score]) => {
      const one = (selector, read) => {
        const found = [...document.querySelectorAll(selector)].map(read);
        return found.length === 1 ? found[0] : found.length ? `${found.length} lit` : null;
      };
      const last = (el) => Number(el.dataset.testid?.split('-').at(-1));
      const tables = [...document.querySelectorAll('[data-testid=formula-panel] table.terms')];
      return {
        source: one('[data-testid^=source-].pointed', last),
        scores: one(`[data-testid=${scores}] li.pointed [data-testid^=${score}-]`, last),
        weights: one('[data-testid=weights-panel] li.pointed [data-testid^=weight-]', last),
        heatmap: one('[data-testid=heatmap-pointed]', (el) => Number(el.getAttribute('data-j'))),
        // every table of the formulas (scores, softmax, the context's sum) lights one row: its token's
        formula: tables.map((t) =>
          [...t.querySelectorAll('tr.pointed th')].map((th) => th.textContent.trim()),
        ),
        readout: document.querySelector('[data-testid=pointed-readout]')?.textContent?.trim(),
      };
    },
    [scores, score],
  );
}

/** Waits until the heatmap (below the fold, a frame late) lights position `j`. */
export const heatmapPointed = (page, j) =>
  page.waitForFunction(
    (j) => document.querySelector('[data-testid=heatmap-pointed]')?.getAttribute('data-j') === String(j),
    j,
  );

/**
 * What pointedFigures gives with position `j` pointed at: every figure lights it, and the readout
 * names its token with the step's (or the head's) score and weight there.
 * @param {number} j @param {string} token as shown @param {number} score @param {number} weight
 */
export const litAt = (j, token, score, weight) => ({
  source: j,
  scores: j,
  weights: j,
  heatmap: j,
  readout: `“${token}” (position ${j + 1}): score e = ${formatNumber(score)} → weight α = ${formatNumber(weight)}`,
});
