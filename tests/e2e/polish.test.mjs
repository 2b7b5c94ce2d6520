// A first-time learner's pass over the page: what confused or broke, each checked in headless
// Chromium. One browser and few page loads: each load serves several checks.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { afterFrame, launchBrowser, urlSettled, waitForStep } from './browser.mjs';
import { lowContrast } from './contrast.mjs';
import { serveBuild } from './static-server.mjs';

let server, browser;
const consoleErrors = [];

/** A fresh page at `hash` (1440 × 1000 unless told), its console errors collected. */
async function open(hash, viewport = { width: 1440, height: 1000 }) {
  const page = await browser.newPage({ viewport });
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => consoleErrors.push(String(e.stack)));
  await page.goto(`${server.url}index.html#${typeof hash === 'string' ? hash : new URLSearchParams(hash)}`);
  return page;
}

/** The boxes of the elements matching `selector`, rounded to pixels. */
const boxes = (page, selector) =>
  page.$$eval(selector, (els) =>
    els.map((el) => {
      const b = el.getBoundingClientRect();
      return { top: Math.round(b.top), bottom: Math.round(b.bottom), lines: el.getClientRects().length };
    }),
  );

const fields = async (page) => {
  await urlSettled(page);
  return new URLSearchParams(await page.evaluate(() => location.hash.slice(1)));
};

// The link the page wrote before links carried only what differs from the defaults: every field.
const OLD_LINK =
  'view=compare&task=zh&model=additive-bahdanau&input=tom+chase+jerry&step=0&k=3&kind=dot&t=1' +
  '&q=1%2C+0%2C+1%2C+0&tokens=%5B%5B%22Tom%22%2C%220.6%2C+0.2%2C+0.5%2C+0.1%22%2C%221%2C+0%2C+0%2C+1%22%2C1%5D%2C' +
  '%5B%22chase%22%2C%220%2C+1%2C+0%2C+0.5%22%2C%220%2C+1%2C+0%2C+1%22%2C1%5D%2C%5B%22Jerry%22%2C%220.5%2C+0.3' +
  '%2C+-0.5%2C+0.8%22%2C%220%2C+0%2C+1%2C+1%22%2C1%5D%5D&wi=m1%400&lang=en';

