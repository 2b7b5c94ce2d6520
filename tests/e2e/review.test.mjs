// What a first-time learner ran into on the new parts of the page (the fixed-vector baseline, the
// what-ifs, the Why attention view, the Chinese interface), each checked in headless Chromium.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { launchBrowser, waitForStep } from './browser.mjs';
import { serveBuild } from './static-server.mjs';

let server, browser;
const consoleErrors = [];

/** A fresh page at `hash` (1440 × 1000 unless told), its console errors collected. */
async function open(hash, viewport = { width: 1440, height: 1000 }) {
  const page = await browser.newPage({ viewport });
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => consoleErrors.push(String(e.stack)));
  await page.goto(`${server.url}index.html#${new URLSearchParams(hash)}`);
  return page;
}

const box = (page, selector) =>
  page.$eval(selector, (el) => {
    const s = getComputedStyle(el);
    return {
      fontSize: s.fontSize,
      marginTop: s.marginTop,
      background: s.backgroundColor,
      borderStyle: s.borderTopStyle,
    };
  });

describe('a first-time learner’s findings', () => {
  before(async () => {
    [server, browser] = await Promise.all([serveBuild(), launchBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the baseline’s card in Decode has a card’s title and its buttons read as links', async () => {
    const page = await open({
      view: 'decode',
      task: 'zh',
      lang: 'en',
      model: 'none-bahdanau',
      input: 'tom chase jerry',
    });
    await waitForStep(page, 'zh-none-bahdanau', 0);
    const title = await box(page, '[data-testid=fixed-context] h2');
    const other = await box(page, '[data-testid=topk-panel] h2');
    // It stood twice the size of every other card's title, under a blank band (the browser's h2).
    assert.equal(title.fontSize, other.fontSize);
    assert.equal(title.marginTop, '0px');
    const button = await box(page, '[data-testid=with-attention]');
    assert.equal(button.background, 'rgba(0, 0, 0, 0)');
    assert.equal(button.borderStyle, 'none');

    assert.equal(await page.locator('[data-testid=fixed-whatifs]').count(), 0);
    await page.click('[data-testid=with-attention]');
    await waitForStep(page, 'zh-additive-bahdanau', 0);
    const offer = await box(page, '[data-testid=without-attention]');
    assert.equal(offer.background, 'rgba(0, 0, 0, 0)');
    assert.equal(offer.borderStyle, 'none');
    await page.close();
  });

  test('the baseline in Decode says the link’s what-ifs are kept but do not apply to it', async () => {
    const page = await open({
      view: 'decode',
      task: 'zh',
      lang: 'en',
      model: 'none-bahdanau',
      input: 'tom chase jerry',
      wi: 'm1@0,t0.5@1',
    });
    await waitForStep(page, 'zh-none-bahdanau', 0);
    // The what-ifs vanished from sight without a word (and came back under another model).
    assert.match(
      await page.locator('[data-testid=fixed-whatifs]').innerText(),
      /What-ifs set: 2\. They change attention/,
    );
    await page.click('[data-testid=with-attention]');
    await waitForStep(page, 'zh-additive-bahdanau', 0);
    assert.equal(await page.locator('[data-testid=whatif-items] li').count(), 2);
    await page.close();
  });

  test('Compare with the baseline chosen shows it once and no Bahdanau vs Luong pair of it', async () => {
    const page = await open({
      view: 'compare',
      task: 'zh',
      lang: 'en',
      model: 'none-bahdanau',
      input: 'tom chase jerry',
    });
    await page.locator('[data-testid=output-zh-dot-bahdanau]').waitFor();
    // The "Bahdanau vs Luong (dot)" group held the baseline again and a "Not shipped" zh-none-luong.
    assert.equal(await page.locator('[data-testid=compare-zh-none-bahdanau]').count(), 1);
    assert.equal(await page.locator('[data-testid=compare-zh-none-luong]').count(), 0);
    const headings = await page.locator('h2').allInnerTexts();
    assert.ok(!headings.some((h) => h.includes('Luong')), headings.join(' | '));
    // The lead named the first score function ("through dot attention in both styles").
    const lead = await page.locator('p.lead').innerText();
    assert.ok(!lead.includes('dot'), lead);
    assert.match(lead, /fixed-vector baseline \(zh-none-bahdanau\)/);
    // Its card said "the others are measured against it", with no difference marked anywhere.
    const note = await page
      .locator('[data-testid=compare-zh-none-bahdanau] [data-testid=chosen-note]')
      .innerText();
    assert.match(note, /no differences to mark: choose a score function/);
    assert.equal(await page.locator('[data-testid^=diff-]').count(), 0);
    await page.close();
  });

  test('the Why attention summary does not count a model below the baseline among those that hold up', async () => {
    const page = await open({ view: 'length', task: 'dates', lang: 'en' });
    const summary = await page.locator('[data-testid=length-summary]').innerText({ timeout: 90_000 });
    const pct = (s) => Number(s.replace(' %', ''));
    const baselineLast = pct(summary.match(/to ([\d.]+ %) on/)[1]);
    const stay = summary.match(/(\d+) of the (\d+) models stay between ([\d.]+ %) and/);
    // It read "6 of the 6 models stay between 39.53 % and 100.00 %": cosine, below the baseline's 41.86 %.
    assert.ok(pct(stay[3]) > baselineLast, summary);
    const weak = summary.match(/No better than the baseline there: cosine \(([\d.]+ %)\)/);
    assert.ok(weak && pct(weak[1]) <= baselineLast, summary);
    assert.equal(Number(stay[1]), Number(stay[2]) - 1);
    await page.close();
  });

  test('a pinned step’s weights are called pinned, and its mark never breaks inside “τ = 0.245”', async () => {
    const page = await open({
      view: 'decode',
      task: 'zh',
      lang: 'en',
      model: 'additive-bahdanau',
      input: 'tom chase jerry',
      step: '1',
      wi: 'p1/0.01/0@1,m2@1,t0.245@1',
    });
    await waitForStep(page, 'zh-additive-bahdanau', 1);
    // A pinned step's weights are not the softmax of its scores; the panel said they were.
    const hint = await page.locator('[data-testid=weights-panel] p.hint').first().innerText();
    assert.match(hint, /pinned this step/);
    assert.doesNotMatch(hint, /^Softmax turns/);
    // The list gave the weights as set ([1, 0.01, 0]) beside the engine's 0.990 / 0.010 with no word
    // of the division.
    const item = await page.locator('[data-testid=whatif-items] li').first().innerText();
    assert.match(item, /pin step 2 to \[1\.000, 0\.010, 0\.000\] ÷ their sum/);
    const shown = Number(await page.getAttribute('[data-testid=whatif-value-0]', 'data-value'));
    assert.ok(Math.abs(shown - 1 / 1.01) < 1e-6, String(shown));
    for (const panel of ['scores-panel', 'weights-panel', 'context-panel']) {
      const lines = await page.$eval(`[data-testid=${panel}-mark]`, (el) => {
        const text = el.firstChild;
        const at = text.textContent.indexOf('τ');
        const range = document.createRange();
        range.setStart(text, at);
        range.setEnd(text, text.textContent.length);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      });
      // The mark "pinned weights · masked: “jerry” · τ = 0.245" wrapped as "… τ =" / "0.245".
      assert.equal(lines, 1, panel);
    }
    await page.keyboard.press('ArrowRight');
    await waitForStep(page, 'zh-additive-bahdanau', 2);
    assert.match(
      await page.locator('[data-testid=weights-panel] p.hint').first().innerText(),
      /^Softmax turns/,
    );
    await page.close();
  });

  test('the Why attention view says when it has decoded, and its readout’s keys stand level with their names', async () => {
    const page = await open({ view: 'length', task: 'reverse', lang: 'en' });
    await page.locator('[data-testid=length-summary]').waitFor({ timeout: 90_000 });
    await page.hover('[data-testid=length-bucket-13]');
    await page.locator('[data-testid=length-readout-title]').waitFor();
    const offsets = await page.$$eval('[data-testid=length-readout] li', (rows) =>
      rows.map((li) => {
        const mid = (el) => {
          const r = el.getBoundingClientRect();
          return r.top + r.height / 2;
        };
        return Math.abs(mid(li.querySelector('.swatch')) - mid(li.querySelector('.name')));
      }),
    );
    // Finished, the status still read "Decoding 1000 held-out pairs per model".
    assert.match(
      await page.locator('[data-testid=length-progress] .status').innerText(),
      /^Decoded 1000 held-out/,
    );
    // Each key sat at the top of its row, a line above its model's name.
    assert.equal(offsets.length, 7);
    for (const d of offsets) assert.ok(d < 3, String(offsets));
    await page.close();
  });

  test('at 375 px the step-in-numbers formulas stay inside their card (they scroll)', async () => {
    const page = await open(
      {
        view: 'decode',
        task: 'zh',
        lang: 'zh',
        model: 'additive-bahdanau',
        input: 'tom chased jerry in the kitchen',
        step: '3',
      },
      { width: 375, height: 800 },
    );
    await waitForStep(page, 'zh-additive-bahdanau', 3);
    const panel = page.locator('[data-testid=formula-panel]');
    await panel.scrollIntoViewIfNeeded();
    await page.locator('[data-testid=formula-panel] .pair .tex .katex').first().waitFor();
    const sticking = await panel.evaluate((card) => {
      const right = card.getBoundingClientRect().right;
      // a display formula's box, or each line box of one set to break over lines on a phone
      const boxes = [...card.querySelectorAll('.pair .katex-display, .pair .tex.breakable .katex-base')];
      return {
        boxes: boxes.length,
        past: boxes.map((el) => el.getBoundingClientRect().right - right).filter((d) => d > 0),
      };
    });
    assert.ok(sticking.boxes > 0, 'no formula box measured');
    // "α_j = … , m = max_i e_i" ran 30 px past the card and the screen, cut off.
    assert.deepEqual(sticking.past, []);
    await page.close();
  });

  test('Compare’s lead names only the groups shown (reverse has no Transformer encoder)', async () => {
    const page = await open({
      view: 'compare',
      task: 'reverse',
      lang: 'en',
      model: 'dot-bahdanau',
      input: 'abcdefj',
    });
    await page.locator('[data-testid=output-reverse-dot-bahdanau]').first().waitFor();
    const lead = await page.locator('p.lead').innerText();
    assert.equal(
      lead,
      "“abcdefj” through every Bahdanau model of this task, through dot attention in both styles. One colour scale (weight 0 → 1) for all; the red box marks where a model's weights differ most from the chosen model (reverse-dot-bahdanau).",
    );
    assert.equal(
      await page.locator('[data-testid=compare-reverse-additive-bahdanau-transformer]').count(),
      0,
    );
    await page.close();
    const zh = await open({
      view: 'compare',
      task: 'zh',
      lang: 'en',
      model: 'dot-bahdanau',
      input: 'tom chase jerry',
    });
    await zh.locator('[data-testid=output-zh-dot-bahdanau]').first().waitFor();
    assert.match(
      await zh.locator('p.lead').innerText(),
      /both styles, and through a BiGRU and a Transformer encoder\. One/,
    );
    await zh.close();
  });

  test('in Chinese a bucket’s spoken label lists the models with the Chinese list mark', async () => {
    const page = await open({ view: 'length', task: 'reverse', lang: 'zh' });
    await page.locator('[data-testid=length-summary]').waitFor({ timeout: 90_000 });
    const label = await page.getAttribute('[data-testid=length-bucket-1]', 'aria-label');
    // It read "无注意力（一个固定向量） 100.00 %, 点积 100.00 %, …" with English commas.
    assert.match(label, /100\.00 %、点积 100\.00 %、缩放点积/);
    assert.doesNotMatch(label, /, /);
    await page.close();
  });

  test('Compare’s card with what-ifs does not show the held-out score measured without them', async () => {
    const page = await open({
      view: 'compare',
      task: 'zh',
      lang: 'en',
      model: 'additive-bahdanau',
      input: 'tom chased jerry in the kitchen',
      wi: 'm2@1',
    });
    const withName = 'zh-additive-bahdanau~whatif';
    await page.locator(`[data-testid="output-${withName}"]`).waitFor();
    // It read "held-out 99.5%" beside the output the what-ifs changed.
    assert.equal(await page.locator(`[data-testid="accuracy-${withName}"]`).count(), 0);
    assert.equal(await page.locator('[data-testid="accuracy-zh-additive-bahdanau"]').count(), 4);
    await page.close();
  });

  test('the Why attention view names each score function as the other views do, in both languages', async () => {
    const { default: length } = await import('../../web/features/length/strings.js');
    const { default: formulas } = await import('../../web/shared/i18n/formulas.js');
    // In Chinese "general" was 通用 in this view and 一般式 in Decode, Compare and the formulas.
    for (const lang of ['en', 'zh'])
      for (const score of ['dot', 'scaled_dot', 'general', 'additive', 'cosine', 'scaled_cosine'])
        assert.equal(length[lang][`model_${score}`], formulas[lang][`${score}Label`], `${lang} ${score}`);
  });

  test('no console errors', () => {
    assert.deepEqual(consoleErrors, []);
  });
});
