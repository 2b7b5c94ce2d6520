// Screenshots of every stop of the guided tour, in English and Chinese, at 1440 × 1000 and at
// 375 × 800, into the folder named on the command line (a look at them is part of changing the
// tour): node tests/e2e/tour-shots.mjs build/tour-shots (the whole Chromium: bash scripts/setup.sh browser)
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, urlSettled } from './browser.mjs';
import { serveBuild } from './static-server.mjs';

const out = process.argv[2] ?? 'build/tour-shots';
mkdirSync(out, { recursive: true });
const [server, browser] = await Promise.all([serveBuild(), launchBrowser()]);
try {
  for (const [width, height] of [
    [1440, 1000],
    [375, 800],
  ])
    for (const lang of ['en', 'zh']) {
      const page = await browser.newPage({ viewport: { width, height } });
      page.on('console', (m) => m.type() === 'error' && console.log('console error:', m.text()));
      await page.goto(`${server.url}#tour=1&lang=${lang}`);
      for (let stop = 1; stop <= 8; stop++) {
        await page.waitForSelector(`[data-testid=tour][data-stop="${stop}"]`);
        // the stop's numbers (the length chart's come once its Worker has evaluated the models)
        await page.waitForSelector('[data-testid=tour-fact]', { timeout: 20_000 }).catch(() => {});
        await page.waitForTimeout(1500);
        await urlSettled(page);
        await page.screenshot({ path: join(out, `stop${stop}-${lang}-${width}.png`) });
        if (stop < 8) await page.click('[data-testid=tour-next]');
      }
      await page.close();
    }
} finally {
  await browser.close();
  await server.close();
}