describe('a first-time learner’s pass', () => {
  before(async () => {
    [server, browser] = await Promise.all([serveBuild(), launchBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('Compare with one what-if, the nav at 1440 px and a former link', async () => {
    let page = await open(OLD_LINK);
    await page.locator('[data-testid^=whatif-list-]').waitFor({ timeout: 20_000 });
    const withName = await page.$eval('[data-testid^=whatif-list-]', (el) => el.dataset.testid);
    const noteOf = () => page.locator(`[data-testid="${withName}"]`);
    const outputOf = () => page.locator(`[data-testid="${withName.replace('whatif-list-', 'output-')}"]`);
    // "1 what-ifs: mask “chase” from step 1"
    assert.match(await noteOf().innerText(), /^1 what-if: mask “chase” from step 1$/);

    // the dashed "without what-ifs" pill broke onto two lines beside the model's name
    for (const tag of await boxes(page, '[data-testid^=whatif-tag-]')) {
      assert.equal(tag.lines, 1);
      assert.ok(tag.bottom - tag.top < 24, `a pill ${tag.bottom - tag.top} px high`);
    }

    // a name on two lines ("Transformer encoder · additive · Bahdanau") was centred in its card
    const align = await page.$$eval('section.model h3 button', (els) =>
      els.map((el) => getComputedStyle(el).textAlign),
    );
    assert.ok(align.length > 2 && align.every((a) => a === 'start'), align.join());

    // "Copy link" sat alone on a second line, under the tabs and the language switch
    const [tab] = await boxes(page, '[data-testid=view-decode]');
    const [langs] = await boxes(page, '[data-testid=lang-switch]');
    const [copy] = await boxes(page, '[data-testid=copy-link]');
    assert.ok(copy.top < tab.bottom && langs.top < tab.bottom, JSON.stringify({ tab, langs, copy }));
    // and "Link copied." appearing moved the nav
    const navBefore = await boxes(page, 'nav');
    await page.evaluate(() => {
      // no clipboard permission in headless Chromium: the failure's message shows in the same place
      Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.resolve() } });
    });
    await page.click('[data-testid=copy-link]');
    await page.locator('[data-testid=copied]').filter({ hasText: 'Link copied.' }).waitFor();
    assert.deepEqual(await boxes(page, 'nav'), navBefore);

    // The former link carried the Sandbox's untouched vectors, step=0 and k=3: the page writes
    // only what differs from its defaults (and the decoding views' task, model and input) ...
    const written = await fields(page);
    assert.deepEqual(
      [...written.keys()].sort(),
      ['input', 'lang', 'model', 'task', 'view', 'wi'],
      String(written),
    );
    assert.equal(written.get('wi'), 'm1@0');
    // ... and the short link opens the same state
    const output = await outputOf().innerText();
    assert.equal(output, '汤姆 杰瑞 杰瑞');
    await page.close();
    page = await open(String(written));
    assert.match(await noteOf().innerText(), /^1 what-if: mask “chase” from step 1$/);
    assert.equal(await outputOf().innerText(), output);
    await page.click('[data-testid=view-sandbox]');
    assert.equal(await page.locator('[data-testid=query]').inputValue(), '1, 0, 1, 0');

    // in Chinese: one what-if, and the tools still on the tabs' line
    await page.click('[data-testid=view-compare]');
    await page.click('[data-testid=lang-zh]');
    assert.match(await noteOf().innerText(), /^1 个假如：/);
    const [zhTab] = await boxes(page, '[data-testid=view-decode]');
    const [zhCopy] = await boxes(page, '[data-testid=copy-link]');
    assert.ok(zhCopy.top < zhTab.bottom);
    await page.close();
  });

  test('a phone: the tools, “1 more step”, Why attention’s progress and the tour’s first stop', async () => {
    const page = await open(
      { view: 'decode', task: 'zh', input: 'tom chase jerry', step: '2', lang: 'en' },
      { width: 375, height: 800 },
    );
    await waitForStep(page, 'zh-additive-bahdanau', 2);
    const [langs] = await boxes(page, '[data-testid=lang-switch]');
    const [copy] = await boxes(page, '[data-testid=copy-link]');
    assert.equal(langs.top, copy.top);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 375);
    // seven of the nine tabs lay past the screen's edge with a cut word as the only sign: the row
    // fades out at its end, and the last tab scrolls clear of the fade
    const row = await page.$eval('nav .tabs', (tabs) => {
      tabs.scrollLeft = tabs.scrollWidth;
      const last = tabs.lastElementChild?.getBoundingClientRect();
      return {
        mask: getComputedStyle(tabs).maskImage,
        gap: Math.round(tabs.getBoundingClientRect().right - (last?.right ?? 0)),
      };
    });
    assert.match(row.mask, /linear-gradient/);
    assert.ok(row.gap >= 30, `the last tab ends ${row.gap} px from the row's end`);
    assert.equal(
      await page.locator('[data-testid=output-tokens] .more').getAttribute('aria-label'),
      '1 more step',
    );

    // end » pressed from the keyboard disabled itself and dropped the focus to the page
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    await page.focus('[data-testid=end]');
    await page.keyboard.press('Enter');
    await waitForStep(page, 'zh-additive-bahdanau', 3);
    assert.equal(await focused(), 'back');
    await page.focus('[data-testid=start]');
    await page.keyboard.press('Enter');
    await waitForStep(page, 'zh-additive-bahdanau', 0);
    assert.equal(await focused(), 'step');

    // Why attention's progress rows: each row sized its own columns, so the bars had seven lengths
    await page.click('[data-testid=view-length]');
    await page
      .locator('[data-testid=length-progress-none] .overall')
      .filter({ hasText: '%' })
      .waitFor({ timeout: 20_000 });
    const bars = await page.$$eval('[data-testid=length-progress] progress', (els) =>
      els.map((el) => Math.round(el.getBoundingClientRect().width)),
    );
    assert.equal(new Set(bars).size, 1, bars.join());

    // the tour's first stop said "Step with →", on a phone that has no arrow keys
    await page.click('[data-testid=tour-start]');
    await page.locator('[data-testid=tour][data-stop="1"]').waitFor();
    const stepButton = (await page.locator('[data-testid=step]').innerText()).trim();
    assert.equal(stepButton, '▶');
    assert.ok((await page.locator('[data-testid=tour-lead]').innerText()).includes(`step ${stepButton}`));

    // the second stop (where the fixed vector fails) scrolled to the view's top: its chart lay
    // under the tour's panel
    await page.click('[data-testid=tour-next]');
    await page.locator('[data-testid=length-chart].tour-spot').waitFor({ timeout: 30_000 });
    await afterFrame(page, 200);
    const chart = await page.locator('[data-testid=length-chart]').boundingBox();
    const panel = await page.locator('[data-testid=tour]').boundingBox();
    assert.ok(
      chart && panel && chart.y >= 0 && chart.y + chart.height <= panel.y,
      JSON.stringify({ chart, panel }),
    );
    await page.close();
  });

  test('the baseline’s chosen style is legible, Self-attention’s hints read as sentences, the file picker has a name', async () => {
    const page = await open({ view: 'decode', task: 'zh', model: 'none-bahdanau', lang: 'en' });
    await waitForStep(page, 'zh-none-bahdanau', 0);
    // "Bahdanau (query sᵢ₋₁)", chosen but marked missing, was grey on the blue fill (about 1.4 : 1)
    assert.deepEqual(await lowContrast(page, '[data-testid=settings]'), []);

    await page.click('[data-testid=view-self]');
    const detail = page.locator('[data-testid=sa-readout] + .hint');
    const projections = page.locator('[data-testid=sa-proj-readout] + .hint');
    await projections.waitFor({ timeout: 20_000 });
    // "… its weightsand the output …", "… valueof this layer's record", and the card said
    // "Tap or hover a cell for its number." twice in a row
    assert.match(await detail.innerText(), /the weights its weights and the output its per-head context/);
    assert.match(await projections.innerText(), /query, key, value of this layer's record\.$/);
    const card = await page.locator('[data-testid=sa-readout]').locator('..').innerText();
    assert.equal(card.match(/for its number/g)?.length, 1, card);

    // the Caption view's file picker had no name for a screen reader ("button")
    await page.click('[data-testid=view-caption]');
    await page.locator('[data-testid=upload]').waitFor({ timeout: 20_000 });
    assert.match(await page.locator('[data-testid=upload]').ariaSnapshot(), /button "Your own image"/);
    await page.close();
  });

  // Caption's row had the words alone, Decode's and Listen's « ◀ ▶ »; they are one step bar now
  for (const v of [
    { view: 'decode', prefix: '', play: 'play', names: ['Step 1', 'Back', 'Step', 'Last step'] },
    {
      view: 'caption',
      prefix: 'caption-',
      play: 'caption-play',
      names: ['First word', 'Back', 'Step', 'Last word'],
    },
    {
      view: 'listen',
      prefix: 'listen-',
      play: 'listen-autoplay',
      names: ['First letter', 'Back', 'Step', 'Last letter'],
    },
  ]) {
    test(`${v.view}'s step bar: the same marks, names without them, the focus kept at the ends, a phone's marks alone`, async () => {
      const page = await open({ view: v.view, lang: 'en' });
      const root = page.locator(`[data-testid=${v.view}][data-step="0"]`);
      await root.waitFor({ timeout: 90_000 });
      const ids = ['start', 'back', 'step', 'end'].map((n) => `${v.prefix}${n}`);
      const texts = () =>
        Promise.all(ids.map(async (id) => (await page.locator(`[data-testid=${id}]`).innerText()).trim()));
      assert.deepEqual(await texts(), ['« start', '◀ back', 'step ▶', 'end »']);
      for (const [i, id] of ids.entries())
        assert.equal(
          await page.getByRole('button', { name: v.names[i], exact: true }).getAttribute('data-testid'),
          id,
        );
      assert.equal(
        await page.locator(`[data-testid=${ids[0]}]`).getAttribute('title'),
        `${v.names[0]} (Home)`,
      );
      const play = page.locator(`[data-testid=${v.play}]`);
      assert.equal(await play.getAttribute('aria-pressed'), 'false');
      assert.match(await play.innerText(), /^▶ play/);
      assert.equal((await page.locator(`[data-testid=${v.prefix}step-number]`).innerText()).trim(), '1');

      // end pressed from the keyboard disables itself: the focus goes to back, and start's to step
      const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
      await page.focus(`[data-testid=${ids[3]}]`);
      await page.keyboard.press('Enter');
      await page.locator(`[data-testid=${ids[3]}]:disabled`).waitFor();
      assert.equal(await focused(), ids[1]);
      await page.focus(`[data-testid=${ids[0]}]`);
      await page.keyboard.press('Enter');
      await root.waitFor();
      assert.equal(await focused(), ids[2]);

      await page.setViewportSize({ width: 375, height: 800 });
      assert.deepEqual(await texts(), ['«', '◀', '▶', '»']);
      assert.equal(await page.getByRole('button', { name: v.names[3], exact: true }).count(), 1);
      await page.close();
    });
  }

  test('no console errors', () => {
    assert.deepEqual(consoleErrors, []);
  });
});
