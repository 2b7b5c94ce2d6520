// The "Why attention" view in headless Chromium: the numbers on screen equal the engine's result
// computed in node (the trainer module, the same held-out pairs and slices as the page's Worker);
// progress shows while it runs and a cancel stops it; a bucket opens its held-out sources in Decode;
// the link restores the view; the summary, the readout and the labels in both languages; 375 px
// works with touch.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, beforeEach, describe, test } from 'node:test';

import { lengthAccuracy } from '../../web/features/length/evaluate.js';
import lengthDict from '../../web/features/length/strings.js';
import { coinciding, MIN_PAIRS, percent } from '../../web/shared/lib/length-summary.js';
import { loadTrainer } from '../js/trainer-fixture.mjs';
import { shot, urlSettled } from './browser.mjs';
import { PHONE, useBrowser } from './fixture.mjs';
import { pastTheEdge } from './layout.mjs';

const fx = useBrowser();
/** Each test's page: 1440 × 1000, in a fresh context. */
let page;
beforeEach(async () => {
  page = await fx.page();
});

const checkpoint = (name) =>
  new Uint8Array(readFileSync(new URL(`../../web/models/${name}.safetensors`, import.meta.url)));
const SCORES = ['none', 'dot', 'scaled_dot', 'general', 'additive', 'cosine', 'scaled_cosine'];

let trainer;
before(async () => {
  trainer = await loadTrainer();
});
/** task/width → { results by score, sources } as the engine gives them in node */
const expected = new Map();

async function engineResult(task, width) {
  const key = `${task}/${width}`;
  if (expected.has(key)) return expected.get(key);
  const reports = [];
  await lengthAccuracy(
    trainer,
    {
      task,
      bucketWidth: width,
      models: SCORES.map((s) => ({
        name: `${task}-${s}-bahdanau`,
        bytes: checkpoint(`${task}-${s}-bahdanau`),
      })),
    },
    { report: (r) => reports.push(r) },
  );
  const results = Object.fromEntries(
    reports.filter((r) => r.kind === 'model').map((r) => [r.result.name.split('-')[1], r.result]),
  );
  const { sources, targets } = reports.find((r) => r.kind === 'pairs');
  expected.set(key, { results, sources, targets });
  return expected.get(key);
}

const waitDone = (p = page) => p.locator('[data-testid=length-summary]').waitFor({ timeout: 90_000 });
const text = (selector, p = page) => p.locator(selector).innerText();
const svgText = (selector, p = page) => p.locator(selector).textContent();

