// The page on a phone (375 × 800, touch), a tablet (768 × 1024) and small laptops (1024 to 1399
// px wide), in headless Chromium: what broke there, each checked by its geometry. The screenshots
// behind these checks come from tests/e2e/phone-shots.mjs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { launchBrowser, urlSettled } from './browser.mjs';
import { serveBuild } from './static-server.mjs';

let server, browser;
const consoleErrors = [];

const PHONE = { viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true };
const LAPTOP = { viewport: { width: 1440, height: 1000 } };

/** A fresh page at `hash` in a context of its own (`options`: viewport, touch), errors collected. */
async function open(hash, options) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => consoleErrors.push(String(e.stack)));
  await page.goto(`${server.url}index.html#${new URLSearchParams(hash)}`);
  return page;
}

/**
 * The lines a text takes: its text nodes' line boxes, told apart by their tops (an element's own
 * box is one rectangle however many lines its text wraps onto).
 */
const linesOf = (page, selector) =>
  page.$$eval(selector, (els) =>
    els.map((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const tops = new Set(
        [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
      );
      return tops.size;
    }),
  );

/** How many lines the centres `ys` lie on (centres less than 12 px apart share one). */
const lineCount = (ys) =>
  [...ys].sort((a, b) => a - b).filter((y, i, sorted) => i === 0 || y - sorted[i - 1] > 12).length;

/** Whether some element of the page reaches past the viewport's right edge unclipped. */
const pastTheEdge = (page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found = [];
    for (const el of document.querySelectorAll('body *')) {
      const box = el.getBoundingClientRect();
      if (!box.width || box.right <= width + 0.5) continue;
      // inside a box that scrolls or clips within the screen it does not widen the page
      let clipped = false;
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        const { overflowX } = getComputedStyle(up);
        if (overflowX !== 'visible' && up.getBoundingClientRect().right <= width + 0.5) {
          clipped = true;
          break;
        }
      }
      if (!clipped) found.push(`${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''}`);
    }
    return { scrollWidth: document.documentElement.scrollWidth, width, found: found.slice(0, 5) };
  });

