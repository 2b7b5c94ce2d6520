// The automated accessibility rules (axe-core, the WCAG 2.x A and AA rules and best practices) over
// every view, at 1440 and 375 px, in English and Chinese, each view in a state that shows its parts
// (views.mjs): no violation anywhere. A violation is listed with the rule, the elements and axe's
// summary of what is wrong, so a failure reads without a rerun.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';

import { scrollThrough, urlSettled } from './browser.mjs';
import { hashOf } from './decode-view.mjs';
import { DESKTOP, PHONE, useBrowser } from './fixture.mjs';
import { VIEW_STATES } from './views.mjs';

const fx = useBrowser();
// evaluated through the DevTools protocol: the page's Content Security Policy admits no inline script
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The violations of the page as it is now, one line an element. */
async function violations(page) {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    // @ts-ignore axe is the script just added
    const result = await window.axe.run(document, {
      resultTypes: ['violations'],
      // experimental in axe, and the rule a voice user meets: a name holds the words shown
      rules: { 'label-content-name-mismatch': { enabled: true } },
    });
    return result.violations.flatMap((v) =>
      v.nodes.map(
        (n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary?.split('\n')[1]?.trim()}`,
      ),
    );
  });
}

const VIEWS = VIEW_STATES.filter((v) => v.name === v.id);

for (const view of VIEWS)
  test(`${view.name}: no axe violations at 1440 and 375 px, in English and Chinese`, async () => {
    const found = [];
    for (const [width, options] of [
      [1440, DESKTOP],
      [375, PHONE],
    ])
      for (const lang of ['en', 'zh']) {
        const page = await fx.open(hashOf({ view: view.id, ...view.hash, lang }), options);
        await view.ready(page);
        await urlSettled(page);
        // every part drawn (cards off screen skip their layout until near)
        await scrollThrough(page, 0);
        for (const line of await violations(page)) found.push(`${width} ${lang} ${line}`);
        await page.context().close();
      }
    assert.deepEqual(found, []);
  });

test('the first Tab stop skips to the step buttons, and the next Tab is one of them', async () => {
  const page = await fx.open(hashOf({ view: 'decode', task: 'zh', input: 'tom chase jerry', lang: 'en' }));
  await page.waitForSelector('[data-testid=decode]');
  await page.keyboard.press('Tab');
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement;
      return el?.getAttribute('data-testid') ?? el?.getAttribute('role') ?? el?.tagName ?? '';
    });
  assert.equal(await focused(), 'skip-link');
  assert.equal(await page.locator('[data-testid=skip-link]').innerText(), 'Skip to the step buttons');
  await page.keyboard.press('Enter');
  assert.equal(await focused(), 'group');
  await page.keyboard.press('Tab');
  assert.match(await focused(), /^(reset|start|back|play|step|end)$/);
  assert.equal(new URL(page.url()).hash.includes('main'), false, 'the link’s state stays in the address');
});
