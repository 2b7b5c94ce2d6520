// One sweep over every view state (views.mjs) at a laptop's 1440 px in the light theme and a
// phone's 375 px in the dark one (the system's prefers-color-scheme), in English and then, switched
// in the page, in Chinese: each state is loaded once per width and every check that reads a whole
// drawn page runs on it. Nothing reaches past the screen's edge; axe-core's rules (WCAG 2.x A and
// AA and best practices) find no violation, at both widths in both languages; text meets
// WCAG AA contrast on the page's own colours (contrast.mjs, which also reads the heatmaps' cell
// numbers) in both themes; the Chinese interface leaves no English word outside the allow-list
// (english-left.mjs). A failure names the state, width and language, and a violation its rule,
// elements and summary.
// With APG_SHOTS set, each state's screenshots go there.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';

import { pageScreenshot, scrollThrough, urlSettled } from './browser.mjs';
import { lowContrast } from './contrast.mjs';
import { hashOf } from './decode-view.mjs';
import { englishWords } from './english-left.mjs';
import { DESKTOP, PHONE, useBrowser } from './fixture.mjs';
import { pastTheEdge } from './layout.mjs';
import { VIEW_STATES } from './views.mjs';

const fx = useBrowser();
// evaluated through the DevTools protocol: the page's Content Security Policy admits no inline script
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe's violations on the page as it is now, one line an element. */
async function violations(page) {
  // once a page: the Chinese pass is the same document
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
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

/** Every check on the page as drawn now, as "what: detail" lines (none when all is well). */
async function problems(page, width, lang) {
  // every part drawn, as for a reader scrolling down (cards off screen skip their layout)
  await urlSettled(page);
  await scrollThrough(page, 0);
  const found = [];
  const edge = await pastTheEdge(page);
  if (edge.scrollWidth !== width || edge.found.length) found.push(`past the edge: ${JSON.stringify(edge)}`);
  // axe in every pairing of width and language: a name that no longer holds its words, or a
  // target that shrinks, may show in one pairing only
  for (const line of await violations(page)) found.push(`axe: ${line}`);
  // contrast in each theme: the light one at 1440 px, the dark one at 375 px in Chinese
  if (width === 1440 || lang === 'zh')
    for (const text of await lowContrast(page)) found.push(`contrast under 4.5 : 1: ${text}`);
  if (width === 1440 && lang === 'zh')
    for (const word of await englishWords(page)) found.push(`English left: ${word}`);
  return found;
}

for (const view of VIEW_STATES)
  for (const [width, options, scheme] of [
    [1440, DESKTOP, 'light'],
    [375, { ...PHONE, colorScheme: 'dark' }, 'dark'],
  ])
    test(`${view.name} at ${width} px, in English and Chinese, ${scheme} theme`, async () => {
      const page = await fx.open(
        view.plain ? '' : hashOf({ view: view.id, ...view.hash, lang: 'en' }),
        options,
      );
      await view.ready(page);
      assert.equal(
        await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches),
        scheme === 'dark',
      );
      const found = (await problems(page, width, 'en')).map((p) => `en ${p}`);
      await pageScreenshot(page, `${view.name}-${width}-en`);
      await page.click('[data-testid=lang-zh]');
      await page.waitForFunction(() => document.documentElement.lang === 'zh');
      await view.ready(page);
      await page.evaluate(() => document.fonts.ready);
      found.push(...(await problems(page, width, 'zh')).map((p) => `zh ${p}`));
      await pageScreenshot(page, `${view.name}-${width}-zh`);
      assert.deepEqual(found, []);
    });
