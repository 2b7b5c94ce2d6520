// Takes the README's picture of the page, docs/decode.png: the Decode view on "tom chase jerry" at
// its second step, in headless Chromium against the built page (node_modules/.bin/vite build
// first; the whole Chromium: bash scripts/setup.sh browser). Retake it when the page's look changes:
//   node scripts/front-page-shot.mjs
import { fileURLToPath } from 'node:url';

import { launchBrowser, waitForStep } from '../tests/e2e/browser.mjs';
import { serveBuild } from '../tests/e2e/static-server.mjs';

const out = fileURLToPath(new URL('../docs/decode.png', import.meta.url));
const [server, browser] = await Promise.all([serveBuild(), launchBrowser()]);
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  const link = new URLSearchParams({
    view: 'decode',
    task: 'zh',
    model: 'additive-bahdanau',
    input: 'tom chase jerry',
    step: '1',
    lang: 'en',
  });
  await page.goto(`${server.url}#${link}`);
  await waitForStep(page, 'zh-additive-bahdanau', 1, 60_000);
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await server.close();
}