// Every progress text the page shows, read each frame from the start (the evaluation is quick).
function recordProgress(p) {
  return p.addInitScript(() => {
    const seen = /** @type {any} */ (window.__progress = new Set());
    const look = () => {
      for (const el of document.querySelectorAll('[data-testid^=length-progress-text-]'))
        seen.add(`${el.getAttribute('data-testid')}=${el.textContent}`);
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
}

describe('the chart', () => {
  test('the chart’s numbers equal the engine’s result computed in node, with progress on the way', async () => {
    const want = await engineResult('reverse', 4);
    await recordProgress(page);
    await page.goto(fx.link('#view=length&task=reverse'));
    await waitDone();
    await shot(page, 'length-1440', { fullPage: true });
    const seen = [...(await page.evaluate(() => [.../** @type {any} */ (window).__progress]))];
    // a model part-way (done/total below 1000) was on screen, and every model reached 1000 / 1000
    assert.ok(
      seen.some((s) => /=(\d+) \/ 1000$/.test(s) && Number(/=(\d+) \//.exec(s)[1]) < 1000),
      seen.join('\n'),
    );
    for (const score of SCORES) assert.ok(seen.includes(`length-progress-text-${score}=1000 / 1000`), score);
    for (const score of SCORES) {
      const r = want.results[score];
      for (const b of r.buckets) {
        assert.equal(
          await text(`[data-testid=length-cell-${score}-${b.minLength}]`),
          `${percent(b.hits, b.pairs)}\n${b.hits} / ${b.pairs}`,
          `${score} ${b.minLength}`,
        );
        const point = page.locator(`[data-testid=length-point-${score}-${b.minLength}]`);
        assert.equal(await point.getAttribute('data-hits'), String(b.hits));
        assert.equal(await point.getAttribute('data-pairs'), String(b.pairs));
      }
      assert.equal(await text(`[data-testid=length-cell-${score}-all]`), percent(r.hits, r.pairs));
    }
    for (const b of want.results.none.buckets)
      assert.equal(await svgText(`[data-testid=length-count-${b.minLength}]`), `n=${b.pairs}`);
    // the summary is read off these numbers: the baseline's first and last bucket
    const [first, last] = [want.results.none.buckets[0], want.results.none.buckets.at(-1)];
    const summary = await text('[data-testid=length-summary]');
    assert.ok(summary.includes(`from ${percent(first.hits, first.pairs)} on sources of 1–4`), summary);
    assert.ok(summary.includes(`to ${percent(last.hits, last.pairs)} on 13–16`), summary);
    // lines on top of each other are named beside the chart (the baseline and cosine looked like
    // one line), each drawn with a dash pattern and a marker of its own
    const groups = coinciding(SCORES.map((score) => ({ score, buckets: want.results[score].buckets })));
    assert.ok(
      groups.some((g) => g.includes('none') && g.includes('cosine')),
      `baseline and cosine apart: ${JSON.stringify(groups)}`,
    );
    const together = await text('[data-testid=length-coincide]');
    for (const g of groups)
      assert.ok(together.includes(g.map((s) => lengthDict.en[`model_${s}`]).join(' ≈ ')), together);
    const keys = await page.$$eval('[data-testid^=length-legend-] svg', (svgs) =>
      svgs.map(
        (svg) =>
          `${svg.querySelector('line')?.getAttribute('stroke-dasharray')}|${svg.querySelector('path')?.getAttribute('d')}`,
      ),
    );
    assert.equal(keys.length, SCORES.length);
    const [baseKey, cosineKey] = ['none', 'cosine'].map((s) => keys[SCORES.indexOf(s)].split('|'));
    assert.ok(baseKey[0] !== cosineKey[0] && baseKey[1] !== cosineKey[1], keys.join('\n'));
    // hover: a bucket's numbers
    await page.hover('[data-testid=length-bucket-9]');
    assert.match(await text('[data-testid=length-readout-title]'), /9–12: 334 pairs/);
    for (const score of SCORES) {
      const b = want.results[score].buckets.find((c) => c.minLength === 9);
      assert.equal(
        await text(`[data-testid=length-readout-${score}]`),
        `${b.hits} / ${b.pairs} · ${percent(b.hits, b.pairs)}`,
      );
    }
    await shot(page, 'length-hover-1440');
    // the readout's keys stand level with their names: each sat at the top of its row, a line
    // above its model's name
    await page.hover('[data-testid=length-bucket-13]');
    await page.locator('[data-testid=length-readout-title]').waitFor();
    const offsets = await page.$$eval('[data-testid=length-readout] li', (rows) =>
      rows.map((li) => {
        const mid = (el) => {
          const r = el.getBoundingClientRect();
          return r.top + r.height / 2;
        };
        return Math.abs(mid(li.querySelector('.key')) - mid(li.querySelector('.name')));
      }),
    );
    assert.equal(offsets.length, 7);
    for (const d of offsets) assert.ok(d < 3, String(offsets));
    // the view says when it has decoded: finished, the status still read "Decoding 1000 held-out
    // pairs per model"
    assert.match(
      await page.locator('[data-testid=length-progress] .status').innerText(),
      /^Decoded 1000 held-out/,
    );
  });

  test('a bucket opens its held-out sources in Decode, one after the other', async () => {
    const { results, sources, targets } = await engineResult('reverse', 4);
    const r = results.none;
    const inBucket = [];
    for (let k = 0; k < sources.length; k++)
      if (r.sourceLengths[k] >= 13 && r.sourceLengths[k] <= 16)
        inBucket.push({ source: sources[k], target: targets[k], match: r.matches[k] });
    assert.equal(inBucket.length, 258);
    await page.goto(fx.link('#view=length&task=reverse'));
    await waitDone();
    await page.click('[data-testid=length-bucket-13]');
    await page.locator('[data-testid=length-examples]').waitFor();
    assert.equal(await page.inputValue('[data-testid=decode-input]'), inBucket[0].source);
    await page.locator('[data-testid=decode][data-model=reverse-none-bahdanau]').waitFor();
    assert.match(await text('[data-testid=length-examples-title]'), /13–16 tokens.*1 of 258/);
    assert.equal(
      (await text('[data-testid=length-examples-match]')).startsWith(inBucket[0].match ? '✓' : '✗'),
      true,
    );
    // a wrong one shows its reference answer, the held-out pair's target (it showed only "✗ wrong")
    assert.equal(inBucket[0].match, 0, 'the baseline gets the first long source right: a useless example');
    assert.equal(
      await text('[data-testid=length-examples-reference]'),
      `the reference answer: ${inBucket[0].target}`,
    );
    await page.click('[data-testid=length-examples-next]');
    assert.equal(await page.inputValue('[data-testid=decode-input]'), inBucket[1].source);
    assert.match(await text('[data-testid=length-examples-title]'), /2 of 258/);
    await page.selectOption('[data-testid=length-examples-select]', '9');
    assert.equal(await page.inputValue('[data-testid=decode-input]'), inBucket[9].source);
    await urlSettled(page);
    assert.match(page.url(), /view=decode&task=reverse&model=none-bahdanau/);
    await shot(page, 'length-decode-1440');
    // another score function in Decode: the marks are that model's (the engine's per-pair results)
    await page.check('[data-testid=score-additive]', { force: true });
    await page.locator('[data-testid=decode][data-model=reverse-additive-bahdanau]').waitFor();
    const additiveHit = results.additive.matches[sources.indexOf(inBucket[9].source)];
    assert.match(await text('[data-testid=length-examples-title]'), /additive: 10 of 258/);
    assert.equal(
      (await text('[data-testid=length-examples-match]')).startsWith(additiveHit ? '✓' : '✗'),
      true,
    );
    // the chart stays as it was (kept for the session)
    await page.click('[data-testid=length-examples-back]');
    await waitDone();
    // another model for Decode: additive attention, which gets these right
    await page.selectOption('[data-testid=length-decode-model]', 'additive');
    await page.hover('[data-testid=length-bucket-13]');
    await page.click('[data-testid=length-bucket-13]');
    await page.locator('[data-testid=decode][data-model=reverse-additive-bahdanau]').waitFor();
    const hit = results.additive.matches[sources.indexOf(inBucket[0].source)];
    assert.equal((await text('[data-testid=length-examples-match]')).startsWith(hit ? '✓' : '✗'), true);
  });

  test('the link restores the view and its bucket width, the chart recomputes, and a cancel stops it', async () => {
    const fresh = page;
    await fresh.goto(fx.link('#view=length&task=zh&lw=2'));
    await waitDone(fresh);
    assert.equal(await fresh.isChecked('[data-testid=length-task-zh]'), true);
    assert.equal(await fresh.isChecked('[data-testid=length-width-2]'), true);
    const want = await engineResult('zh', 2);
    for (const b of want.results.general.buckets)
      assert.equal(
        await text(`[data-testid=length-cell-general-${b.minLength}]`, fresh),
        `${percent(b.hits, b.pairs)}\n${b.hits} / ${b.pairs}`,
      );
    // dates afresh, cancelled at once: it says so and offers to evaluate again
    await fresh.click('[data-testid=length-task-dates]');
    await fresh.click('[data-testid=length-cancel]');
    assert.match(await text('[data-testid=length-progress]', fresh), /Cancelled: \d of 8 models finished/);
    await urlSettled(fresh);
    assert.match(fresh.url(), /view=length&task=dates/);
    // a run superseded part-way by another task's (and one back): the last asked for is shown
    await fresh.click('[data-testid=length-evaluate]');
    await fresh.click('[data-testid=length-task-reverse]');
    await fresh.click('[data-testid=length-task-dates]');
    await waitDone(fresh);
    assert.equal(await fresh.isChecked('[data-testid=length-task-dates]'), true);
    const dates = await engineResult('dates', 2);
    const b = dates.results.none.buckets[0];
    assert.equal(
      await text(`[data-testid=length-cell-none-${b.minLength}]`, fresh),
      `${percent(b.hits, b.pairs)}\n${b.hits} / ${b.pairs}`,
    );
  });

  test('375 px wide with touch: a tap shows a bucket, a second tap opens it; no sideways scroll', async () => {
    const phone = await fx.open('#view=length&task=reverse', PHONE);
    await waitDone(phone);
    assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= 375));
    await shot(phone, 'length-375', { fullPage: true });
    await phone.locator('[data-testid=length-bucket-5]').tap();
    assert.match(await text('[data-testid=length-readout-title]', phone), /5–8: 331 pairs/);
    await phone.locator('[data-testid=length-bucket-5]').tap();
    await phone.locator('[data-testid=length-examples]').waitFor();
    assert.match(await text('[data-testid=length-examples-title]', phone), /5–8 tokens.*1 of 331/);
    assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= 375));
    await shot(phone, 'length-decode-375');
  });
});

describe('the summary, the readout and the labels', () => {
  test('the summary does not count a model below the baseline among those that hold up', async () => {
    await page.goto(fx.link({ view: 'length', task: 'dates', lang: 'en' }));
    const summary = await page.locator('[data-testid=length-summary]').innerText({ timeout: 90_000 });
    const pct = (s) => Number(s.replace(' %', ''));
    const baselineLast = pct(summary.match(/to ([\d.]+ %) on/)[1]);
    const stay = summary.match(/(\d+) of the (\d+) models stay between ([\d.]+ %) and/);
    // It read "6 of the 6 models stay between 39.53 % and 100.00 %": cosine, below the baseline's 41.86 %.
    assert.ok(pct(stay[3]) > baselineLast, summary);
    const weak = summary.match(/No better than the baseline there: cosine \(([\d.]+ %)\)/);
    assert.ok(weak && pct(weak[1]) <= baselineLast, summary);
    assert.equal(Number(stay[1]), Number(stay[2]) - 1);
  });

  test('in Chinese: the view’s name, the summary, and a bucket’s spoken label with the Chinese list mark', async () => {
    await page.goto(fx.link({ view: 'length', task: 'reverse', lang: 'zh' }));
    await waitDone();
    assert.equal(await text('[data-testid=view-length]'), '为什么需要注意力');
    assert.match(await text('[data-testid=length-summary]'), /没有注意力时/);
    await shot(page, 'length-1440-zh', { fullPage: true });
    const label = await page.getAttribute('[data-testid=length-bucket-1]', 'aria-label');
    // It read "无注意力（一个固定向量） 100.00 %, 点积 100.00 %, …" with English commas.
    assert.match(label, /100\.00 %、点积 100\.00 %、缩放点积/);
    assert.doesNotMatch(label, /, /);
    // the lines that lie on top of each other, named in Chinese
    const { results, sources, targets } = await engineResult('reverse', 4);
    const groups = coinciding(SCORES.map((score) => ({ score, buckets: results[score].buckets })));
    const together = await text('[data-testid=length-coincide]');
    assert.match(together, /^互相重叠/);
    for (const g of groups)
      assert.ok(together.includes(g.map((s) => lengthDict.zh[`model_${s}`]).join(' ≈ ')), together);
    // a bucket's wrong answer beside its reference answer, in Chinese
    const first = sources.findIndex(
      (_, k) => results.none.sourceLengths[k] >= 13 && results.none.sourceLengths[k] <= 16,
    );
    await page.click('[data-testid=length-bucket-13]');
    await page.locator('[data-testid=length-examples]').waitFor();
    assert.equal(await page.inputValue('[data-testid=decode-input]'), sources[first]);
    assert.equal(results.none.matches[first], 0);
    assert.equal(await text('[data-testid=length-examples-reference]'), `参考答案：${targets[first]}`);
  });

  test('the view names each score function as the other views do, in both languages', async () => {
    const { default: length } = await import('../../web/features/length/strings.js');
    const { default: formulas } = await import('../../web/shared/i18n/formulas.js');
    // In Chinese "general" was 通用 in this view and 一般式 in Decode, Compare and the formulas.
    for (const lang of ['en', 'zh'])
      for (const score of ['dot', 'scaled_dot', 'general', 'additive', 'cosine', 'scaled_cosine'])
        assert.equal(length[lang][`model_${score}`], formulas[lang][`${score}Label`], `${lang} ${score}`);
  });

  test('its table on a phone: a model’s name above its figures, nothing scrolled away', async () => {
    // one evaluation, read in English and then, switched in the page, in Chinese
    const phone = await fx.open({ view: 'length', task: 'zh', lang: 'en' }, PHONE);
    await waitDone(phone);
    for (const lang of ['en', 'zh']) {
      if (lang === 'zh') {
        await phone.click('[data-testid=lang-zh]');
        await phone.waitForFunction(() => document.documentElement.lang === 'zh');
        await phone.evaluate(() => document.fonts.ready);
        await waitDone(phone);
      }
      const found = await phone.$eval('[data-testid=length-table]', (table) => {
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
      assert.deepEqual(await pastTheEdge(phone), { scrollWidth: 375, width: 375, found: [] });
      // a bucket of fewer than MIN_PAIRS pairs (zh's 13–16 holds 9), which the summary leaves out,
      // is drawn hollow and faint and named under the chart; it was drawn like the others
      const counts = await phone.$$eval('[data-testid^=length-count-]', (labels) =>
        labels.map((el) => ({
          min: el.getAttribute('data-testid')?.split('-').pop(),
          n: Number(el.textContent?.replace('n=', '')),
          thin: el.classList.contains('thin'),
        })),
      );
      const thin = counts.filter((c) => c.n < MIN_PAIRS);
      assert.ok(thin.length > 0, `no thin bucket on zh: ${JSON.stringify(counts)}`);
      for (const c of counts) assert.equal(c.thin, c.n > 0 && c.n < MIN_PAIRS, JSON.stringify(c));
      const note = await text('[data-testid=length-thin]', phone);
      assert.ok(note.includes(String(MIN_PAIRS)), note);
      for (const c of thin) {
        assert.ok(note.includes(`n = ${c.n}`), note);
        const point = phone.locator(`[data-testid=length-point-none-${c.min}]`);
        assert.equal(await point.getAttribute('data-thin'), '1');
        assert.equal(await point.getAttribute('fill'), 'var(--paper)');
      }
      // the legend right under the chart on a phone (it was the progress list, a screen above)
      const [chart, legend] = await Promise.all(
        ['[data-testid=length-chart]', '[data-testid=length-legend]'].map((s) =>
          phone.locator(s).boundingBox(),
        ),
      );
      assert.ok(chart && legend, 'chart and legend drawn');
      const gap = legend.y - (chart.y + chart.height);
      assert.ok(gap >= -1 && gap < 40, `legend ${gap} px under the chart`);
    }
  });
});
