// The page's layout at a phone's, a tablet's and laptops' sizes, in headless Chromium, each checked
// by its geometry: no heatmap scrolls into blank space, the nav keeps to one line, a touch screen
// gets no keyboard hints and targets a finger can hit. (Nothing past the screen's edge and text
// contrast in every view state: every-view.test.mjs; a view's own layout checks are in its file.)
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { afterFrame, urlSettled, waitForStep } from './browser.mjs';
import { hashOf } from './decode-view.mjs';
import { DESKTOP, PHONE, useBrowser } from './fixture.mjs';
import { lineCount } from './layout.mjs';

const fx = useBrowser();
const LONG = 'tom chased jerry in the kitchen yesterday';

/** Every card of Compare has its decode (they finish one by one). */
const compareDone = (page) =>
  page.waitForFunction(
    () =>
      document.querySelectorAll('section.card[data-testid^="compare-"]').length > 0 &&
      [...document.querySelectorAll('section.card[data-testid^="compare-"]')].every((card) =>
        card.querySelector('[data-testid^="output-"]'),
      ),
    null,
    { timeout: 40_000 },
  );

test('on a phone no heatmap scrolls sideways into blank space', async () => {
  const p = await fx.open(hashOf({ task: 'zh', model: 'additive-bahdanau', input: LONG }), {
    viewport: { width: 375, height: 800 },
  });
  const blank = () =>
    p.$$eval('figure.heatmap', (figures) =>
      figures.flatMap((figure) => {
        const out = [];
        for (let el = figure; el && el !== document.body; el = el.parentElement) {
          const overflow = getComputedStyle(el).overflowX;
          if ((overflow === 'auto' || overflow === 'scroll') && el.scrollWidth > el.clientWidth + 1) {
            const svg = figure.querySelector('svg')?.getBoundingClientRect().width ?? 0;
            out.push(
              `${figure.dataset.testid}: scrolls to ${el.scrollWidth} px in ${el.clientWidth} (drawing ${Math.round(svg)})`,
            );
          }
        }
        return out;
      }),
    );
  await waitForStep(p, 'zh-additive-bahdanau', 0);
  await p.locator('[data-testid=heatmap]').scrollIntoViewIfNeeded();
  await afterFrame(p, 500);
  assert.deepEqual(await blank(), [], 'Decode');
  await p.click('[data-testid=view-compare]');
  await compareDone(p);
  await afterFrame(p, 500);
  assert.deepEqual(await blank(), [], 'Compare');
  await p.click('[data-testid=view-beam]');
  await p.waitForSelector('[data-testid=beam-heatmap] svg', { timeout: 30_000 });
  assert.deepEqual(await blank(), [], 'Beam');
});

