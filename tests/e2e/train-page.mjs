// The browser tests' way into a run trained in the page: the Train view opened from a link with
// these fields, and Start pressed once the view can train what the link asks for.
import assert from 'node:assert/strict';

import { chunkReport, digest } from '../js/training-reference.mjs';
import { openFresh } from './browser.mjs';

/**
 * Opens the Train view with the link fields `fields` (tr-task, tr-scores, …) and waits until Start
 * is enabled and every score function the link names is checked and enabled. Start alone is not
 * enough: before the trainer's task info has come the form offers a fallback list, which has no
 * location, so a location run must wait for the engine's list.
 */
export async function openTrain(page, serverUrl, fields = {}) {
  await openFresh(page, `${serverUrl}#${new URLSearchParams({ view: 'train', ...fields })}`);
  await page.waitForSelector('[data-testid=train-start]:not([disabled])', { timeout: 60_000 });
  for (const score of fields['tr-scores']?.split(',') ?? [])
    await page.waitForSelector(`[data-testid=train-score-${score}]:checked:not([disabled])`, {
      timeout: 60_000,
    });
}

/** On a phone Train's settings are folded into their one-line summary: opens them (else nothing). */
export async function showTrainSettings(page) {
  if (!(await page.locator('[data-testid=train-start]').isVisible()))
    await page.click('[data-testid=settings-summary]');
}

/** Presses Start and waits until the run of every score function in `scores` is done. */
export async function trainUntilDone(page, scores, timeout = 240_000) {
  await page.click('[data-testid=train-start]');
  await page.waitForFunction(
    (scores) =>
      scores.every(
        (s) => document.querySelector(`[data-testid=run-${s}]`)?.getAttribute('data-status') === 'done',
      ),
    scores,
    { timeout },
  );
}

/** openTrain, then trainUntilDone for the link's score functions. */
export async function trainInPage(page, serverUrl, fields, timeout = 240_000) {
  await openTrain(page, serverUrl, fields);
  await trainUntilDone(page, fields['tr-scores'].split(','), timeout);
}

/**
 * A race's runs, in the order they started, as the page's Workers reported them: each report is the
 * golden run's over the chunk of steps the Worker took, and each evaluation is the golden's.
 * @param {{ scores: string[], steps: number }} run a race of training-reference.mjs's RUNS
 * @param {Record<string, { steps: any[], evaluations: any[] }>} want its golden figures
 * @returns the runs' reports and evaluations, for the test's own checks
 */
export async function assertRaceAsGolden(page, run, want) {
  const sent = await page.evaluate(() =>
    [...globalThis.trainRunData.values()].map((d) => ({
      reports: d.reports,
      evaluations: d.evaluations.map((e) => ({
        step: e.step,
        heldoutExactMatch: e.heldoutExactMatch,
        examples: e.examples,
        source: e.probe.source,
        output: e.probe.output,
        weights: Array.from(e.probe.weights),
      })),
    })),
  );
  assert.equal(sent.length, run.scores.length);
  const fields = ['step', 'sequences', 'loss', 'tokenAccuracy', 'gradNorm', 'learningRate', 'done'];
  const pick = (p) => Object.fromEntries(fields.map((f) => [f, p[f]]));
  for (const [k, score] of run.scores.entries()) {
    const { reports, evaluations } = sent[k];
    assert.equal(reports.at(-1).step, run.steps);
    let at = 0;
    for (const report of reports) {
      assert.deepEqual(
        pick(report),
        pick(chunkReport(want[score].steps, at, report.step)),
        `${score}: the report at step ${report.step}`,
      );
      at = report.step;
    }
    assert.deepEqual(
      evaluations.map((e) => ({ ...e, weights: digest(e.weights) })),
      want[score].evaluations,
      score,
    );
    const shown = await page.locator(`[data-testid=run-${score}-loss]`).getAttribute('data-value');
    assert.equal(Number(shown), reports.at(-1).loss);
  }
  return sent;
}
