// Headless Debian Chromium through playwright-core.

import { accessSync, constants, mkdirSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';

const { chromium } = await import('playwright-core');

// Debian's Chromium. The browser tests run its headless shell (package chromium-headless-shell):
// the same Blink and V8 without the browser around them, so a page opens and renders in about half
// the CPU time (a browser file took 12 s instead of 22). The benchmarks and the screenshots run the
// whole browser, what a user runs. APG_CHROMIUM names another binary for both.
function chromiumPath(names) {
  if (process.env.APG_CHROMIUM) return process.env.APG_CHROMIUM;
  for (const dir of (process.env.PATH ?? '').split(delimiter))
    for (const name of names) {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return join(dir, name);
      } catch {
        // not here
      }
    }
  throw new Error(
    `none of ${names.join(', ')} on PATH: bash scripts/setup.sh installs the headless shell, bash scripts/setup.sh browser the whole browser`,
  );
}

/** Chromium, headless: `{ shell: true }` (the browser tests) starts the headless shell. */
export function launchBrowser({ shell = false } = {}) {
  return chromium.launch({
    executablePath: chromiumPath(shell ? ['chromium-headless-shell'] : ['chromium', 'chromium-browser']),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Collects the page's console errors and uncaught exceptions into `errors`, which a test asserts empty. */
export function watchConsole(page, errors) {
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
}

/** Opens `url` afresh: on the page already, going there would only change the hash and keep the state. */
export async function openFresh(page, url) {
  await page.goto('about:blank');
  await page.goto(url);
}

/**
 * Waits in the page for its next animation frame, then `ms` more on the page's own timers (which
 * fire in order, so a timer the page set before fires first). A frame that does not come within
 * a second counts as come: on a loaded CI machine Chromium once held a page's frames for minutes
 * and a wait on the frame alone, which Playwright does not time out, hung the run.
 * @param {import('playwright-core').Page} page
 * @param {number} ms
 */
export async function afterFrame(page, ms) {
  await page.evaluate(
    (ms) =>
      new Promise((resolve) => {
        const later = () => setTimeout(resolve, ms);
        const stalled = setTimeout(later, 1000);
        requestAnimationFrame(() => {
          clearTimeout(stalled);
          later();
        });
      }),
    ms,
  );
}

/**
 * Waits until the page has written its state into the URL: it does so URL_DELAY (250) ms after the
 * last change (web/shared/link/link.svelte.js); a later timer of the page fires after that one.
 */
export const urlSettled = (page) => afterFrame(page, 400);

/**
 * Scrolls the page through once, half a screen at a time, each part given two frames to draw (or
 * half a second, if frames stall), and back to `top` (where it was, when left out). Cards below
 * the fold skip rendering while off screen (`content-visibility: auto`, class lazy-paint) and the
 * formulas catch up with the step only when they come into view, as for a reader scrolling down.
 * @param {import('playwright-core').Page} page
 * @param {number} [top]
 */
export function scrollThrough(page, top) {
  return page.evaluate(async (top) => {
    const frame = () =>
      new Promise((resolve) => {
        const stalled = setTimeout(resolve, 500);
        requestAnimationFrame(() => requestAnimationFrame(() => (clearTimeout(stalled), resolve(undefined))));
      });
    const back = top ?? scrollY;
    for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
      scrollTo(0, y);
      await frame();
    }
    scrollTo(0, back);
    await frame();
  }, top);
}

/**
 * The folder screenshots go to, named by APG_SHOTS (created on first use), or null: screenshots
 * are for a person to look at, no test compares them, so a plain run writes none.
 */
export const shotsDir = process.env.APG_SHOTS ? resolve(process.env.APG_SHOTS) : null;

/** Where the screenshot `name` (with its extension) goes, or null when none is asked for. */
export function shotPath(name) {
  if (!shotsDir) return null;
  mkdirSync(shotsDir, { recursive: true });
  return join(shotsDir, name);
}

/**
 * A screenshot of a page's screen or an element, as `name`.png in the APG_SHOTS folder when one
 * is asked for.
 * @param {import('playwright-core').Page | import('playwright-core').Locator} target
 * @param {string} name
 * @param {{ fullPage?: boolean }} [options]
 */
export async function shot(target, name, options = {}) {
  const path = shotPath(`${name}.png`);
  if (path) await target.screenshot({ ...options, path });
}

/**
 * A full-page screenshot of everything a reader scrolling down would see, as `name`.png in the
 * APG_SHOTS folder when one is asked for: the page is scrolled through once (scrollThrough) and
 * the cards' skipping of off-screen rendering switched off for the picture.
 */
export async function pageScreenshot(page, name) {
  const path = shotPath(`${name}.png`);
  if (!path) return;
  await scrollThrough(page);
  // Set on each element (not by a <style> tag, which the page's Content-Security-Policy refuses).
  const lazy = (visible) =>
    page.evaluate((visible) => {
      for (const el of document.querySelectorAll('.lazy-paint')) {
        const style = /** @type {HTMLElement} */ (el).style;
        if (visible) style.setProperty('content-visibility', 'visible', 'important');
        else style.removeProperty('content-visibility');
      }
    }, visible);
  await lazy(true);
  await page.screenshot({ path, fullPage: true });
  await lazy(false);
}

/**
 * Waits until the decoding stepper shows step `i` of model `name` (and no stale result), the panels
 * below the fold included (they follow a step a moment late while off screen).
 */
export async function waitForStep(page, name, i, timeout = 20_000) {
  await page.waitForFunction(
    ([name, i]) => {
      const d = document.querySelector('[data-testid=decode]');
      return (
        d?.dataset.model === name &&
        d.dataset.step === String(i) &&
        !d.classList.contains('stale') &&
        !d.querySelector('[data-pending]')
      );
    },
    [name, i],
    { timeout },
  );
}