test('a phone: the tools, “1 more step”, Why attention’s progress and the tour’s first stop', async () => {
  const boxes = (p, selector) =>
    p.$$eval(selector, (els) =>
      els.map((el) => {
        const b = el.getBoundingClientRect();
        return { top: Math.round(b.top), bottom: Math.round(b.bottom), lines: el.getClientRects().length };
      }),
    );
  const page = await fx.open(
    `index.html#${new URLSearchParams({ view: 'decode', task: 'zh', input: 'tom chase jerry', step: '2', lang: 'en' })}`,
    { viewport: { width: 375, height: 800 } },
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
});

test('no keyboard hints on a touch screen; a laptop keeps them', async () => {
  // a phone folds a view's inputs into a one-line summary: opened, as a reader would
  const unfold = async (page) => {
    const summary = page.locator('[data-testid=settings-summary]');
    if (await summary.isVisible()) await summary.click();
  };
  const seen = async (options) => {
    const page = await fx.open({ view: 'decode', task: 'zh', lang: 'en' }, options);
    await page.waitForSelector('[data-testid=score-additive]', { state: 'attached', timeout: 30_000 });
    await unfold(page);
    const picker = await page
      .locator('fieldset', { has: page.locator('[data-testid=score-additive]') })
      .innerText();
    const touch = await page.evaluate(() => matchMedia('(hover: none) and (pointer: coarse)').matches);
    await page.click('[data-testid=view-self]');
    const about = page.locator('[data-testid=sa-about]');
    await about.waitFor({ timeout: 30_000 });
    const self = await about.innerText();
    await page.click('[data-testid=view-sandbox]');
    await page.waitForSelector('[data-testid=query]', { state: 'attached', timeout: 30_000 });
    await unfold(page);
    await page.locator('[data-testid=query]').waitFor();
    const sandbox = await page.locator('main').innerText();
    await page.context().close();
    return { touch, picker, self, sandbox };
  };
  const phone = await seen(PHONE);
  assert.equal(phone.touch, true);
  // "Score function (keys 1–7)" and a digit on each pill: a phone has no keys to press
  assert.doesNotMatch(phone.picker, /keys|\b[1-7]\b/, phone.picker);
  assert.match(phone.picker, /dot/);
  assert.doesNotMatch(phone.self, /Keys:|←/, phone.self);
  assert.doesNotMatch(phone.sandbox, /keys 1–/);

  const laptop = await seen(DESKTOP);
  assert.equal(laptop.touch, false);
  assert.match(laptop.picker, /keys 1–7/);
  assert.match(laptop.picker, /\b1\b[^]*\b7\b/);
  assert.match(laptop.self, /Keys: ←\/→ token, ↑\/↓ head\./);
  assert.match(laptop.sandbox, /keys 1–/);
});

test('Listen’s and Caption’s keyboard hints: none on a touch screen; a laptop lists the keys that work', async () => {
  const keysOf = async (options) => {
    const page = await fx.open({ view: 'listen', lcmp: '0', lang: 'en' }, options);
    await page.waitForSelector('[data-testid=listen-keys]', { state: 'attached', timeout: 60_000 });
    const listen = await page.locator('[data-testid=listen-keys]').isVisible();
    const listenText = await page.locator('[data-testid=listen-keys]').textContent();
    await page.click('[data-testid=view-caption]');
    await page.waitForSelector('[data-testid=caption-keys]', { state: 'attached', timeout: 60_000 });
    const caption = await page.locator('[data-testid=caption-keys]').isVisible();
    const captionText = await page.locator('[data-testid=caption-keys]').textContent();
    await page.context().close();
    return { listen, listenText, caption, captionText };
  };
  const phone = await keysOf(PHONE);
  assert.equal(phone.listen, false, 'Listen’s keys shown on a phone');
  assert.equal(phone.caption, false, 'Caption’s keys shown on a phone');
  const laptop = await keysOf(DESKTOP);
  assert.equal(laptop.listen, true);
  assert.equal(laptop.caption, true);
  // Decode's keys: the shipped speech models' score functions (no cosine: no key 5) …
  assert.match(laptop.listenText ?? '', /1–4, 6, 7 pick the score function/);
  // … and the scene models' five
  assert.match(laptop.captionText ?? '', /1–5 pick the score function/);
});

test('the nav on one line from 1024 px, in English and Chinese; the tools end the tabs’ line below', async () => {
  // one page a language (Compare: its tab, the one marked current, is the widest), its window resized
  for (const lang of ['en', 'zh']) {
    const page = await fx.open({ view: 'compare', lang }, { viewport: { width: 1024, height: 700 } });
    await page.waitForSelector('[data-testid=view-listen]');
    await urlSettled(page);
    for (const width of [1024, 1100, 1279, 1280, 1399, 1440]) {
      await page.setViewportSize({ width, height: 700 });
      await afterFrame(page);
      const nav = await page.evaluate(() => {
        const box = (el) => {
          const b = el.getBoundingClientRect();
          return { top: Math.round(b.top), bottom: Math.round(b.bottom), right: Math.round(b.right) };
        };
        const items = [...document.querySelectorAll('nav .tab, nav [data-testid=lang-switch], nav .copy')];
        return {
          centres: items.map((el) => (box(el).top + box(el).bottom) / 2),
          right: Math.max(...items.map((el) => box(el).right)),
          names: [...document.querySelectorAll('nav .tab')].map((el) => el.getAttribute('aria-label')),
          shown: [...document.querySelectorAll('nav .tab')].map(
            (el) => /** @type {HTMLElement} */ (el).innerText,
          ),
          copy: document.querySelector('[data-testid=copy-link]')?.getAttribute('aria-label'),
          copyWidth: Math.round(
            document.querySelector('[data-testid=copy-link]')?.getBoundingClientRect().width ?? 0,
          ),
          copyHeight: Math.round(
            document.querySelector('[data-testid=copy-link]')?.getBoundingClientRect().height ?? 0,
          ),
        };
      });
      const where = `${lang} at ${width} px: ${JSON.stringify(nav)}`;
      // one line: every tab and tool centred on the same height
      assert.equal(lineCount(nav.centres), 1, where);
      assert.ok(nav.right <= width, where);
      // a shortened tab ("Decode") keeps its whole name for a screen reader; the link icon its name
      assert.equal(nav.names[0], lang === 'en' ? 'Decode step by step' : '逐步解码', where);
      assert.ok(nav.shown[0] === nav.names[0] || nav.names[0].startsWith(nav.shown[0]), where);
      assert.equal(nav.copy, lang === 'en' ? 'Copy link' : '复制链接', where);
      assert.ok(nav.copyWidth >= 24 && nav.copyHeight >= 24, where);
    }
    await page.context().close();
  }

  // a tablet: the tabs take two lines and the tools end the second, not a third of their own
  const page = await fx.open({ view: 'compare', lang: 'en' }, { viewport: { width: 768, height: 1024 } });
  await page.waitForSelector('[data-testid=view-listen]');
  const centres = await page.evaluate(() =>
    [...document.querySelectorAll('nav .tab, nav .tools')].map((el) => {
      const box = el.getBoundingClientRect();
      return (box.top + box.bottom) / 2;
    }),
  );
  assert.equal(lineCount(centres), 2, centres.join());
  await page.context().close();
});

test('a finger’s targets on a phone are 24 px high at least: sliders, selects, Compare’s model names', async () => {
  const heights = async (hash, selector) => {
    const page = await fx.open(hash, PHONE);
    await page.waitForSelector(selector, { state: 'attached', timeout: 30_000 });
    const summary = page.locator('[data-testid=settings-summary]');
    if (await summary.isVisible()) await summary.click();
    const found = await page.$$eval(selector, (els) =>
      els.map(
        (el) =>
          `${el.getAttribute('data-testid') ?? el.textContent} ${Math.round(el.getBoundingClientRect().height)}`,
      ),
    );
    await page.context().close();
    return found;
  };
  const low = (list) => list.filter((entry) => Number(entry.split(' ').at(-1)) < 24);
  // the step slider (22 px), the what-if weights and τ (16 px)
  const decode = await heights({ view: 'decode', task: 'zh', lang: 'en' }, 'input[type=range]');
  assert.ok(decode.length >= 5, decode.join());
  assert.deepEqual(low(decode), []);
  // a model card's name, the button that chooses it (22 px)
  const compare = await heights({ view: 'compare', task: 'zh', lang: 'en' }, 'section.model h3 button');
  assert.ok(compare.length >= 9, compare.join());
  assert.deepEqual(low(compare), []);
  // the beam width (19 px)
  const beam = await heights({ view: 'beam', task: 'zh', lang: 'en' }, 'select');
  assert.ok(beam.length >= 1);
  assert.deepEqual(low(beam), []);
});

test('a finger’s targets on a phone: Caption’s object numbers, the model names in Listen’s and Caption’s side-by-side cards', async () => {
  const sizes = async (hash, selector) => {
    const page = await fx.open(hash, PHONE);
    await page.waitForSelector(selector, { state: 'attached', timeout: 60_000 });
    const summary = page.locator('[data-testid=settings-summary]');
    if (await summary.isVisible()) await summary.click();
    const found = await page.$$eval(selector, (els) =>
      els.map((el) => {
        const b = el.getBoundingClientRect();
        return { text: el.textContent, width: Math.round(b.width), height: Math.round(b.height) };
      }),
    );
    await page.context().close();
    return found;
  };
  const small = (list) => list.filter((b) => b.width < 24 || b.height < 24);
  // the object's number: 22 px wide
  const objects = await sizes({ view: 'caption', lang: 'en' }, 'button.pick');
  assert.ok(objects.length >= 2, JSON.stringify(objects));
  assert.deepEqual(small(objects), []);
  // a side-by-side card's model name: 19 px high
  const listen = await sizes({ view: 'listen', lang: 'en' }, '[data-testid=listen-compare-panel] .link');
  assert.ok(listen.length >= 2, JSON.stringify(listen));
  assert.deepEqual(small(listen), []);
  const caption = await sizes(
    { view: 'caption', ccmp: '1', lang: 'en' },
    '[data-testid=caption-compare-panel] .link',
  );
  assert.ok(caption.length >= 2, JSON.stringify(caption));
  assert.deepEqual(small(caption), []);
});

test('asked for less motion, nothing on the page moves by itself; otherwise the spinner turns', async () => {
  const page = await fx.open(hashOf({ task: 'zh', model: 'additive-bahdanau', input: 'tom chase jerry' }), {
    reducedMotion: 'reduce',
  });
  await waitForStep(page, 'zh-additive-bahdanau', 0);
  // the busy indicator every view shows while the engine, a model or a decode loads
  const motion = () =>
    page.evaluate(() => {
      const spinner = document.createElement('span');
      spinner.className = 'spinner';
      document.body.append(spinner);
      const style = getComputedStyle(spinner);
      const found = {
        spinner: style.animationName,
        running: document
          .getAnimations()
          .map((a) => (a.effect?.target instanceof Element ? a.effect.target.className : '')),
      };
      spinner.remove();
      return found;
    });
  assert.deepEqual(await motion(), { spinner: 'none', running: [] });
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  assert.deepEqual(await motion(), { spinner: 'spin', running: ['spinner'] });
});

test('asked for less motion, the other views hold still too: Caption, Listen, the tour, and Train while it trains (its spinner does not turn)', async () => {
  const page = await fx.page({ reducedMotion: 'reduce' });
  const still = async (what) => {
    await afterFrame(page, 100);
    const found = await page.evaluate(() => ({
      running: document
        .getAnimations()
        .map((a) => (a.effect?.target instanceof Element ? a.effect.target.className : '?')),
      scroll: getComputedStyle(document.documentElement).scrollBehavior,
    }));
    assert.deepEqual(found, { running: [], scroll: 'auto' }, what);
  };
  for (const [hash, ready] of [
    [{ view: 'caption' }, '[data-testid=caption][data-model]'],
    [{ view: 'listen' }, '[data-testid=listen][data-model]'],
    [{ tour: '3' }, '[data-testid=tour] [data-testid=tour-leave]'],
  ]) {
    await page.goto('about:blank');
    await page.goto(fx.link(hashOf({ ...hash, lang: 'en' })));
    await page.waitForSelector(ready, { state: 'attached', timeout: 60_000 });
    await still(JSON.stringify(hash));
  }
  await page.goto('about:blank');
  await page.goto(
    fx.link(
      hashOf({ view: 'train', 'tr-task': 'dates', 'tr-scores': 'dot', 'tr-steps': '20000', lang: 'en' }),
    ),
  );
  await page.waitForSelector('[data-testid=train-start]:not([disabled])', { timeout: 60_000 });
  await page.click('[data-testid=train-start]');
  await page.waitForSelector('[data-testid=run-dot-heatmap]', { timeout: 60_000 });
  await still('Train, training');
  await page.click('[data-testid=train-cancel]');
});
