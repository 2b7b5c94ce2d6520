// The page as a first-time learner meets it: the keyboard inside controls, reset and the what-if,
// the worked softmax, numbers as written, hand-edited links, where input errors show, labels and
// exports, contrast, and self-attention's task. Each test checks what the page shows against the
// engine's trace or against a rule a reader can check (a colour ratio, a box inside another).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { launchBrowser, openFresh, urlSettled, waitForStep, watchConsole } from './browser.mjs';
import { serveBuild } from './static-server.mjs';
import { contrastOf, lowContrast } from './contrast.mjs';

const DATES = 'dates-additive-bahdanau';
const DATE = '29 november 2026';

let server, browser, page;
const consoleErrors = [];

const hash = (fields) => `#${new URLSearchParams({ view: 'decode', ...fields })}`;
const open = (p, hashPart) => openFresh(p, server.url + hashPart);
const stepShown = (p) => p.locator('[data-testid=decode]').getAttribute('data-step');

describe('the page as a learner meets it', () => {
  before(async () => {
    [server, browser] = await Promise.all([serveBuild(), launchBrowser()]);
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    watchConsole(page, consoleErrors);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('keys in a radio group move its choice, not the decode step; space does not play', async () => {
    await open(page, hash({ task: 'dates', model: 'additive-bahdanau', input: DATE, step: '3' }));
    await waitForStep(page, DATES, 3);
    // one tab stop per group: the checked option
    await page.focus('[data-testid=score-additive]');
    await page.keyboard.press('ArrowRight');
    await waitForStep(page, 'dates-cosine-bahdanau', 3);
    assert.equal(await stepShown(page), '3', 'the arrow did not move the step');
    assert.ok(await page.locator('[data-testid=score-cosine]').isChecked(), 'the arrow moved the choice');
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute('data-testid')),
      'score-cosine',
      'the focus follows the choice',
    );
    await page.keyboard.press('ArrowLeft');
    await waitForStep(page, DATES, 3);
    for (const key of ['Home', 'End', ' ', '1']) {
      await page.keyboard.press(key === ' ' ? 'Space' : key);
      await page.waitForTimeout(150);
      assert.equal(await stepShown(page), '3', `${key} in the group leaves the step`);
      assert.equal(
        await page.locator('[data-testid=play]').getAttribute('aria-pressed'),
        'false',
        `${key}: no play`,
      );
    }
    assert.ok(
      await page.evaluate(() => document.activeElement?.closest('fieldset') !== null),
      'the focus stays in the group',
    );
    // one tab stop: Tab from the score group leaves it for the next group
    await page.focus('[data-testid=score-additive]');
    await page.keyboard.press('Tab');
    const next = await page.evaluate(() => document.activeElement?.getAttribute('name'));
    assert.notEqual(next, 'model-score', 'Tab leaves the group');
    // the slider keeps its keys too, and the page's keys still act from the page itself
    await page.focus('[data-testid=jump]');
    await page.keyboard.press('Space');
    await page.waitForTimeout(150);
    assert.equal(await page.locator('[data-testid=play]').getAttribute('aria-pressed'), 'false');
    await page.locator('h1').click();
    await page.keyboard.press('ArrowRight');
    await waitForStep(page, DATES, 4);
  });

  test('reset goes back to greedy and drops force= from the link; start keeps the what-if', async () => {
    await open(
      page,
      hash({ task: 'dates', model: 'additive-bahdanau', input: DATE, step: '0', reveal: '1' }),
    );
    await waitForStep(page, DATES, 0);
    const greedy = await page.locator('[data-testid=output-tokens]').textContent();
    await page.click('[data-testid=top-1]'); // a what-if at step 1
    await page.waitForSelector('[data-testid=clear-forces]');
    await waitForStep(page, DATES, 0);
    await page.click('[data-testid=step]');
    await page.click('[data-testid=step]');
    await waitForStep(page, DATES, 2);
    await urlSettled(page);
    assert.match(page.url(), /force=0%3A\d+/);
    const forced = await page.locator('[data-testid=output-tokens]').textContent();
    assert.notEqual(forced, greedy, 'the forced token changed the output');

    await page.click('[data-testid=start]');
    await waitForStep(page, DATES, 0);
    await urlSettled(page);
    assert.match(page.url(), /force=0%3A\d+/, 'start keeps the forced token');
    assert.equal(await page.locator('[data-testid=output-tokens]').textContent(), forced);

    await page.click('[data-testid=step]');
    await waitForStep(page, DATES, 1);
    await page.click('[data-testid=reset]');
    await waitForStep(page, DATES, 0);
    await page.waitForSelector('[data-testid=clear-forces]', { state: 'detached' });
    await urlSettled(page);
    assert.doesNotMatch(page.url(), /force=/, 'reset drops force= from the link');
    assert.equal(await page.locator('[data-testid=output-tokens]').textContent(), greedy, 'greedy again');
    assert.ok(await page.locator('[data-testid=reset]').isDisabled(), 'nothing left to reset');
  });

  test('the worked softmax is one form: exp(e_j − m) / Σ exp(e_i − m), m = max e, with the engine’s numbers', async () => {
    await open(page, hash({ task: 'zh', model: 'additive-bahdanau', input: 'tom chase jerry', step: '1' }));
    await waitForStep(page, 'zh-additive-bahdanau', 1);
    const panel = page.locator('[data-testid=formula-panel]');
    await panel.scrollIntoViewIfNeeded();
    await waitForStep(page, 'zh-additive-bahdanau', 1);
    const shown = await panel.evaluate((el) => {
      const num = (id) => el.querySelector(`[data-testid="${id}"]`);
      const n = el.querySelectorAll('[data-testid^="formula-weight-"]').length;
      const rows = Array.from({ length: n }, (_, j) => ({
        score: Number(num(`formula-score-${j}`).dataset.value),
        exp: Number(num(`exp-${j}`).dataset.value),
        expText: num(`exp-${j}`).textContent.trim(),
        weight: Number(num(`formula-weight-${j}`).dataset.value),
        weightText: num(`formula-weight-${j}`).textContent.trim(),
      }));
      return {
        rows,
        max: Number(num('max-score').dataset.value),
        maxText: num('max-score').textContent.trim(),
        sum: Number(num('exp-sum').dataset.value),
        sumText: num('exp-sum').textContent.trim(),
        tex: [...el.querySelectorAll('.tex')].map((t) => t.getAttribute('data-tex') ?? ''),
        shift: num('softmax-shift')?.textContent ?? '',
      };
    });
    const best = shown.rows.reduce((b, r, j, all) => (r.weight > all[b].weight ? j : b), 0);
    assert.equal(shown.max, Math.max(...shown.rows.map((r) => r.score)), 'm is the largest score');
    for (const r of shown.rows) {
      assert.ok(Math.abs(r.exp - Math.exp(r.score - shown.max)) < 1e-5, 'the column is exp(e_j − m)');
      assert.ok(Math.abs(r.weight - r.exp / shown.sum) < 1e-5, 'α_j = exp(e_j − m) / Z');
    }
    const general = shown.tex.find((t) => t.startsWith('\\alpha_j'));
    assert.match(general, /\\exp\(e_j - m\)/, 'the general form is shifted');
    assert.match(general, /m = \\max_i e_i/);
    const worked = shown.tex.find((t) => t.startsWith('\\alpha_{\\text'));
    assert.ok(worked, 'a worked line');
    const b = shown.rows[best];
    assert.ok(worked.includes(`- ${shown.max.toFixed(3)})`), `the worked line subtracts m: ${worked}`);
    assert.ok(
      worked.includes(`\\frac{${b.exp.toFixed(3)}}{${shown.sum.toFixed(3)}}`),
      `the worked line is exp(e − m)/Z: ${worked}`,
    );
    assert.ok(worked.endsWith(`= ${b.weight.toFixed(3)}`));
    assert.match(shown.shift, /overflow/, 'one line says why the shift is there');
  });

  test('the sandbox writes τ as set, and says the float32 range for a number it cannot hold', async () => {
    await page.goto('about:blank');
    await page.goto(`${server.url}#view=sandbox&kind=dot&t=0.1`);
    await page.waitForSelector('[data-testid=weights-temperature]', { timeout: 20_000 });
    assert.equal(await page.textContent('[data-testid=weights-temperature]'), '0.1');
    await page.fill('[data-testid=query]', '1e308, 0, 0, 0');
    const error = page.locator('[data-testid=error]');
    await error.waitFor();
    const text = await error.textContent();
    assert.match(text, /query\[0\] = 1\.000e308 is too large/);
    assert.match(text, /between −3\.403e38 and 3\.403e38/, 'it says the range');
    assert.doesNotMatch(text, /not a finite number/);
    // what float32 holds is taken: the error goes
    await page.fill('[data-testid=query]', '1e-30, 0, 1, 0');
    await error.waitFor({ state: 'detached' });
  });

  test('a hand-edited link says what was wrong in it and what is shown instead', async () => {
    const notes = () => page.locator('[data-testid=link-notes]').textContent();
    const noError = async (what) =>
      assert.equal(
        await page
          .locator('[data-testid=input-error], [data-testid=model-error], [data-testid=decode-error]')
          .count(),
        0,
        `${what}: no error under the input`,
      );

    await open(page, hash({ task: 'fr', input: 'tom chase jerry' }));
    await waitForStep(page, 'zh-additive-bahdanau', 0);
    assert.match(await notes(), /no task “fr”.*showing English → Chinese/);

    await open(page, hash({ task: 'dates', model: 'bogus', input: DATE }));
    await waitForStep(page, DATES, 0);
    assert.match(await notes(), /no model “bogus”.*showing additive-bahdanau/);

    await open(page, hash({ task: 'dates', model: 'additive-bahdanau', input: DATE, step: '99999' }));
    await page.waitForSelector('[data-testid=link-notes]');
    const last = Number(await page.locator('[data-testid=decode]').getAttribute('data-step'));
    assert.ok(last > 0);
    await waitForStep(page, DATES, last);
    assert.equal(await page.locator('[data-testid=step]').isDisabled(), true, 'the last step');
    assert.match(
      await notes(),
      new RegExp(`step 100000, but this decode has ${last + 1} steps; showing the last`),
    );

    await open(page, hash({ task: 'dates', model: 'additive-bahdanau', input: DATE, step: '-5' }));
    await waitForStep(page, DATES, 0);
    assert.match(await notes(), /step “-5” is not a step number.*showing step 1/);

    await open(page, hash({ task: 'dates', model: 'additive-bahdanau', input: DATE, force: '0:99999' }));
    await page.waitForSelector('[data-testid=link-notes]');
    await waitForStep(page, DATES, 0);
    assert.match(
      await notes(),
      /forces token 99999 at step 1, but dates-additive-bahdanau has only \d+ output tokens.*decoding greedily/,
    );
    await noError('force=0:99999');
    assert.equal(await page.locator('[data-testid=clear-forces]').count(), 0, 'greedy: nothing forced');
    await urlSettled(page);
    assert.doesNotMatch(page.url(), /force=/);

    await open(page, hash({ task: 'reverse', model: 'dot-luong', input: 'abcdefj' }));
    await waitForStep(page, 'reverse-dot-bahdanau', 0);
    assert.match(await notes(), /no model reverse-dot-luong.*showing reverse-dot-bahdanau/);
    await noError('reverse dot-luong');

    await page.click('[data-testid=link-notes-ok]');
    await page.waitForSelector('[data-testid=link-notes]', { state: 'detached' });
    // a good link: no note
    await open(page, hash({ task: 'dates', model: 'additive-bahdanau', input: DATE, step: '2' }));
    await waitForStep(page, DATES, 2);
    assert.equal(await page.locator('[data-testid=link-notes]').count(), 0);
  });

  test('a model that is not shipped, chosen by hand, says so once', async () => {
    await open(page, hash({ task: 'reverse', model: 'additive-bahdanau', input: 'abcdefj' }));
    await waitForStep(page, 'reverse-additive-bahdanau', 0);
    await page.click('[data-testid=style-luong]');
    await page.waitForSelector('[data-testid=model-error]');
    await page.waitForTimeout(300);
    assert.equal(await page.locator('[data-testid=model-error]').count(), 1);
  });

  for (const [width, height] of [
    [1440, 1000],
    [375, 800],
  ])
    test(`an input error shows by the input and over the greyed results (${width} px)`, async () => {
      const p = await browser.newPage({ viewport: { width, height } });
      p.on('pageerror', (e) => consoleErrors.push(String(e)));
      await open(p, hash({ task: 'zh', model: 'additive-bahdanau', input: 'tom chase jerry', step: '1' }));
      await waitForStep(p, 'zh-additive-bahdanau', 1);
      if (width < 700) await p.click('[data-testid=settings-summary]'); // folded on a phone
      await p.fill('[data-testid=decode-input]', 'tom chse jerry');
      await p.press('[data-testid=decode-input]', 'Enter');
      const side = p.locator('[data-testid=input-error]');
      await side.waitFor();
      const input = await p.locator('[data-testid=decode-input]').boundingBox();
      const message = await side.boundingBox();
      assert.ok(input && message);
      assert.ok(message.y >= input.y + input.height - 1, 'below the input');
      assert.ok(
        message.y - (input.y + input.height) < 24,
        `right under the input (${message.y - input.y - input.height} px)`,
      );
      assert.equal(await p.locator('[data-testid=decode-input]').getAttribute('aria-invalid'), 'true');
      assert.equal(
        await p.locator('[data-testid=decode-input]').getAttribute('aria-describedby'),
        'input-error input-limits',
      );
      // over the greyed results: the problem, and what the greyed results are
      const banner = p.locator('[data-testid=results-error]');
      await banner.waitFor();
      assert.match(await banner.textContent(), /Not decoded:.*chse/s);
      assert.match(
        await banner.textContent(),
        /the last decode, of “tom chase jerry” with zh-additive-bahdanau/,
      );
      const stale = await p.locator('[data-testid=decode]').boundingBox();
      const over = await banner.boundingBox();
      assert.ok(stale && over && over.y <= stale.y, 'the banner is above the greyed results');
      // the suggestion is where it can be seen: in the first screen at desktop width, and a click takes it
      if (width > 1000) {
        const chip = p.locator('[data-testid=results-error] button:has-text("chase")');
        const box = await chip.boundingBox();
        assert.ok(box && box.y + box.height <= height, 'the suggestion is on the first screen');
        await chip.click();
      } else await p.locator('[data-testid=input-error] button:has-text("chase")').click();
      await waitForStep(p, 'zh-additive-bahdanau', 0);
      assert.equal(await banner.count(), 0);
      assert.equal(await p.inputValue('[data-testid=decode-input]'), 'tom chase jerry');
      await p.close();
    });

  /** Labels of the heatmaps matching `selector` that reach outside their SVG (none, when all fit). */
  const clippedLabels = (p, selector) =>
    p.$$eval(selector, (svgs) =>
      svgs.flatMap((svg) => {
        const box = svg.getBoundingClientRect();
        return [...svg.querySelectorAll('text')]
          .map((t) => ({ text: t.textContent, r: t.getBoundingClientRect() }))
          .filter(
            ({ r }) =>
              r.left < box.left - 1 ||
              r.right > box.right + 1 ||
              r.top < box.top - 1 ||
              r.bottom > box.bottom + 1,
          )
          .map(
            ({ text, r }) =>
              `${text} (${Math.round(r.left - box.left)}…${Math.round(r.right - box.left)} of ${Math.round(box.width)})`,
          );
      }),
    );
  const LONG = 'tom chased jerry in the kitchen yesterday';

  test('heatmap labels are whole on screen and in the SVG export, which has a legend and a whole-word name', async () => {
    await open(page, hash({ task: 'zh', model: 'additive-bahdanau', input: LONG }));
    await waitForStep(page, 'zh-additive-bahdanau', 0);
    const heatmap = page.locator('[data-testid=heatmap] svg');
    await heatmap.scrollIntoViewIfNeeded();
    await heatmap.waitFor();
    assert.deepEqual(await clippedLabels(page, '[data-testid=heatmap] svg'), [], 'Decode');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-testid=export-svg]'),
    ]);
    assert.equal(
      download.suggestedFilename(),
      'zh-additive-bahdanau-tom_chased_jerry_in_the_kitchen.heatmap.svg',
    );
    const text = (await import('node:fs')).readFileSync(await download.path(), 'utf8');
    assert.match(text, /data-legend/);
    assert.match(text, /attention weight/);
    assert.match(text, /zh-additive-bahdanau: “tom chased jerry in the kitchen yesterday”/);
    const [png] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-png]')]);
    assert.equal(png.suggestedFilename(), 'zh-additive-bahdanau-tom_chased_jerry_in_the_kitchen.heatmap.png');
    // the exported file drawn on its own: every label inside it
    const alone = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await alone.setContent(text.replace(/^<\?xml[^>]*>/, ''));
    assert.deepEqual(await clippedLabels(alone, 'svg'), [], 'the SVG export');
    await alone.close();

    await page.click('[data-testid=view-compare]');
    await page.locator('[data-testid^="compare-"] figure.heatmap svg').first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(1500);
    assert.deepEqual(await clippedLabels(page, 'figure.heatmap svg'), [], 'Compare');
    await page.click('[data-testid=view-beam]');
    await page.waitForSelector('[data-testid=beam-heatmap] svg', { timeout: 30_000 });
    assert.deepEqual(await clippedLabels(page, 'figure.heatmap svg'), [], 'Beam');
  });

  test('on a phone no heatmap scrolls sideways into blank space', async () => {
    const p = await browser.newPage({ viewport: { width: 375, height: 800 } });
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
    await open(p, hash({ task: 'zh', model: 'additive-bahdanau', input: LONG }));
    await waitForStep(p, 'zh-additive-bahdanau', 0);
    await p.locator('[data-testid=heatmap]').scrollIntoViewIfNeeded();
    await p.waitForTimeout(500);
    assert.deepEqual(await blank(), [], 'Decode');
    await p.click('[data-testid=view-compare]');
    await p.waitForTimeout(4000);
    assert.deepEqual(await blank(), [], 'Compare');
    await p.click('[data-testid=view-beam]');
    await p.waitForSelector('[data-testid=beam-heatmap] svg', { timeout: 30_000 });
    assert.deepEqual(await blank(), [], 'Beam');
    await p.close();
  });

  test('text meets WCAG AA contrast in every view, and focus and “current” are marked differently', async () => {
    const views = {
      decode: hash({ task: 'zh', model: 'additive-bahdanau', input: LONG, step: '2' }),
      compare: hash({ view: 'compare', task: 'zh', model: 'additive-bahdanau', input: 'tom chase jerry' }),
      beam: hash({ view: 'beam', task: 'zh', model: 'additive-bahdanau', input: 'tom chase jerry' }),
      self: hash({ view: 'self', task: 'zh', model: 'additive-bahdanau', input: 'tom chase jerry' }),
      sandbox: '#view=sandbox',
    };
    const low = {};
    for (const [view, link] of Object.entries(views)) {
      await open(page, link);
      await page.waitForTimeout(view === 'compare' ? 5000 : 2500);
      await page.evaluate(async () => {
        for (const el of document.querySelectorAll('.lazy-paint')) el.scrollIntoView();
        scrollTo(0, 0);
        await new Promise((r) => setTimeout(r, 600));
      });
      const found = await lowContrast(page);
      if (found.length) low[view] = found;
    }
    assert.deepEqual(low, {}, 'text under 4.5 : 1');

    await open(page, views.decode);
    await waitForStep(page, 'zh-additive-bahdanau', 2);
    const current = page.locator('[data-testid=output-2]');
    await current.focus();
    const marks = await current.evaluate((el) => {
      const s = getComputedStyle(el);
      return {
        outline: s.outlineColor,
        outlineStyle: s.outlineStyle,
        border: s.borderColor,
        background: s.backgroundColor,
      };
    });
    assert.notEqual(marks.outline, marks.border, 'the focus ring is not the current mark');
    assert.ok(
      (await contrastOf(page, marks.outline, '#ffffff')) >= 3,
      `focus ring ${marks.outline} is 3 : 1 on white`,
    );
    assert.ok(
      (await contrastOf(page, marks.border, '#ffffff')) >= 3,
      `current mark ${marks.border} is 3 : 1 on white`,
    );
    const focusColor = await page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue('--focus'),
    );
    const heatmapCurrent = await page
      .locator('[data-testid=heatmap] svg rect[data-current]')
      .getAttribute('stroke');
    assert.ok(
      heatmapCurrent && heatmapCurrent.trim() !== focusColor.trim(),
      'the heatmap marks the current row without the focus colour',
    );
  });

  test('only the output decoded so far is shown, until the switch reveals the rest', async () => {
    await open(page, hash({ task: 'dates', model: 'additive-bahdanau', input: DATE, step: '1' }));
    await waitForStep(page, DATES, 1);
    const shown = () =>
      page.$$eval(
        '[data-testid^=output-]',
        (els) => els.filter((e) => /^output-\d+$/.test(e.dataset.testid)).length,
      );
    assert.equal(await shown(), 2, 'steps 1 and 2 only');
    await page.click('[data-testid=step]');
    await waitForStep(page, DATES, 2);
    assert.equal(await shown(), 3);
    await page.check('[data-testid=reveal]');
    await page.waitForFunction(() => document.querySelectorAll('.output .future').length > 0);
    assert.equal(await shown(), 11, 'the whole output: 2026-11-29 and </s>');
    await urlSettled(page);
    assert.match(page.url(), /reveal=1/);
    await page.uncheck('[data-testid=reveal]');
    await page.waitForFunction(() => document.querySelectorAll('.output .future').length === 0);
    assert.equal(await shown(), 3);
  });

  test('self-attention on the reverse task says plainly that it has no such model, and names none', async () => {
    await open(page, '#view=self&task=zh&input=tom+chase+jerry');
    await page.waitForSelector('[data-testid=sa-detail]', { timeout: 30_000 });
    await page.click('[data-testid=view-decode]');
    await page.click('[data-testid=task-reverse]');
    await waitForStep(page, 'reverse-additive-bahdanau', 0);
    await page.click('[data-testid=view-self]');
    const note = page.locator('[data-testid=sa-no-model]');
    await note.waitFor();
    assert.match(
      await note.textContent(),
      /Reverse letters has no Transformer-encoder model.*choose English → Chinese or Dates/s,
    );
    const text = await page.locator('main').textContent();
    assert.doesNotMatch(text, /held-out/, 'no model is described');
    assert.doesNotMatch(text, /zh-additive-bahdanau-transformer/, 'not the last task’s model either');
    assert.equal(
      await page.locator('[data-testid=sa-about], [data-testid=sa-error], [data-testid=sa-detail]').count(),
      0,
    );
    // one message, and the way out works
    await page.click('[data-testid=sa-task-dates]');
    await page.waitForSelector('[data-testid=sa-detail]', { timeout: 30_000 });
    assert.match(
      await page.locator('[data-testid=sa-about]').textContent(),
      /dates-additive-bahdanau-transformer/,
    );
  });

  test('the score bars keep one scale, shown on an axis, for the whole decode', async () => {
    await open(page, hash({ task: 'dates', model: 'additive-bahdanau', input: DATE, step: '0' }));
    const axes = new Set();
    let largest = 0;
    for (let i = 0; i < 11; i++) {
      await waitForStep(page, DATES, i);
      const { domain, scores } = await page.evaluate(() => ({
        domain: document.querySelector('[data-testid=score-axis]')?.getAttribute('data-domain'),
        scores: [...document.querySelectorAll('[data-testid^=score-]')]
          .filter((e) => /^score-\d+$/.test(e.dataset.testid))
          .map((e) => Number(e.dataset.value)),
      }));
      axes.add(domain);
      largest = Math.max(largest, ...scores.map(Math.abs));
      if (i < 10) await page.click('[data-testid=step]');
    }
    assert.equal(axes.size, 1, `one scale for every step: ${[...axes]}`);
    const [low, high] = [...axes][0].split(',').map(Number);
    assert.equal(high, largest, 'the scale is the decode’s largest |score|');
    assert.equal(low, -largest);
    assert.match(
      await page.locator('[data-testid=score-axis]').textContent(),
      new RegExp(largest.toFixed(3)),
    );
  });

  test('the Beam view says what beam search is, labels its numbers and explains a cut beam', async () => {
    await open(page, hash({ view: 'beam', task: 'zh', model: 'additive-bahdanau', input: LONG, k: '3' }));
    await page.waitForSelector('[data-testid=beam-0]', { timeout: 30_000 });
    assert.match(
      await page.textContent('[data-testid=beamview-about]'),
      /keeps the k most probable partial outputs.*per token/s,
    );
    assert.match(await page.textContent('[data-testid=beamview-columns]'), /log p per token/);
    const cut = await page.$$eval('[data-testid^=beam-] .hint', (els) =>
      els.some((e) => e.textContent.trim() === 'cut'),
    );
    if (cut)
      assert.match(await page.textContent('[data-testid=beamview-cut-note]'), /length limit.*unfinished/s);
    assert.match(await page.locator('main').textContent(), /total log probability so far \(not per token\)/);
  });

  test('Compare ranks the models by held-out exact match, marks the best, defines the measure and says why cosine is weak', async () => {
    await open(
      page,
      hash({ view: 'compare', task: 'zh', model: 'additive-bahdanau', input: 'tom chase jerry' }),
    );
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid^=accuracy-]').length >= 6,
      null,
      { timeout: 30_000 },
    );
    await page.waitForTimeout(500);
    const shown = await page.$$eval('[data-testid^=accuracy-]', (els) =>
      els.map((e) => ({ name: e.dataset.testid.slice('accuracy-'.length), value: Number(e.dataset.value) })),
    );
    const ranked = await page.$$eval('[data-testid=compare-ranking] li', (els) =>
      els.map((e) => e.dataset.name),
    );
    const expected = [...new Map(shown.map((m) => [m.name, m.value])).entries()].sort((a, b) => b[1] - a[1]);
    assert.deepEqual(
      ranked.map((name) => expected.find(([n]) => n === name)?.[1]),
      expected.map(([, v]) => v),
      'best first',
    );
    const best = expected[0][1];
    const marked = await page.$$eval('[data-testid=compare-ranking] li.best', (els) =>
      els.map((e) => e.dataset.name),
    );
    assert.deepEqual(
      marked.sort(),
      expected
        .filter(([, v]) => v === best)
        .map(([n]) => n)
        .sort(),
      'the best marked',
    );
    assert.match(
      await page.textContent('[data-testid=heldout-definition]'),
      /never trained on.*exactly right/s,
    );
    assert.match(await page.textContent('[data-testid=cosine-note]'), /\[−1, 1\].*e² ≈ 7\.4/s);
  });

  test('on a phone the settings fold into one line, so the stepper is on the first screen', async () => {
    const p = await browser.newPage({ viewport: { width: 375, height: 800 } });
    await open(p, hash({ task: 'zh', model: 'additive-bahdanau', input: 'tom chase jerry', step: '1' }));
    await waitForStep(p, 'zh-additive-bahdanau', 1);
    const summary = p.locator('[data-testid=settings-summary]');
    assert.match(await summary.textContent(), /English → Chinese · additive · Bahdanau · “tom chase jerry”/);
    assert.equal(await p.locator('[data-testid=decode-input]').isVisible(), false, 'folded');
    const step = await p.locator('[data-testid=step]').boundingBox();
    assert.ok(step && step.y + step.height <= 800, `the stepper is on the first screen (at ${step?.y})`);
    await summary.click();
    await p.locator('[data-testid=decode-input]').waitFor({ state: 'visible' });
    await p.click('[data-testid=task-dates]');
    await waitForStep(p, DATES, 0);
    assert.match(await summary.textContent(), /Dates → ISO 8601/);
    // the sandbox: the results come before the editors' fold
    await p.click('[data-testid=view-sandbox]');
    await p.waitForSelector('[data-testid=weight-0]');
    const weights = await p.locator('[data-testid=weight-0]').boundingBox();
    assert.ok(weights && weights.y < 800, 'sandbox results on the first screen');
    // at desktop width nothing is folded
    await p.setViewportSize({ width: 1440, height: 1000 });
    await p.locator('[data-testid=query]').waitFor({ state: 'visible' });
    assert.equal(await summary.isVisible(), false);
    await p.close();
  });

  test('Chinese tokens carry lang="zh" in every view that shows them', async () => {
    const unmarked = () =>
      page.evaluate(() => {
        const out = [];
        const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode())
          if (/[\u3400-\u9fff]/.test(n.textContent) && !n.parentElement?.closest('[lang|=zh], title'))
            out.push(`${n.parentElement?.tagName}: ${n.textContent.trim().slice(0, 20)}`);
        return out;
      });
    await open(
      page,
      hash({ task: 'zh', model: 'additive-bahdanau', input: 'tom chase jerry', step: '1', reveal: '1' }),
    );
    await waitForStep(page, 'zh-additive-bahdanau', 1);
    await page.locator('[data-testid=heatmap]').scrollIntoViewIfNeeded();
    await waitForStep(page, 'zh-additive-bahdanau', 1);
    assert.deepEqual(await unmarked(), [], 'Decode');
    await page.click('[data-testid=view-beam]');
    await page.waitForSelector('[data-testid=beam-heatmap] svg', { timeout: 30_000 });
    assert.deepEqual(await unmarked(), [], 'Beam');
    await page.click('[data-testid=view-compare]');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid^="output-zh-"]').length >= 6,
      null,
      { timeout: 30_000 },
    );
    assert.deepEqual(await unmarked(), [], 'Compare');
  });

  test('self-attention: a tap on a vector cell reads its number (a phone has no hover)', async () => {
    const p = await browser.newPage({ viewport: { width: 375, height: 800 }, hasTouch: true });
    await open(p, '#view=self&task=zh&input=tom+chase+jerry');
    await p.waitForSelector('[data-testid=sa-detail]', { timeout: 30_000 });
    const cell = p.locator('[data-testid=sa-value-1] .c').nth(2);
    const value = Number(await cell.getAttribute('data-value'));
    await cell.tap();
    const { formatNumber } = await import('../../web/shared/lib/format.js');
    await p.waitForFunction(
      (text) => document.querySelector('[data-testid=sa-readout]')?.textContent.includes(text),
      `v[2] = ${formatNumber(value)}`,
    );
    assert.match(await p.textContent('[data-testid=sa-readout]'), /chase/);
    await p.close();
  });

  test('the text box shows the engine’s limits: a character counter and the model’s token limit', async () => {
    await open(page, hash({ task: 'zh', model: 'additive-bahdanau', input: 'tom chase jerry', step: '1' }));
    await waitForStep(page, 'zh-additive-bahdanau', 1);
    const limits = page.locator('[data-testid=input-limits]');
    await page.waitForFunction(() =>
      /words/.test(document.querySelector('[data-testid=input-limits]')?.textContent ?? ''),
    );
    // the numbers are the engine's: its character limit and this model's max_source_len
    const maxChars = Number(await page.locator('[data-testid=decode-input]').getAttribute('maxlength'));
    assert.equal(maxChars, 2000);
    assert.match(await limits.textContent(), /^15 \/ 2000 characters/);
    assert.match(await limits.textContent(), /this model reads at most 18 words/);
    assert.equal(
      await page.locator('[data-testid=decode-input]').getAttribute('aria-describedby'),
      'input-limits',
    );
    await page.fill('[data-testid=decode-input]', 'tom chased jerry');
    await page.waitForFunction(() =>
      /^16 \//.test(document.querySelector('[data-testid=input-limits]')?.textContent ?? ''),
    );
    await open(page, hash({ task: 'dates', model: 'additive-bahdanau', input: DATE, step: '1' }));
    await waitForStep(page, DATES, 1);
    await page.waitForFunction(() =>
      /characters$/.test(document.querySelector('[data-testid=input-limits]')?.textContent.trim() ?? ''),
    );
    assert.match(
      await limits.textContent(),
      /^16 \/ 2000 characters.*this model reads at most 33 characters/s,
    );
  });

  test('no console errors on the way', () => {
    assert.deepEqual(consoleErrors, []);
  });
});
