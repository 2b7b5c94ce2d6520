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
