// The browser tests' way into a run trained in the page: the Train view opened from a link with
// these fields, and Start pressed once the view can train what the link asks for.
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
