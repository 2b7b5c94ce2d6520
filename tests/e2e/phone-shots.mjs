// Screenshots of every view at a phone's, a tablet's and two laptops' sizes, in English and Chinese,
// into the folder named on the command line (a look at them is part of changing the layout):
// node tests/e2e/phone-shots.mjs build/phone-shots [view …] (the whole Chromium: bash scripts/setup.sh browser)
// What reaches past the screen's edge is tests/e2e/layout.test.mjs's to find.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, scrollThrough, urlSettled } from './browser.mjs';
import { serveBuild } from './static-server.mjs';

const out = process.argv[2] ?? 'build/phone-shots';
const all = ['decode', 'compare', 'beam', 'self', 'sandbox', 'train', 'caption', 'length', 'listen'];
const views = process.argv.length > 3 ? process.argv.slice(3) : all;
const sizes = (process.env.SIZES ?? '375x800,768x1024,1024x768,1280x800')
  .split(',')
  .map((s) => s.split('x').map(Number));
const langs = (process.env.LANGS ?? 'en,zh').split(',');
mkdirSync(out, { recursive: true });

/**
 * The whole page in screenshots `piece` px high (a full phone page is too tall to look at in one):
 * scrolled through once first (scrollThrough of browser.mjs), and with the cards' skipping
 * of off-screen rendering (class lazy-paint) switched off for the pictures.
 */
async function pieces(page, stem, piece) {
  await scrollThrough(page, 0);
  const total = await page.evaluate(() => {
    for (const el of document.querySelectorAll('.lazy-paint'))
      /** @type {HTMLElement} */ (el).style.setProperty('content-visibility', 'visible', 'important');
    return document.documentElement.scrollHeight;
  });
  const width = page.viewportSize()?.width ?? 0;
  for (let y = 0, i = 0; y < total; y += piece, i++)
    await page.screenshot({
      path: `${stem}-${i}.png`,
      fullPage: true,
      clip: { x: 0, y, width, height: Math.min(piece, total - y) },
    });
}
const [server, browser] = await Promise.all([serveBuild(), launchBrowser()]);
try {
  for (const [width, height] of sizes)
    for (const lang of langs) {
      const phone = width < 640;
      const context = await browser.newContext({
        viewport: { width, height },
        hasTouch: phone,
        isMobile: phone,
      });
      for (const view of views) {
        const page = await context.newPage();
        page.on('console', (m) => m.type() === 'error' && console.log(view, 'console error:', m.text()));
        await page.goto(`${server.url}#view=${view}&lang=${lang}`);
        await page.waitForTimeout(['length', 'train', 'listen', 'caption'].includes(view) ? 5000 : 2500);
        await urlSettled(page);
        // the page cut into pieces a look can take in at once, each part shown as a reader scrolls
        await pieces(page, join(out, `${view}-${lang}-${width}`), Math.max(height, 1200));
        await page.close();
      }
      await context.close();
    }
} finally {
  await browser.close();
  await server.close();
}