describe('the page on a phone and a small laptop', () => {
  before(async () => {
    [server, browser] = await Promise.all([serveBuild(), launchBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('Compare’s ranking on a phone: every model’s name whole on one line, the page no wider', async () => {
    const page = await open({ view: 'compare', task: 'zh', lang: 'en' }, PHONE);
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=compare-ranking] li').length >= 9,
      null,
      {
        timeout: 30_000,
      },
    );
    const rows = await page.$$eval('[data-testid=compare-ranking] li', (els) =>
      els.map((li) => {
        const code = /** @type {HTMLElement} */ (li.querySelector('code'));
        const pct = /** @type {HTMLElement} */ (li.querySelector('.pct'));
        const [name, share] = [code.getBoundingClientRect(), pct.getBoundingClientRect()];
        return {
          full: li.getAttribute('data-name'),
          title: code.title,
          shown: code.innerText,
          cut: code.scrollWidth > code.clientWidth,
          overlap: name.right > share.left,
          right: Math.round(li.getBoundingClientRect().right),
        };
      }),
    );
    // "zh-additive-bahdanau-transformer" broke after "additive-" and "bahdanau-"
    assert.deepEqual(
      await linesOf(page, '[data-testid=compare-ranking] code'),
      rows.map(() => 1),
    );
    for (const row of rows) {
      // the task's prefix, the same for every row, is what a phone leaves out; the title keeps it
      assert.equal(row.title, row.full);
      assert.equal(`zh-${row.shown}`, row.full);
      assert.ok(!row.cut && !row.overlap, JSON.stringify(row));
      assert.ok(row.right <= 375, JSON.stringify(row));
    }
    assert.ok(rows.some((row) => row.full === 'zh-additive-bahdanau-transformer'));
    // the best model's row stays one line: its rank is marked instead of a badge beside the share
    // (the word kept for a screen reader)
    const best = await page.$eval('[data-testid=compare-ranking] li.best', (li) => ({
      centres: ['.rank', 'code', '.pct'].map((s) => {
        const box = /** @type {Element} */ (li.querySelector(s)).getBoundingClientRect();
        return (box.top + box.bottom) / 2;
      }),
      rank: getComputedStyle(/** @type {Element} */ (li.querySelector('.rank'))).backgroundColor,
      word: li.querySelector('.badge')?.textContent,
    }));
    assert.deepEqual([lineCount(best.centres), best.rank, best.word], [1, 'rgb(31, 111, 58)', 'best']);
    assert.deepEqual(await pastTheEdge(page), { scrollWidth: 375, width: 375, found: [] });
    await page.context().close();

    // a laptop's card shows the whole name
    const wide = await open({ view: 'compare', task: 'zh', lang: 'en' }, LAPTOP);
    await wide.waitForSelector('[data-testid=compare-ranking] li[data-name=zh-dot-bahdanau]', {
      timeout: 30_000,
    });
    assert.equal(
      await wide.locator('[data-testid=compare-ranking] li[data-name=zh-dot-bahdanau] code').innerText(),
      'zh-dot-bahdanau',
    );
    await wide.context().close();
  });

  test('no keyboard hints on a touch screen; a laptop keeps them', async () => {
    // a phone folds a view's inputs into a one-line summary: opened, as a reader would
    const unfold = async (page) => {
      const summary = page.locator('[data-testid=settings-summary]');
      if (await summary.isVisible()) await summary.click();
    };
    const seen = async (options) => {
      const page = await open({ view: 'decode', task: 'zh', lang: 'en' }, options);
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

    const laptop = await seen(LAPTOP);
    assert.equal(laptop.touch, false);
    assert.match(laptop.picker, /keys 1–7/);
    assert.match(laptop.picker, /\b1\b[^]*\b7\b/);
    assert.match(laptop.self, /Keys: ←\/→ token, ↑\/↓ head\./);
    assert.match(laptop.sandbox, /keys 1–/);
  });

  test('Listen’s and Caption’s keyboard hints: none on a touch screen; a laptop lists the keys that work', async () => {
    const keysOf = async (options) => {
      const page = await open({ view: 'listen', lcmp: '0', lang: 'en' }, options);
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
    const laptop = await keysOf(LAPTOP);
    assert.equal(laptop.listen, true);
    assert.equal(laptop.caption, true);
    // Decode's keys: the shipped speech models' score functions (no cosine: no key 5) …
    assert.match(laptop.listenText ?? '', /1–4, 6, 7 pick the score function/);
    // … and the scene models' five
    assert.match(laptop.captionText ?? '', /1–5 pick the score function/);
  });

  test('the nav on one line from 1024 px, in English and Chinese; the tools end the tabs’ line below', async () => {
    for (const lang of ['en', 'zh'])
      for (const width of [1024, 1100, 1279, 1280, 1399, 1440]) {
        const page = await open({ view: 'compare', lang }, { viewport: { width, height: 700 } });
        await page.waitForSelector('[data-testid=view-listen]');
        await urlSettled(page);
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
        await page.context().close();
      }

    // a tablet: the tabs take two lines and the tools end the second, not a third of their own
    const page = await open({ view: 'compare', lang: 'en' }, { viewport: { width: 768, height: 1024 } });
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
      const page = await open(hash, PHONE);
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

  test('Self-attention’s equations on a phone: one under another, none cut at the screen’s edge', async () => {
    const formula = async (options) => {
      const page = await open({ view: 'self', task: 'zh', lang: 'en' }, options);
      await page.waitForSelector('[data-testid=sa-detail] .formula .katex', { timeout: 30_000 });
      const found = await page.$eval('[data-testid=sa-detail] .formula', (el) => ({
        overflow: el.scrollWidth - el.clientWidth,
        centres: [...el.querySelectorAll('.katex-display')].map((k) => {
          const box = k.getBoundingClientRect();
          return (box.top + box.bottom) / 2;
        }),
        right: Math.max(...[...el.querySelectorAll('.katex')].map((k) => k.getBoundingClientRect().right)),
      }));
      await page.context().close();
      return found;
    };
    // "α_ij = exp(" ended at the card's edge, the rest (and o_i) out of sight in a scrolling box
    const phone = await formula(PHONE);
    assert.ok(phone.overflow <= 0 && phone.right <= 375, JSON.stringify(phone));
    assert.ok(lineCount(phone.centres) >= 3, JSON.stringify(phone));
    // a laptop keeps them on one line
    const laptop = await formula(LAPTOP);
    assert.equal(lineCount(laptop.centres), 1, JSON.stringify(laptop));
    assert.ok(laptop.overflow <= 0, JSON.stringify(laptop));
  });

  test('the formula view on a phone: the softmax and its worked line break after “=”, none past the card', async () => {
    const page = await open({ view: 'decode', task: 'zh', input: 'tom chase jerry', lang: 'en' }, PHONE);
    const panel = page.locator('[data-testid=formula-panel]');
    await panel.waitFor({ state: 'attached', timeout: 30_000 });
    await panel.scrollIntoViewIfNeeded();
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid=formula-panel] .tex')].some(
          (tex) => tex.getAttribute('data-tex')?.startsWith('\\alpha_{\\text') && tex.querySelector('.katex'),
        ),
      null,
      {
        timeout: 30_000,
      },
    );
    const shown = await panel.evaluate((el) => {
      const edge = el.getBoundingClientRect().right;
      const softmax = [...el.querySelectorAll('.tex')].filter((tex) =>
        tex.getAttribute('data-tex')?.startsWith('\\alpha'),
      );
      return softmax.map((tex) => {
        const katex = /** @type {Element} */ (tex.querySelector('.katex'));
        const range = document.createRange();
        range.selectNodeContents(katex);
        return {
          tex: tex.getAttribute('data-tex')?.slice(0, 12),
          past: Math.round(Math.max(...[...range.getClientRects()].map((r) => r.right)) - edge),
        };
      });
    });
    // "α_tom = exp(7.331 − 7.331) / Z = 1.000 / 1.003 = 0.997" went 60 px past the card, in a box
    // that scrolled; the general form's "m = max e" 10 px
    assert.equal(shown.length, 2, JSON.stringify(shown));
    for (const formula of shown) assert.ok(formula.past <= 0, JSON.stringify(shown));
    const box = await panel.boundingBox();
    assert.ok(box && box.x + box.width <= 375, JSON.stringify(box));
    await page.context().close();
  });

  test('the scores’ scale in a small laptop’s stage card: its ticks apart, not “−7.33107.331”', async () => {
    for (const lang of ['en', 'zh']) {
      const page = await open(
        { view: 'decode', task: 'zh', lang },
        { viewport: { width: 1024, height: 768 } },
      );
      await page.waitForSelector('[data-testid=score-axis] .ticks', { timeout: 30_000 });
      const ticks = await page.$eval('[data-testid=score-axis] .ticks', (el) =>
        [...el.children].map((tick) => {
          const box = tick.getBoundingClientRect();
          return { text: tick.textContent, left: box.left, right: box.right };
        }),
      );
      assert.equal(ticks.length, 3, JSON.stringify(ticks));
      assert.equal(ticks[1].text, '0');
      for (let i = 1; i < ticks.length; i++)
        assert.ok(ticks[i].left - ticks[i - 1].right >= 4, `${lang}: ${JSON.stringify(ticks)}`);
      await page.context().close();
    }
  });

  test('Self-attention’s query table on a phone: two lines a key, every number and vector in sight', async () => {
    const table = async (hash, options) => {
      const page = await open(hash, options);
      await page.waitForSelector('[data-testid=sa-detail] [data-testid=sa-raw-0]', { timeout: 30_000 });
      const found = await page.$eval('[data-testid=sa-detail]', (detail) => {
        const wrap = /** @type {HTMLElement} */ (detail.querySelector('.table-wrap'));
        const edge = wrap.getBoundingClientRect().right;
        const rows = [...detail.querySelectorAll('tbody tr')].map((tr, j) => {
          const box = (id) => {
            const b = /** @type {Element} */ (
              tr.querySelector(`[data-testid=${id}-${j}]`)
            ).getBoundingClientRect();
            return { width: b.width, right: b.right, centre: (b.top + b.bottom) / 2 };
          };
          return ['sa-key', 'sa-raw', 'sa-scaled', 'sa-weight', 'sa-value'].map(box);
        });
        const output = /** @type {Element} */ (
          detail.querySelector('[data-testid=sa-output]')
        ).getBoundingClientRect();
        return {
          scrolls: wrap.scrollWidth - wrap.clientWidth,
          edge,
          rows,
          output: { width: output.width, right: output.right },
        };
      });
      await page.context().close();
      return found;
    };
    for (const hash of [
      { view: 'self', task: 'zh', lang: 'en' },
      { view: 'self', task: 'dates', input: '29 november 2026', lang: 'zh' },
    ]) {
      // the six columns were 550 px wide in a box that scrolled: the values' vectors out of sight
      const phone = await table(hash, PHONE);
      const where = `${hash.task}: ${JSON.stringify(phone).slice(0, 400)}`;
      assert.ok(phone.scrolls <= 0 && phone.edge <= 375, where);
      assert.ok(phone.rows.length >= 3, where);
      for (const cells of phone.rows) {
        for (const cell of cells) assert.ok(cell.width > 20 && cell.right <= phone.edge + 0.5, where);
        // the numbers on one line, the key's and the value's vectors on the next
        assert.equal(lineCount(cells.map((c) => c.centre)), 2, where);
      }
      assert.ok(phone.output.width > 100 && phone.output.right <= phone.edge + 0.5, where);
    }
    // a laptop keeps one line a key
    const laptop = await table({ view: 'self', task: 'zh', lang: 'en' }, LAPTOP);
    for (const cells of laptop.rows) assert.equal(lineCount(cells.map((c) => c.centre)), 1);
    assert.ok(laptop.scrolls <= 0);
  });

  test('Why attention’s table on a phone: a model’s name above its figures, nothing scrolled away', async () => {
    for (const lang of ['en', 'zh']) {
      const page = await open({ view: 'length', task: 'zh', lang }, PHONE);
      await page.locator('[data-testid=length-summary]').waitFor({ timeout: 90_000 });
      const found = await page.$eval('[data-testid=length-table]', (table) => {
        const wrap = /** @type {HTMLElement} */ (table.parentElement);
        return {
          scrolls: wrap.scrollWidth - wrap.clientWidth,
          cells: [...table.querySelectorAll('td')].map((td) => {
            const b = td.getBoundingClientRect();
            return { right: Math.round(b.right), width: b.width, cut: td.scrollWidth > td.clientWidth };
          }),
          caption: Math.round(
            /** @type {Element} */ (table.querySelector('caption')).getBoundingClientRect().right,
          ),
        };
      });
      const where = `${lang}: ${JSON.stringify(found).slice(0, 400)}`;
      // seven models × five columns; "no attention (one fixed vector)" wrapped onto four lines
      assert.ok(found.cells.length >= 30, where);
      assert.ok(found.scrolls <= 0 && found.caption <= 375, where);
      for (const cell of found.cells) assert.ok(cell.width > 0 && cell.right <= 375 && !cell.cut, where);
      assert.deepEqual(await pastTheEdge(page), { scrollWidth: 375, width: 375, found: [] });
      await page.context().close();
    }
  });

  test('Self-attention’s two heatmaps: each its own caption under it, side by side or stacked', async () => {
    for (const lang of ['en', 'zh'])
      for (const [options, stacked] of [
        [PHONE, true],
        [{ viewport: { width: 1024, height: 768 } }, true],
        [LAPTOP, false],
      ]) {
        const page = await open({ view: 'self', task: 'zh', lang }, options);
        await page.waitForSelector('[data-testid=sa-cross-heatmap] svg', { timeout: 30_000 });
        const found = await page.evaluate(() =>
          ['sa-self', 'sa-cross'].map((id) => {
            const map = /** @type {Element} */ (document.querySelector(`[data-testid=${id}-heatmap]`));
            const caption = document.querySelector(`[data-testid=${id}-caption]`);
            const [m, c] = [map.getBoundingClientRect(), caption?.getBoundingClientRect()];
            return {
              text: caption?.textContent ?? '',
              below: c ? c.top - m.bottom : -1,
              overlaps: c ? c.left < m.right && c.right > m.left : false,
              top: m.top,
              left: m.left,
            };
          }),
        );
        const where = `${lang} ${options.viewport.width}: ${JSON.stringify(found)}`;
        // "Left, …; right, …" under two heatmaps one above the other
        for (const caption of found) {
          assert.doesNotMatch(caption.text, /\b(left|right|above|below)\b|左|右/i, where);
          assert.ok(caption.below >= 0 && caption.below < 40 && caption.overlaps, where);
        }
        assert.match(found[0].text, lang === 'en' ? /encoder's tokens/ : /编码器的词元/, where);
        assert.match(found[1].text, lang === 'en' ? /output step of the decoder/ : /解码器每个输出步/, where);
        assert.equal(found[1].top > found[0].top + 40, stacked, where);
        await page.context().close();
      }
  });

  test('Beam search’s outputs on a phone: a token never split across lines', async () => {
    for (const lang of ['en', 'zh']) {
      const page = await open({ view: 'beam', task: 'zh', input: 'tom chase jerry', lang }, PHONE);
      await page.waitForSelector('[data-testid=beam-2] .text .token', { timeout: 30_000 });
      const lines = await linesOf(page, '[data-testid=beams] .text .token');
      const tokens = await page.$$eval('[data-testid=beams] .text .token', (els) =>
        els.map((e) => e.textContent),
      );
      // "汤姆 追逐 杰瑞" broke inside 杰瑞
      assert.ok(tokens.includes('杰瑞'), tokens.join());
      assert.deepEqual(
        lines,
        tokens.map(() => 1),
        tokens.join(),
      );
      // the whole of "#1 汤姆 追逐 杰瑞" fits its line
      assert.deepEqual(await linesOf(page, '[data-testid=beam-0] .text'), [1]);
      assert.equal(await page.locator('[data-testid=beam-0] .text').textContent(), '汤姆 追逐 杰瑞');
      await page.context().close();
    }
  });

  test('Caption’s scores and weights on a small laptop: the 8 columns whole, side by side where they fit', async () => {
    for (const width of [1024, 1280, 1440]) {
      const page = await open({ view: 'caption', lang: 'en' }, { viewport: { width, height: 800 } });
      await page.waitForSelector('[data-testid=caption-weight-63]', { timeout: 60_000 });
      const found = await page.evaluate(() =>
        ['caption-scores-panel', 'caption-weights-panel'].map((id) => {
          const panel = /** @type {Element} */ (document.querySelector(`[data-testid=${id}]`));
          const scroll = /** @type {HTMLElement} */ (panel.querySelector('.scroll'));
          return {
            cut: scroll.scrollWidth - scroll.clientWidth,
            top: Math.round(panel.getBoundingClientRect().top),
          };
        }),
      );
      const where = `${width}: ${JSON.stringify(found)}`;
      // at 1024 px 385 px of table in a 261 px box
      for (const panel of found) assert.ok(panel.cut <= 0, where);
      assert.equal(found[0].top === found[1].top, width >= 1280, where);
      await page.context().close();
    }
  });

  test('Caption’s words × cells heatmap on a phone: its own size in a box that scrolls, labels readable', async () => {
    const page = await open({ view: 'caption', lang: 'en' }, PHONE);
    const svg = page.locator('[data-testid=caption-heatmap] svg');
    await svg.waitFor({ state: 'attached', timeout: 60_000 });
    await svg.scrollIntoViewIfNeeded();
    const found = await svg.evaluate((el) => {
      const box = /** @type {HTMLElement} */ (el.closest('.heatmap-scroll'));
      return {
        shown: el.getBoundingClientRect().width,
        drawn: Number(el.getAttribute('width')),
        scrolls: box.scrollWidth > box.clientWidth,
        right: box.getBoundingClientRect().right,
      };
    });
    // squeezed to 328 px: 64 columns of 14 px drawn at a third of their size, 4 px labels
    assert.ok(found.drawn > 800 && Math.abs(found.shown - found.drawn) < 1, JSON.stringify(found));
    assert.ok(found.scrolls && found.right <= 375, JSON.stringify(found));
    assert.deepEqual(await pastTheEdge(page), { scrollWidth: 375, width: 375, found: [] });
    await page.context().close();
  });

  test('a finger’s targets on a phone: Caption’s object numbers, the model names in Listen’s and Caption’s side-by-side cards', async () => {
    const sizes = async (hash, selector) => {
      const page = await open(hash, PHONE);
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

  test('no console errors', () => {
    assert.deepEqual(consoleErrors, []);
  });
});
