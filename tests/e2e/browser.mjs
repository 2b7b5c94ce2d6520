// Headless Debian Chromium through playwright-core, launched the way TOOLCHAIN.md found to work.

// scripts/test.sh runs node with --no-experimental-fetch, which removes the fetch classes that
// playwright-core's bundle subclasses when it loads. The browser tests never use Playwright's
// own HTTP client, so empty stand-ins are enough; with the real classes present nothing changes.
for (const name of ['Headers', 'Request', 'Response']) globalThis[name] ??= class {};

const { chromium } = await import('playwright-core');

export function launchBrowser() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
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

/**
 * Waits until the page has written its state into the URL: it does so URL_DELAY (250) ms after the
 * last change (web/state/url.js); a later timer of the page fires after that one.
 */
export async function urlSettled(page) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 400))));
}
