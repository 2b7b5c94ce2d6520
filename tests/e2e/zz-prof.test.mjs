import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { scrollThrough, urlSettled } from './browser.mjs';
import { hashOf } from './decode-view.mjs';
import { DESKTOP, PHONE, useBrowser } from './fixture.mjs';
import { VIEW_STATES } from './views.mjs';
const fx = useBrowser();
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
test('prof', async () => {
  for (const view of VIEW_STATES.filter((v) => ['decode', 'self', 'caption', 'sandbox'].includes(v.name))) {
    const t = [performance.now()];
    const page = await fx.open(hashOf({ view: view.id, ...view.hash, lang: 'en' }), DESKTOP);
    t.push(performance.now());
    await view.ready(page);
    t.push(performance.now());
    await urlSettled(page);
    t.push(performance.now());
    await scrollThrough(page, 0);
    t.push(performance.now());
    await page.evaluate(AXE);
    await page.evaluate(
      async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations.length,
    );
    t.push(performance.now());
    const h = await page.evaluate(() => document.documentElement.scrollHeight);
    const n = await page.evaluate(() => document.querySelectorAll('*').length);
    await page.context().close();
    console.log(
      view.name,
      'h',
      h,
      'nodes',
      n,
      t
        .slice(1)
        .map((x, i) => Math.round(x - t[i]))
        .join(' '),
    );
  }
});
