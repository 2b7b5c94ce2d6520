// The Decode view in headless Chromium against the same wasm and checkpoints run here in node: the
// stepper's scores, weights and context are the API's trace at every step; forcing a token, the
// what-ifs (a mask, a pin, a temperature) and the fixed-vector baseline change the steps as the
// API says; keys, reset, links (good, hand-edited, restored), exports, messages and limits; the
// worked softmax, the cosine bounds and the confidence are the engine's numbers.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';

import decodeDict from '../../web/features/decode/strings.js';
import { formatNumber, showToken as show } from '../../web/shared/lib/format.js';
import { readSafetensors } from '../js/reference.mjs';
import { runPython } from '../js/run-python.mjs';
import { pageScreenshot, shot, urlSettled, waitForStep } from './browser.mjs';
import { contrastOf, lowContrast } from './contrast.mjs';
import {
  assertStep,
  clippedInFile,
  clippedLabels,
  download,
  hashOf,
  heatmapPointed,
  heatmapValues,
  litAt,
  PNG_SIGNATURE,
  pointedFigures,
  shownStep,
} from './decode-view.mjs';
import { ap, decodeReference as reference, model, modelFile, shipped } from './engine.mjs';
import { PHONE, useBrowser } from './fixture.mjs';
import { checkStepBar } from './step-bar.mjs';

const fx = useBrowser();
/** Each test's page: 1440 × 1000, in a fresh context. */
let page;
beforeEach(async () => {
  page = await fx.page();
});

const DATES = 'dates-additive-bahdanau';
const DATE = '29 november 2026';
const LONG = 'tom chased jerry in the kitchen yesterday';
/** reveal=1: the output still to come is shown too, so a step's whole output can be compared. */
const traced = (fields) => hashOf({ reveal: '1', ...fields });
/** A fresh load of the page at `hash` (a change of the hash alone reloads the page itself). */
async function open(p, hash) {
  await p.goto('about:blank');
  await p.goto(fx.link(hash));
}
const stepShown = (p) => p.locator('[data-testid=decode]').getAttribute('data-step');

describe('stepping', () => {
  test('stepping through a dates decode shows the trace’s scores, weights and context at every step', async () => {
    const expected = reference(DATES, DATE);
    await open(page, traced({ task: 'dates', model: 'additive-bahdanau', input: DATE, step: '0' }));
    for (let i = 0; i < expected.steps.length; i++) {
      const shown = await shownStep(page, DATES, i);
      assertStep(shown, expected.steps[i], `step ${i}`);
      assert.deepEqual(
        shown.output,
        expected.steps.map((s) => show(s.token)),
      );
      if (i === 3) await pageScreenshot(page, 'decode-1440');
      // keyboard stepping: → moves one step
      if (i + 1 < expected.steps.length) await page.locator('body').press('ArrowRight');
    }
    assert.equal(expected.outputText, '2026-11-29');
    // the top-k are the trace's
    const top = await page.$$eval('[data-testid^="top-"]', (els) =>
      els.map((el) => Number(el.dataset.tokenId)),
    );
    assert.deepEqual(
      top,
      expected.steps.at(-1).top.map((t) => t.id),
    );
    // the heatmap holds the whole decode
    const n = expected.sourceTokens.length;
    assert.deepEqual(
      await heatmapValues(page, 'heatmap', expected.steps.length, n),
      expected.steps.map((s) => Array.from(s.weights)),
    );
    // Home / End / ← and a click on a heatmap row
    await page.locator('body').press('Home');
    await shownStep(page, DATES, 0);
    await page.locator('body').press('End');
    await shownStep(page, DATES, expected.steps.length - 1);
    await page.locator('body').press('ArrowLeft');
    await shownStep(page, DATES, expected.steps.length - 2);
    await page.click('[data-testid="heatmap-1-0"]');
    assertStep(await shownStep(page, DATES, 1), expected.steps[1], 'clicked row 1');
    // space plays, space again pauses
    await page.locator('body').press('Space');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=decode]').dataset.step) > 1);
    await page.locator('body').press('Space');
    assert.equal(await page.getAttribute('[data-testid=play]', 'aria-pressed'), 'false');
  });

  test('forcing a top-k token changes the later steps exactly as the API says, and survives a reload', async () => {
    const greedy = reference(DATES, DATE);
    await open(page, traced({ task: 'dates', model: 'additive-bahdanau', input: DATE, step: '5' }));
    await shownStep(page, DATES, 5);
    const alternative = greedy.steps[5].top[1];
    const forced = reference(DATES, DATE, [[5, alternative.id]]);
    await page.click('[data-testid=top-1]');
    await page.waitForFunction(
      (token) => document.querySelector('[data-testid=output-5]')?.textContent.trim() === token,
      show(alternative.token),
    );
    assert.notEqual(forced.outputText, greedy.outputText);
    assert.equal(forced.steps[5].choice, 'forced');
    for (let i = 5; i < forced.steps.length; i++) {
      if (i > 5) await page.locator('body').press('ArrowRight');
      const shown = await shownStep(page, DATES, i);
      assertStep(shown, forced.steps[i], `forced, step ${i}`);
      assert.deepEqual(
        shown.output,
        forced.steps.map((s) => show(s.token)),
      );
    }
    await pageScreenshot(page, 'decode-forced-1440');

    // URL round-trip: task, model, input, step and the forced token
    await urlSettled(page);
    const url = page.url();
    assert.match(url, /task=dates/);
    assert.match(url, /model=additive-bahdanau/);
    assert.match(url, new RegExp(`force=5%3A${alternative.id}`));
    await page.reload();
    const last = forced.steps.length - 1;
    const shown = await shownStep(page, DATES, last);
    assertStep(shown, forced.steps[last], 'after reload');
    assert.deepEqual(
      shown.output,
      forced.steps.map((s) => show(s.token)),
    );
    assert.equal(page.url(), url);
    await page.click('[data-testid=clear-forces]');
    await page.waitForFunction(
      (t) => document.querySelector('[data-testid=output-5]')?.textContent.trim() === t,
      show(greedy.steps[5].token),
    );
  });

  test('keys in a radio group move its choice, not the decode step; space does not play', async () => {
    await open(page, hashOf({ task: 'dates', model: 'additive-bahdanau', input: DATE, step: '3' }));
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
    await open(page, traced({ task: 'dates', model: 'additive-bahdanau', input: DATE, step: '0' }));
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

  test('only the output decoded so far is shown, until the switch reveals the rest', async () => {
    await open(page, hashOf({ task: 'dates', model: 'additive-bahdanau', input: DATE, step: '1' }));
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

  test('the score bars keep one scale, shown on an axis, for the whole decode', async () => {
    await open(page, hashOf({ task: 'dates', model: 'additive-bahdanau', input: DATE, step: '0' }));
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

  test('the engine keeps only the session on show: a decode replaces the last, Compare keeps none', async () => {
    await open(page, hashOf({ task: 'dates', model: 'additive-bahdanau', input: DATE }));
    await waitForStep(page, DATES, 0);
    const engine = page.workers().find((w) => w.url().includes('worker'));
    const open_ = () => engine.evaluate(() => globalThis.openSessions());
    const first = await open_();
    assert.equal(first.length, 1, 'one session for the one decode');
    // a forced token and another model: each a new decode replacing the one before
    await page.click('[data-testid=top-1]');
    await waitForStep(page, DATES, 0);
    await page.keyboard.press('1'); // the dot-product model
    await waitForStep(page, 'dates-dot-bahdanau', 0);
    await page.click('[data-testid=view-compare]');
    await page.locator('[data-testid="diff-dates-additive-bahdanau"]').first().waitFor({ timeout: 20_000 });
    await page.click('[data-testid=view-beam]');
    await page.waitForSelector('[data-testid=beam-0]', { timeout: 20_000 });
    const now = await open_();
    assert.equal(now.length, 1, `one session after seven decodes and a comparison: ${now}`);
    assert.notDeepEqual(now, first);
    // the beams are those of the decode on show (the dot model's), through its session
    const expected = reference('dates-dot-bahdanau', DATE, [], 3);
    assert.deepEqual(
      await page.$$eval('[data-testid^="beam-"] .score', (els) => els.map((e) => Number(e.dataset.value))),
      expected.beam.scores,
    );
  });

  test('the step bar: the same marks, names without them, the focus kept at the ends, a phone’s marks alone', () =>
    checkStepBar(fx, {
      view: 'decode',
      prefix: '',
      play: 'play',
      names: ['start (Step 1)', 'Back', 'Step', 'end (Last step)'],
    }));
});

describe('links', () => {
  test('a link with a task but no input shows that task’s first example, also after another task’s state', async () => {
    const zh = shipped.find((m) => /^zh-[a-z_]+-(bahdanau|luong)$/.test(m));
    if (zh) {
      const [, score, style] = zh.split('-');
      await open(page, traced({ task: 'zh', model: `${score}-${style}`, input: 'tom chase jerry' }));
      await shownStep(page, zh, 0);
      // a step, so that the page has a URL write waiting when the link is followed
      await page.locator('body').press('ArrowRight');
      // following a link to another state (the hash changes, the page starts from it)
      await Promise.all([
        page.waitForEvent('load'),
        page.evaluate(() => (location.hash = '#view=decode&task=dates')),
      ]);
    } else {
      await open(page, '#view=decode&task=dates');
    }
    const expected = reference(DATES, DATE);
    assertStep(await shownStep(page, DATES, 0), expected.steps[0], 'dates without input');
    assert.equal(await page.inputValue('[data-testid=decode-input]'), DATE);
    assert.equal(await page.locator('[data-testid=input-error]').count(), 0);
    // switching the task in the page takes the new task's first example too
    const reverse = 'reverse-additive-bahdanau';
    if (shipped.includes(reverse)) {
      await page.click('[data-testid=task-reverse]', { force: true });
      assertStep(
        await shownStep(page, reverse, 0),
        reference(reverse, 'abcdefj').steps[0],
        'reverse after a switch',
      );
      assert.equal(await page.inputValue('[data-testid=decode-input]'), 'abcdefj');
    }
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

    await open(page, hashOf({ task: 'fr', input: 'tom chase jerry' }));
    await waitForStep(page, 'zh-additive-bahdanau', 0);
    assert.match(await notes(), /no task “fr”.*showing English → Chinese/);

    await open(page, hashOf({ task: 'dates', model: 'bogus', input: DATE }));
    await waitForStep(page, DATES, 0);
    assert.match(await notes(), /no model “bogus”.*showing additive-bahdanau/);

    // a link's input longer than the engine decodes: cut to the engine's limit, the input box's
    // maxlength too, with a note (it was cut at 300 characters while the box took 2000)
    const most = ap.limits().maxInputChars;
    await open(page, hashOf({ task: 'dates', model: 'additive-bahdanau', input: '1'.repeat(most + 50) }));
    await page.waitForFunction(
      (most) =>
        /** @type {HTMLInputElement} */ (document.querySelector('[data-testid=decode-input]'))?.value
          .length === most,
      most,
    );
    assert.match(
      await notes(),
      new RegExp(`cut to its first ${most} characters: the most the engine decodes`),
    );
    assert.equal(await page.getAttribute('[data-testid=decode-input]', 'maxlength'), String(most));

    await open(page, hashOf({ task: 'dates', model: 'additive-bahdanau', input: DATE, step: '99999' }));
    await page.waitForSelector('[data-testid=link-notes]');
    const last = Number(await page.locator('[data-testid=decode]').getAttribute('data-step'));
    assert.ok(last > 0);
    await waitForStep(page, DATES, last);
    assert.equal(await page.locator('[data-testid=step]').isDisabled(), true, 'the last step');
    assert.match(
      await notes(),
      new RegExp(
        `step=99999 is step 100000 \\(steps count from 0\\), but this decode has ${last + 1} steps; showing the last`,
      ),
    );

    await open(page, hashOf({ task: 'dates', model: 'additive-bahdanau', input: DATE, step: '-5' }));
    await waitForStep(page, DATES, 0);
    assert.match(await notes(), /step “-5” is not a step number.*showing step 1/);

    await open(page, hashOf({ task: 'dates', model: 'additive-bahdanau', input: DATE, force: '0:99999' }));
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

    await open(page, hashOf({ task: 'reverse', model: 'dot-luong', input: 'abcdefj' }));
    await waitForStep(page, 'reverse-dot-bahdanau', 0);
    assert.match(await notes(), /no model reverse-dot-luong.*showing reverse-dot-bahdanau/);
    await noError('reverse dot-luong');

    await page.click('[data-testid=link-notes-ok]');
    await page.waitForSelector('[data-testid=link-notes]', { state: 'detached' });
    // a good link: no note
    await open(page, hashOf({ task: 'dates', model: 'additive-bahdanau', input: DATE, step: '2' }));
    await waitForStep(page, DATES, 2);
    assert.equal(await page.locator('[data-testid=link-notes]').count(), 0);
  });

  test('a model that is not shipped cannot be chosen: its pill is unavailable, its key leaves a note', async () => {
    await open(page, hashOf({ task: 'reverse', model: 'additive-bahdanau', input: 'abcdefj' }));
    await waitForStep(page, 'reverse-additive-bahdanau', 0);
    assert.equal(await page.isDisabled('[data-testid=style-luong]'), true, 'reverse ships no Luong model');
    // key 7 on zh: no location model there (Listen answers its missing keys the same way)
    await open(page, hashOf({ task: 'zh', model: 'dot-bahdanau', input: 'tom chase jerry' }));
    await waitForStep(page, 'zh-dot-bahdanau', 0);
    assert.equal(await page.isDisabled('[data-testid=score-location]'), true);
    await page.locator('body').press('7');
    await page.waitForSelector('[data-testid=key-note]');
    assert.match(
      (await page.textContent('[data-testid=key-note]')) ?? '',
      /Key 7 is location: there is no location model for English → Chinese in this build, so the model shown stays\./,
    );
    await page.waitForTimeout(300);
    assert.equal(await page.locator('[data-testid=decode]').getAttribute('data-model'), 'zh-dot-bahdanau');
    assert.equal(await page.isChecked('[data-testid=score-dot]'), true);
    assert.equal(await page.locator('[data-testid=model-error], [data-testid=results-error]').count(), 0);
    // a key with a model takes it, and the note goes
    await page.locator('body').press('2');
    await waitForStep(page, 'zh-scaled_dot-bahdanau', 0);
    assert.equal(await page.locator('[data-testid=key-note]').count(), 0);
    // and in Chinese, the same note in Chinese
    await page.click('[data-testid=lang-zh]');
    await page.evaluate(() => /** @type {HTMLElement} */ (document.activeElement)?.blur());
    await page.locator('body').press('7');
    await page.waitForSelector('[data-testid=key-note]');
    assert.equal(
      (await page.textContent('[data-testid=key-note]'))?.trim(),
      '按键 7 对应位置感知：此版本没有英译中的位置感知模型，当前模型保持不变。',
    );
    assert.equal(
      await page.locator('[data-testid=decode]').getAttribute('data-model'),
      'zh-scaled_dot-bahdanau',
    );
  });
});

describe('a model trained or loaded', () => {
  test('with a long name, the sidebar keeps within its card, at 1440 in English and on a phone in Chinese', async () => {
    const name = 'my-own-dates-model-with-a-rather-long-file-name-from-a-long-night.safetensors';
    for (const options of [{}, PHONE]) {
      const p = await fx.page(options);
      await p.goto(fx.link({ view: 'train', lang: options === PHONE ? 'zh' : 'en' }));
      await p.locator('[data-testid=saved-file]').setInputFiles({
        name,
        mimeType: 'application/octet-stream',
        buffer: Buffer.from(modelFile(DATES)),
      });
      await p.waitForSelector('[data-testid=saved-notice]');
      await p.click('[data-testid=view-decode]');
      await p.waitForSelector('[data-testid=decode][data-model^="my-own-dates-model"]', { timeout: 30_000 });
      if (options === PHONE) await p.click('[data-testid=settings-summary]');
      const outside = await p.$eval('section.decode-input', (card) => {
        const edge = card.getBoundingClientRect();
        return [...card.querySelectorAll('*')]
          .filter((el) => el.getClientRects().length)
          .map((el) => ({ el, box: el.getBoundingClientRect() }))
          .filter(({ box }) => box.right > edge.right + 0.5 || box.left < edge.left - 0.5)
          .map(
            ({ el, box }) =>
              `${el.tagName.toLowerCase()}.${el.className}: ${Math.round(box.left)}–${Math.round(box.right)} in ${Math.round(edge.left)}–${Math.round(edge.right)}`,
          );
      });
      assert.deepEqual(outside, [], options === PHONE ? 'phone' : '1440');
      // the closed select ends the name with …: the whole name is under it, and its title
      const whole = p.locator('[data-testid=trained-model-name]');
      assert.match(await whole.textContent(), /long-night/);
      assert.equal(
        await p.locator('[data-testid=trained-model]').getAttribute('title'),
        await whole.textContent(),
      );
      await shot(p.locator('section.decode-input'), `decode-trained-side-${options === PHONE ? 375 : 1440}`);
    }
  });
});

describe('input, limits and messages', () => {
  test('unknown words, empty and over-long input get a message in the page', async () => {
    const zh = shipped.find((m) => /^zh-[a-z_]+-(bahdanau|luong)$/.test(m)); // a BiGRU model
    if (zh) {
      const [, score, style] = zh.split('-');
      await open(page, traced({ task: 'zh', model: `${score}-${style}`, input: 'tom chse jerry' }));
      await page.waitForSelector('[data-testid=input-error]');
      const message = await page.textContent('[data-testid=input-error]');
      assert.match(message, /unknown word "chse"/);
      assert.match(message, /chase/);
      await pageScreenshot(page, 'decode-unknown-word-1440');
      await page.click('[data-testid=input-error] button:has-text("chase")');
      await shownStep(page, zh, 0);
      assert.equal(await page.inputValue('[data-testid=decode-input]'), 'tom chase jerry');
    }
    await open(page, traced({ task: 'dates', model: 'additive-bahdanau', input: DATE }));
    await shownStep(page, DATES, 0);
    await page.fill('[data-testid=decode-input]', '   ');
    await page.waitForSelector('[data-testid=input-error]');
    assert.match(await page.textContent('[data-testid=input-error]'), /Type a date, or pick an example/);
    await page.fill('[data-testid=decode-input]', '29 november 2026 '.repeat(4));
    await page.waitForFunction(() =>
      /at most \d+/.test(document.querySelector('[data-testid=input-error]')?.textContent ?? ''),
    );
    await page.click('button.chip:has-text("11/29/26")');
    const expected = reference(DATES, '11/29/26');
    assertStep(await shownStep(page, DATES, 0), expected.steps[0], 'example 11/29/26');
  });

  for (const [width, height] of [
    [1440, 1000],
    [375, 800],
  ])
    test(`an input error shows by the input and over the greyed results (${width} px)`, async () => {
      const p = await fx.page({ viewport: { width, height } });
      await open(p, hashOf({ task: 'zh', model: 'additive-bahdanau', input: 'tom chase jerry', step: '1' }));
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
    });

  test('the text box shows the engine’s limits: a character counter and the model’s token limit', async () => {
    await open(page, hashOf({ task: 'zh', model: 'additive-bahdanau', input: 'tom chase jerry', step: '1' }));
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
    await open(page, hashOf({ task: 'dates', model: 'additive-bahdanau', input: DATE, step: '1' }));
    await waitForStep(page, DATES, 1);
    await page.waitForFunction(() =>
      /characters$/.test(document.querySelector('[data-testid=input-limits]')?.textContent.trim() ?? ''),
    );
    assert.match(
      await limits.textContent(),
      /^16 \/ 2000 characters.*this model reads at most 33 characters/s,
    );
  });

  test('the input hint states the model’s true limits, from the engine', async () => {
    await open(page, hashOf({ task: 'reverse', model: 'additive-bahdanau', input: 'abcdefj' }));
    await waitForStep(page, 'reverse-additive-bahdanau', 0);
    const limits = model('reverse-additive-bahdanau').info().limits;
    assert.deepEqual([limits.minSourceTokens, limits.maxSourceTokens], [1, 19]);
    const hint = page.locator('[data-testid=input-hint]');
    await page.waitForFunction(() =>
      /1–19/.test(document.querySelector('[data-testid=input-hint]')?.textContent ?? ''),
    );
    assert.equal((await hint.textContent())?.trim(), 'Input: 1–19 letters from a to j, no spaces');
    // and the engine does take both ends: one letter and nineteen
    for (const input of ['a', 'abcdefghijabcdefghi']) {
      await open(page, hashOf({ task: 'reverse', model: 'additive-bahdanau', input }));
      await waitForStep(page, 'reverse-additive-bahdanau', 0);
    }
    await open(page, hashOf({ task: 'dates', model: 'additive-bahdanau', input: '11/29/26' }));
    await waitForStep(page, 'dates-additive-bahdanau', 0);
    await page.waitForFunction(() =>
      /33/.test(document.querySelector('[data-testid=input-hint]')?.textContent ?? ''),
    );
    assert.equal((await hint.textContent())?.trim(), 'Input: a date, 1–33 characters');
  });

  test('a loading indicator shows while a checkpoint loads', async () => {
    const context = await fx.context();
    let release;
    const held = new Promise((resolve) => (release = resolve));
    await context.route('**/*.safetensors', async (route) => {
      await held;
      await route.continue();
    });
    const slow = await context.newPage();
    await slow.goto(fx.link(traced({ task: 'dates', model: 'additive-bahdanau', input: DATE })));
    await slow.waitForSelector('[data-testid=model-loading]', { timeout: 20_000 });
    assert.match(
      await slow.textContent('[data-testid=model-loading]'),
      /Loading the model dates-additive-bahdanau/,
    );
    release();
    assertStep(await shownStep(slow, DATES, 0), reference(DATES, DATE).steps[0], 'after the slow load');
    assert.equal(await slow.locator('[data-testid=model-loading]').count(), 0);
  });

  test('a checkpoint that fails to load gets a message', async () => {
    // its console reports the 404 and the failed load
    const context = await fx.context({}, { expected: /404|did not load|Failed to load/ });
    await context.route('**/*.safetensors', (route) => route.fulfill({ status: 404, body: 'gone' }));
    const broken = await context.newPage();
    await open(broken, traced({ task: 'dates', model: 'additive-bahdanau', input: DATE }));
    await broken.waitForSelector('[data-testid=model-error]', { timeout: 20_000 });
    assert.match(await broken.textContent('[data-testid=model-error]'), /did not load.*404/);
  });
});

describe('exports', () => {
  test('each export downloads a well-formed file', async () => {
    const expected = reference(DATES, DATE);
    await open(page, traced({ task: 'dates', model: 'additive-bahdanau', input: DATE, step: '0' }));
    await shownStep(page, DATES, 0);
    const json = await download(page, 'export-json');
    assert.match(json.name, /\.trace\.json$/);
    const trace = JSON.parse(json.bytes.toString());
    assert.equal(trace.steps.length, expected.steps.length);
    assert.deepEqual(trace.meta.source_tokens, expected.sourceTokens);

    const csv = await download(page, 'export-csv');
    const lines = csv.bytes.toString().trimEnd().split('\n');
    const n = expected.sourceTokens.length;
    assert.equal(lines[0], 'step,token,choice,log_prob,source_index,source_token,score,weight');
    assert.equal(lines.length, 1 + expected.steps.length * n);
    const [step, , choice, , j, , score, weight] = lines[1 + 3 * n + 2].split(',');
    assert.deepEqual([step, choice, j], ['3', 'greedy', '2']);
    assert.equal(Number(score), expected.steps[3].scores[2]);
    assert.equal(Number(weight), expected.steps[3].weights[2]);

    const svg = await download(page, 'export-svg');
    const text = svg.bytes.toString();
    assert.match(text, /^<\?xml/);
    assert.match(text, /<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.equal((text.match(/class="cell/g) ?? []).length, expected.steps.length * n);

    const png = await download(page, 'export-png');
    assert.deepEqual([...png.bytes.subarray(0, 8)], PNG_SIGNATURE);
    assert.ok(png.bytes.length > 1000);

    // the step shown, as a script that recomputes it with NumPy and agrees with the page's numbers
    const python = await download(page, 'export-python');
    assert.equal(python.name, `${DATES}-29_november_2026.step1.py`);
    const script = python.bytes.toString();
    assert.match(script, /^# Model dates-additive-bahdanau, input "29 november 2026"\.$/m);
    assert.match(
      script,
      new RegExp(`^# Step i = 1 of the output \\(it took "${expected.steps[0].token}"\\)`, 'm'),
    );
    const run = runPython(python.bytes);
    assert.equal(run.status, 0, run.output);
    assert.match(run.output, /agree within 1e-05/);
  });

  test('heatmap labels are whole on screen and in the SVG export, which has a legend and a whole-word name', async () => {
    await open(page, hashOf({ task: 'zh', model: 'additive-bahdanau', input: LONG }));
    await waitForStep(page, 'zh-additive-bahdanau', 0);
    const heatmap = page.locator('[data-testid=heatmap] svg');
    await heatmap.scrollIntoViewIfNeeded();
    await heatmap.waitFor();
    assert.deepEqual(await clippedLabels(page, '[data-testid=heatmap] svg'), [], 'Decode');

    const svg = await download(page, 'export-svg');
    assert.equal(svg.name, 'zh-additive-bahdanau-tom_chased_jerry_in_the_kitchen.heatmap.svg');
    const text = svg.bytes.toString();
    assert.match(text, /data-legend/);
    assert.match(text, /attention weight/);
    assert.match(text, /zh-additive-bahdanau: “tom chased jerry in the kitchen yesterday”/);
    const png = await download(page, 'export-png');
    assert.equal(png.name, 'zh-additive-bahdanau-tom_chased_jerry_in_the_kitchen.heatmap.png');
    // the exported file drawn on its own: every label inside it
    const alone = await fx.page({ viewport: { width: 1200, height: 900 } });
    assert.deepEqual(await clippedInFile(alone, text, 'svg'), [], 'the SVG export');

    await page.click('[data-testid=view-compare]');
    await page.locator('[data-testid^="compare-"] figure.heatmap svg').first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(1500);
    assert.deepEqual(await clippedLabels(page, 'figure.heatmap svg'), [], 'Compare');
    await page.click('[data-testid=view-beam]');
    await page.waitForSelector('[data-testid=beam-heatmap] svg', { timeout: 30_000 });
    assert.deepEqual(await clippedLabels(page, 'figure.heatmap svg'), [], 'Beam');
  });
});

describe('the numbers explained', () => {
  test('pointing at a token, a bar, a heatmap cell or a formula row lights that token up in every figure of the step, with its numbers', async () => {
    const NAME = 'zh-additive-bahdanau';
    const expected = reference(NAME, 'tom chase jerry');
    const step = expected.steps[1];
    await open(page, hashOf({ task: 'zh', model: 'additive-bahdanau', input: 'tom chase jerry', step: '1' }));
    await waitForStep(page, NAME, 1);
    const lit = () => pointedFigures(page);
    const expectLit = async (j, how) => {
      // the heatmap and the formulas are below the fold: they follow a frame late
      await heatmapPointed(page, j);
      const { formula, ...shown } = await lit();
      assert.ok(formula.length >= 3, `${how}: the formulas' tables (${formula.length})`);
      assert.deepEqual(shown, litAt(j, show(expected.sourceTokens[j]), step.scores[j], step.weights[j]), how);
      for (const rows of formula) {
        assert.equal(rows.length, 1, `${how}: one row lit in each table`);
        assert.match(rows[0], new RegExp(show(expected.sourceTokens[j])), `${how}: the row of its token`);
      }
    };

    await page.hover('[data-testid=source-1]');
    await expectLit(1, 'a source token');
    await page.hover('[data-testid=weight-2]');
    await expectLit(2, 'a weight’s bar');
    await page.hover('[data-testid=score-0]');
    await expectLit(0, 'a score’s bar');
    await page.locator('[data-testid=formula-weight-1]').hover();
    await expectLit(1, 'a formula row');
    await page.locator('[data-testid="heatmap-1-2"]').hover();
    await expectLit(2, 'a cell of the step’s heatmap row');
    // pointing away lights nothing, and the readout says what pointing does
    await page.mouse.move(2, 2);
    await page.waitForFunction(() => !document.querySelector('[data-testid=heatmap-pointed]'));
    const none = await lit();
    assert.deepEqual(
      { ...none, formula: none.formula.flat() },
      {
        source: null,
        scores: null,
        weights: null,
        heatmap: null,
        formula: [],
        readout: decodeDict.en.pointHint,
      },
    );

    // on a touch screen a tap lights a token up until the next tap on it
    const phone = await fx.open(
      hashOf({ task: 'zh', model: 'additive-bahdanau', input: 'tom chase jerry', step: '1', lang: 'zh' }),
      PHONE,
    );
    await waitForStep(phone, NAME, 1);
    await phone.locator('[data-testid=source-2]').tap();
    await phone.locator('[data-testid=source-2].pointed').waitFor();
    assert.match(
      await phone.locator('[data-testid=pointed-readout]').innerText(),
      /^“jerry”（位置 3）：得分 e = /,
    );
    assert.equal(
      await phone.locator('[data-testid=weights-panel] li.pointed [data-testid=weight-2]').count(),
      1,
    );
    await phone.locator('[data-testid=source-2]').tap();
    await phone.waitForFunction(() => !document.querySelector('[data-testid^=source-].pointed'));
    await shot(phone, 'decode-pointing-375-zh');
  });

  test('the worked softmax is one form: exp(e_j − m) / Σ exp(e_i − m), m = max e, with the engine’s numbers', async () => {
    await open(page, hashOf({ task: 'zh', model: 'additive-bahdanau', input: 'tom chase jerry', step: '1' }));
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

  test('the output’s confidence is the engine’s, and “hello” on dates says plainly that it is low', async () => {
    const expect = (text) => {
      const s = model('dates-additive-bahdanau').decode(text);
      s.run();
      const c = s.confidence();
      s.delete();
      return c;
    };
    // the output revealed: the confidence of all of it
    await open(page, traced({ task: 'dates', model: 'additive-bahdanau', input: 'hello' }));
    await waitForStep(page, 'dates-additive-bahdanau', 0);
    const box = page.locator('[data-testid=confidence]');
    const hello = expect('hello');
    assert.ok(hello.low);
    assert.equal(Number(await box.getAttribute('data-mean')), hello.meanProb);
    assert.equal(Number(await box.getAttribute('data-min')), hello.minProb);
    assert.equal(await page.locator('[data-testid=confidence-mean]').textContent(), '82.8 %');
    assert.equal(await page.locator('[data-testid=confidence-min]').textContent(), '28.0 %');
    const low = await page.locator('[data-testid=confidence-low]').textContent();
    assert.match(low ?? '', /step 7/);
    assert.match(low ?? '', /less than 50\.0 %/);
    assert.match(low ?? '', /always answers something/);
    // unsure, which is not wrong: the model without attention is unsure of a right answer on the
    // tour's first stop, where "more likely wrong than right" stood beside it in red
    assert.match(low ?? '', /Unsure is not wrong/);
    assert.doesNotMatch(low ?? '', /more likely wrong/);

    await open(page, traced({ task: 'dates', model: 'additive-bahdanau', input: '29 november 2026' }));
    await waitForStep(page, 'dates-additive-bahdanau', 0);
    const sure = expect('29 november 2026');
    assert.ok(!sure.low);
    assert.equal(Number(await box.getAttribute('data-min')), sure.minProb);
    assert.equal(await page.locator('[data-testid=confidence-low]').count(), 0);
  });

  test('at step i nothing to come shows: the heatmap and the confidence cover steps 1…i', async () => {
    const after = (steps) => {
      const s = model(DATES).decode('hello');
      for (let i = 0; i < steps; i++) s.step();
      const c = s.confidence();
      s.delete();
      return c;
    };
    const whole = reference(DATES, 'hello');
    await open(page, hashOf({ task: 'dates', model: 'additive-bahdanau', input: 'hello', step: '1' }));
    await waitForStep(page, DATES, 1);
    const box = page.locator('[data-testid=confidence]');
    const rowsShown = () => page.locator('[data-testid=heatmap] [data-testid$="-0"]').count();
    await page.locator('[data-testid=heatmap]').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=heatmap] rect.cell').length > 0);
    assert.equal(await rowsShown(), 2, 'steps 1 and 2 only');
    // the rows are weights, not word alignments: said where the learner reads them
    assert.equal(await page.textContent('[data-testid=alignment-soft]'), decodeDict.en.alignmentSoft);
    assert.equal(Number(await box.getAttribute('data-min')), after(2).minProb);
    assert.equal(
      await page.locator('[data-testid=confidence-low]').count(),
      0,
      'the low step (7) is to come',
    );
    assert.doesNotMatch((await box.textContent()) ?? '', /step 7/);
    await page.locator('body').press('End');
    await waitForStep(page, DATES, whole.steps.length - 1);
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid=heatmap] rect.cell').length === n,
      whole.steps.length * whole.sourceTokens.length,
    );
    assert.equal(Number(await box.getAttribute('data-min')), after(whole.steps.length).minProb);
    assert.equal(await page.locator('[data-testid=confidence-low]').count(), 1);
  });

  test('the cosine bound for “tom chase jerry” (n = 3): e² / (e² + 2) = 0.787 in Decode, Compare and the Sandbox', async () => {
    const bound = Math.exp(2) / (Math.exp(2) + 2);
    assert.ok(Math.abs(ap.cosineWeightBound(3) - bound) < 1e-15);
    await open(page, hashOf({ task: 'zh', model: 'cosine-bahdanau', input: 'tom chase jerry' }));
    await waitForStep(page, 'zh-cosine-bahdanau', 0);
    const decodeBound = page.locator('[data-testid=cosine-bound]');
    await decodeBound.waitFor();
    assert.equal(await decodeBound.getAttribute('data-n'), '3');
    assert.ok(Math.abs(Number(await decodeBound.getAttribute('data-value')) - bound) < 1e-15);
    assert.equal(await page.locator('[data-testid=cosine-bound-value]').textContent(), '0.787');
    // only where cosine is chosen
    await page.locator('h1').click();
    await page.keyboard.press('4'); // additive
    await waitForStep(page, 'zh-additive-bahdanau', 0);
    assert.equal(await page.locator('[data-testid=cosine-bound]').count(), 0);

    await page.click('[data-testid=view-compare]');
    const card = page.locator('[data-testid="cosine-bound-zh-cosine-bahdanau"]');
    await card.waitFor({ timeout: 30_000 });
    assert.equal(await card.getAttribute('data-n'), '3');
    assert.equal(
      await page.locator('[data-testid="cosine-bound-zh-cosine-bahdanau-value"]').textContent(),
      '0.787',
    );

    await open(page, '#view=sandbox&kind=cosine&t=1');
    const sandbox = page.locator('[data-testid=cosine-bound]');
    await sandbox.waitFor({ timeout: 20_000 });
    assert.equal(await sandbox.getAttribute('data-n'), '3');
    assert.equal(await page.locator('[data-testid=cosine-bound-value]').textContent(), '0.787');
    // τ = 0.5 doubles the scores' range: e⁴ / (e⁴ + 2)
    await open(page, '#view=sandbox&kind=cosine&t=0.5');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=cosine-bound-value]')?.textContent === '0.965',
      null,
      { timeout: 20_000 },
    );
    assert.ok(Math.abs(Math.exp(4) / (Math.exp(4) + 2) - 0.9646) < 1e-4);
  });
});

describe('scaled cosine’s bound with its learned g', () => {
  const NAME = 'dates-scaled_cosine-bahdanau';
  const INPUT = 'may 3';
  const byHand = (n, g) => Math.exp(2 * g) / (Math.exp(2 * g) + n - 1);
  /** What the engine in node gives for INPUT: the first step's g, n, the bound with g and with 1. */
  const expected = (() => {
    const session = model(NAME).decode(INPUT);
    const first = session.step();
    const n = session.sourceTokens().length;
    session.delete();
    return {
      g: first.scale,
      n,
      bound: ap.cosineWeightBound(n, first.scale),
      plain: ap.cosineWeightBound(n),
      largest: Math.max(...first.weights),
    };
  })();

  test('the engine’s g is the checkpoint’s learned one, and its bound is e^{2g} / (e^{2g} + n − 1)', () => {
    const tensor = readSafetensors(modelFile(NAME))['decoder.attn.scale'];
    assert.deepEqual(tensor.shape, [1]);
    assert.equal(expected.g, tensor.data[0]);
    // learned: not the √dh = √128 ≈ 11.31 the training started from
    assert.ok(
      expected.g > 11 && expected.g < 12 && expected.g !== Math.fround(Math.sqrt(128)),
      `g = ${expected.g}`,
    );
    assert.equal(expected.n, 5);
    assert.ok(Math.abs(expected.bound - byHand(5, expected.g)) < 1e-12);
    assert.ok(Math.abs(expected.plain - byHand(5, 1)) < 1e-15);
    assert.ok(expected.bound > 0.9999999 && expected.plain < 0.65, 'the learned g lifts the cap');
  });

  test('Decode: the bound and g are the model’s, and the step’s formula writes g’s value', async () => {
    const attr = async (selector, name) => page.locator(selector).first().getAttribute(name);
    await open(page, hashOf({ task: 'dates', model: 'scaled_cosine-bahdanau', input: INPUT }));
    await waitForStep(page, NAME, 0);
    const bound = page.locator('[data-testid=cosine-bound]');
    await bound.waitFor();
    assert.equal(Number(await bound.getAttribute('data-scale')), expected.g);
    assert.equal(Number(await bound.getAttribute('data-n')), expected.n);
    assert.equal(Number(await bound.getAttribute('data-value')), expected.bound);
    assert.equal(Number(await bound.getAttribute('data-plain')), expected.plain);
    assert.equal(await page.textContent('[data-testid=cosine-bound-scale]'), formatNumber(expected.g));
    assert.equal(await page.textContent('[data-testid=cosine-bound-value]'), '1.000');
    const text = (await bound.textContent())?.replace(/\s+/g, ' ') ?? '';
    assert.match(text, /The learned scale lifts the cosine bound/);
    assert.ok(text.includes(`g = ${formatNumber(expected.g)}`), text);
    assert.ok(text.includes(`plain cosine (g = 1) stops at ${formatNumber(expected.plain)}`), text);
    assert.ok(text.includes(`the largest here is ${formatNumber(expected.largest)}`), text);

    const formula = page.locator('[data-testid=formula-panel] .tex').first();
    await formula.scrollIntoViewIfNeeded();
    const tex = (await formula.getAttribute('data-tex')) ?? '';
    assert.ok(tex.startsWith(`e_j = \\underset{g}{${formatNumber(expected.g)}}\\,\\frac`), tex);
    assert.ok((await formula.textContent())?.includes(formatNumber(expected.g)));
    await bound.scrollIntoViewIfNeeded();
    await shot(page, 'decode-scaled-cosine-1440');

    // plain cosine keeps g = 1, and its formula has no g to fill
    await page.locator('h1').click();
    await page.keyboard.press('5');
    await waitForStep(page, 'dates-cosine-bahdanau', 0);
    await page.waitForFunction(() => !document.querySelector('[data-testid=cosine-bound-scale]'));
    assert.equal(await attr('[data-testid=cosine-bound]', 'data-scale'), '1');
    assert.equal(Number(await attr('[data-testid=cosine-bound]', 'data-value')), expected.plain);
  });
});

describe('the fixed-vector baseline', () => {
  const fixedValues = (p) =>
    p.$eval('[data-testid=fixed-vector]', (el) => el.dataset.values.split(',').map(Number));
  // The decode of `name` done, at whichever step the stepper kept.
  const waitForModel = (p, name) =>
    p.waitForFunction(
      (name) => {
        const d = document.querySelector('[data-testid=decode]');
        return d?.dataset.model === name && !d.classList.contains('stale');
      },
      name,
      { timeout: 20_000 },
    );

  test('shows one context for every step and no scores, weights or alignment', async () => {
    const session = model('reverse-none-bahdanau').decode('abcdefghij');
    const steps = session.run();
    session.delete();
    await open(page, hashOf({ task: 'reverse', model: 'none-bahdanau', input: 'abcdefghij' }));
    await waitForStep(page, 'reverse-none-bahdanau', 0);
    await page.locator('[data-testid=fixed-context]').waitFor();
    assert.equal(await page.locator('[data-testid=stages]').isVisible(), false);
    assert.equal(await page.locator('[data-testid=heatmap]').isVisible(), false);
    const first = await fixedValues(page);
    assert.equal(first.length, steps[0].context.length);
    first.forEach((v, k) => assert.equal(v, steps[0].context[k]));
    await page.keyboard.press('End');
    await waitForStep(page, 'reverse-none-bahdanau', steps.length - 1);
    assert.deepEqual(await fixedValues(page), first);
    assert.equal(await page.locator('[data-testid=source-0]').getAttribute('title'), 'no attention weight');
    await page.click('[data-testid=with-attention]');
    await waitForModel(page, 'reverse-additive-bahdanau');
    assert.equal(await page.locator('[data-testid=fixed-context]').count(), 0);
    assert.ok(await page.locator('[data-testid=stages]').isVisible());
    await page.click('[data-testid=without-attention]');
    await waitForModel(page, 'reverse-none-bahdanau');
    await page.locator('[data-testid=fixed-context]').waitFor();
  });

  const box = (p, selector) =>
    p.$eval(selector, (el) => {
      const s = getComputedStyle(el);
      return {
        fontSize: s.fontSize,
        marginTop: s.marginTop,
        background: s.backgroundColor,
        borderStyle: s.borderTopStyle,
      };
    });

  test('the baseline’s card has a card’s title and its buttons read as links', async () => {
    await open(page, hashOf({ task: 'zh', lang: 'en', model: 'none-bahdanau', input: 'tom chase jerry' }));
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
  });

  test('the baseline says the link’s what-ifs are kept but do not apply to it', async () => {
    await open(
      page,
      hashOf({ task: 'zh', lang: 'en', model: 'none-bahdanau', input: 'tom chase jerry', wi: 'm1@0,t0.5@1' }),
    );
    await waitForStep(page, 'zh-none-bahdanau', 0);
    // The what-ifs vanished from sight without a word (and came back under another model).
    assert.match(
      await page.locator('[data-testid=fixed-whatifs]').innerText(),
      /What-ifs set: 2\. They change attention/,
    );
    await page.click('[data-testid=with-attention]');
    await waitForStep(page, 'zh-additive-bahdanau', 0);
    assert.equal(await page.locator('[data-testid=whatif-items] li').count(), 2);
  });

  test('the baseline’s chosen style is legible (the settings meet WCAG AA contrast)', async () => {
    await open(page, hashOf({ task: 'zh', model: 'none-bahdanau', lang: 'en' }));
    await waitForStep(page, 'zh-none-bahdanau', 0);
    // "Bahdanau (query sᵢ₋₁)", chosen but marked missing, was grey on the blue fill (about 1.4 : 1)
    assert.deepEqual(await lowContrast(page, '[data-testid=settings]'), []);
  });
});

describe('what-ifs', () => {
  const MODEL = 'zh-additive-bahdanau';
  const INPUT = 'tom chased jerry in the kitchen';
  const whatIfHash = (fields) =>
    hashOf({ task: 'zh', lang: 'en', reveal: '1', model: 'additive-bahdanau', input: INPUT, ...fields });

  /**
   * The engine's decode of INPUT in node with `items` applied before their steps, in the order the
   * page's worker applies them (masks, unmasks, pins, temperatures).
   */
  function whatIfReference(items) {
    const session = model(MODEL).decode(INPUT, { topK: 5 });
    try {
      const steps = [];
      while (!session.done()) {
        const i = session.length();
        for (const kind of ['mask', 'unmask', 'pin', 'temperature'])
          for (const w of items.filter((w) => w.kind === kind && w.step === i))
            session.whatIf({ [kind]: kind === 'temperature' ? w.tau : (w.weights ?? w.token) });
        steps.push(session.step());
      }
      return steps;
    } finally {
      session.delete();
    }
  }

  // The link's what-ifs as the reference takes them (the URL is read back by web/shared/text/whatif-link.js).
  async function linkedItems() {
    await urlSettled(page);
    const { readWhatIfUrl } = await import('../../web/shared/text/whatif-link.js');
    return readWhatIfUrl(new URL(page.url()).hash);
  }

  const values = (testid) =>
    page.$eval(`[data-testid=${testid}]`, (el) =>
      /** @type {HTMLElement} */ (el).dataset.values.split(',').map(Number),
    );
  const dataValue = (testid) =>
    page.$eval(`[data-testid="${testid}"]`, (el) => Number(/** @type {HTMLElement} */ (el).dataset.value));

  /** The shown step's weights, context and taken token's probability equal the engine's record. */
  async function assertShows(record) {
    await waitForStep(page, MODEL, record.index);
    for (let j = 0; j < record.weights.length; j++) {
      assert.equal(await dataValue(`weight-${j}`), record.weights[j], `step ${record.index}: weight ${j}`);
      assert.equal(await dataValue(`whatif-value-${j}`), record.weights[j]);
    }
    const context = await values('context');
    assert.equal(context.length, record.context.length);
    context.forEach((c, d) => assert.equal(c, record.context[d], `context[${d}]`));
    const taken = record.top.findIndex((t) => t.id === record.tokenId);
    const prob = await page.$eval(`[data-testid=top-${taken}] .num`, (el) =>
      Number(/** @type {HTMLElement} */ (el).dataset.value),
    );
    assert.equal(prob, record.probs[record.tokenId]);
    assert.equal(
      await page.getAttribute(`[data-testid=output-${record.index}]`, 'data-intervened'),
      String(record.intervened),
    );
  }

  async function goToStep(i) {
    await page.click(`[data-testid=output-${i}]`);
    await waitForStep(page, MODEL, i);
  }

  test('a masked source token: weight 0 from this step on, struck, and the later steps follow', async () => {
    await open(page, whatIfHash({}));
    await waitForStep(page, MODEL, 0);
    const plain = whatIfReference([]);
    await assertShows(plain[0]);
    await goToStep(1);
    await page.click('[data-testid=whatif-mask-2]');
    const expected = whatIfReference([{ kind: 'mask', step: 1, token: 2 }]);
    assert.deepEqual(await linkedItems(), [{ kind: 'mask', step: 1, token: 2 }]);
    await assertShows(expected[1]);
    assert.equal(expected[1].weights[2], 0);
    assert.match(await page.textContent('[data-testid=weights-panel-mark]'), /masked: “jerry”/);
    assert.match(await page.getAttribute('[data-testid=source-2]', 'class'), /masked/);
    // why the decoder can still write a word it no longer looks at, with the engine's p
    const taken = expected[1].top.find((t) => t.token === expected[1].token);
    if (expected[1].token !== '</s>' && taken)
      assert.match(
        await page.textContent('[data-testid=whatif-still-writes]'),
        new RegExp(
          `With “jerry” masked this step still writes ${expected[1].token} \\(p ${formatNumber(taken.prob)}\\)`,
        ),
      );
    // Step 1 is before the mask: the model's own.
    await goToStep(0);
    await assertShows(expected[0]);
    assert.equal(await page.locator('[data-testid=weights-panel-mark]').count(), 0);
    assert.equal(await page.locator('[data-testid=whatif-still-writes]').count(), 0);
    const last = expected.length - 1;
    await goToStep(last);
    await assertShows(expected[last]);
    const output = await page.$$eval('[data-testid=output-tokens] button', (b) =>
      b.map((x) => x.textContent),
    );
    assert.deepEqual(
      output,
      expected.map((s) => s.token),
    );
    // At a later step the same control takes the mask back from there on.
    await goToStep(3);
    await page.click('[data-testid=whatif-mask-2]');
    const unmasked = [
      { kind: 'mask', step: 1, token: 2 },
      { kind: 'unmask', step: 3, token: 2 },
    ];
    assert.deepEqual(await linkedItems(), unmasked);
    const back = whatIfReference(unmasked);
    await assertShows(back[3]);
    assert.equal(back[3].masked, null);
    assert.equal(back[2].weights[2], 0);
    await goToStep(2);
    await assertShows(back[2]);
    await page.click('[data-testid=whatif-clear]');
    await assertShows(plain[2]);
    assert.equal(await page.locator('[data-testid=whatif-items]').count(), 0);
  });

  test('a pinned step: one-hot by a click, then weights set by dragging a bar, renormalised by the engine', async () => {
    await open(page, whatIfHash({ step: '2' }));
    await waitForStep(page, MODEL, 2);
    await page.click('[data-testid=whatif-pin-0]');
    let items = [{ kind: 'pin', step: 2, token: 0 }];
    assert.deepEqual(await linkedItems(), items);
    let expected = whatIfReference(items);
    assert.deepEqual(Array.from(expected[2].weights.slice(0, 2)), [1, 0]);
    await assertShows(expected[2]);
    assert.match(await page.textContent('[data-testid=context-panel-mark]'), /pinned on “tom”/);
    // Token 0's bar let go at 0.5: the weights sent are [0.5, 0, …], which the engine makes
    // [1, 0, …] again; the bar shows the engine's 1, not where it was let go.
    await page.$eval('[data-testid=whatif-weight-0]', (el) => {
      const input = /** @type {HTMLInputElement} */ (el);
      input.value = '0.5';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    items = await linkedItems();
    assert.deepEqual(items, [{ kind: 'pin', step: 2, weights: [0.5, 0, 0, 0, 0, 0] }]);
    await assertShows(whatIfReference(items)[2]);
    assert.equal(await page.inputValue('[data-testid=whatif-weight-0]'), '1');
    // Drag the bar of token 1 to about 0.8 of its track: the page sends the weights as set.
    await page.locator('[data-testid=whatif-weight-1]').scrollIntoViewIfNeeded();
    const bar = await page.locator('[data-testid=whatif-weight-1]').boundingBox();
    assert.ok(bar);
    await page.mouse.move(bar.x + 6, bar.y + bar.height / 2);
    await page.mouse.down();
    await page.mouse.move(bar.x + bar.width * 0.5, bar.y + bar.height / 2, { steps: 5 });
    await page.mouse.move(bar.x + bar.width * 0.8, bar.y + bar.height / 2, { steps: 5 });
    await page.mouse.up();
    items = await linkedItems();
    assert.equal(items.length, 1);
    const [pin] = items;
    assert.ok(pin.kind === 'pin' && 'weights' in pin, JSON.stringify(pin));
    assert.equal(pin.weights[0], 1, 'token 0 keeps the engine’s 1');
    assert.ok(pin.weights[1] > 0.6 && pin.weights[1] < 0.95, `dragged to ${pin.weights[1]}`);
    expected = whatIfReference(items);
    const sum = pin.weights.reduce((a, b) => a + b);
    assert.ok(Math.abs(expected[2].weights[1] - pin.weights[1] / sum) < 1e-6);
    await assertShows(expected[2]);
    assert.equal(expected[2].pin, 'weights');
    // The step after the pin is the model's own attention again, from the pinned step's state.
    await goToStep(3);
    await assertShows(expected[3]);
    assert.equal(expected[3].intervened, 0);
    await pageScreenshot(page, 'decode-whatif-pin-1440');
  });

  test('the attention temperature from this step on, in the engine’s range', async () => {
    await open(page, whatIfHash({ step: '1' }));
    await waitForStep(page, MODEL, 1);
    const limits = ap.limits();
    const slider = page.locator('[data-testid=whatif-temperature]');
    // the ends on the slider's grid of 0.01 (log10 of the float32 1e-3 is not on it), so both are reached
    assert.equal(Number(await slider.getAttribute('min')), Math.round(Math.log10(limits.minTemperature)));
    assert.equal(Number(await slider.getAttribute('max')), Math.round(Math.log10(limits.maxTemperature)));
    // log10 τ = 0.3: τ = 2 (the slider's value rounded to 3 digits)
    await slider.focus();
    for (let k = 0; k < 30; k++) await page.keyboard.press('ArrowRight');
    const items = await linkedItems();
    assert.deepEqual(items, [{ kind: 'temperature', step: 1, tau: 2 }]);
    const expected = whatIfReference(items);
    for (const i of [1, 2]) {
      await goToStep(i);
      await assertShows(expected[i]);
      assert.equal(await page.textContent('[data-testid=weights-temperature]'), '2');
      assert.match(await page.textContent('[data-testid=scores-panel-mark]'), /τ\s=\s2/);
      // the step in numbers says so, and its worked α divides by τ (it showed exp(e_j − m) / Σ)
      const formula = page.locator('[data-testid=formula-panel]');
      await formula.scrollIntoViewIfNeeded();
      await page.waitForFunction(() =>
        /At τ = 2 every term is exp\(\(e_j − m\) \/ τ\)\./.test(
          document.querySelector('[data-testid=formula-panel]')?.textContent ?? '',
        ),
      );
      const tex = await formula.evaluate((el) =>
        [...el.querySelectorAll('annotation[encoding="application/x-tex"]')].map((a) => a.textContent ?? ''),
      );
      assert.ok(
        tex.some((t) => /\/\s*2/.test(t) && /\\exp/.test(t)),
        `a worked exponent over τ = 2: ${tex.join(' | ')}`,
      );
    }
    await goToStep(0);
    assert.equal(await page.textContent('[data-testid=weights-temperature]'), '1');
    // End: the stated maximum exactly (it was 10^2.99 ≈ 977), written t1000 in the link
    await goToStep(1);
    await slider.focus();
    await page.keyboard.press('End');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=whatif-tau]')?.textContent?.trim() === 'τ = 1000',
    );
    assert.deepEqual(await linkedItems(), [{ kind: 'temperature', step: 1, tau: 1000 }]);
  });

  test('a link restores the same decode, and a malformed or refused what-if is noted', async () => {
    const items = [
      { kind: 'mask', step: 1, token: 2 },
      { kind: 'pin', step: 3, weights: [1, 3, 0, 0, 0, 0] },
      { kind: 'temperature', step: 2, tau: 0.5 },
    ];
    const expected = whatIfReference(items);
    await page.goto(fx.link(whatIfHash({ step: '3', wi: 'm2@1,p1/3/0/0/0/0@3,t0.5@2' })));
    await assertShows(expected[3]);
    assert.deepEqual(await linkedItems(), items);
    assert.match(await page.textContent('[data-testid=formula-whatif]'), /pinned weights/);
    await pageScreenshot(page, 'decode-whatif-1440');
    await page.reload();
    await assertShows(expected[3]);
    await goToStep(2);
    await assertShows(expected[2]);
    // A malformed item is left out with a note; a mask past the input is the engine's to refuse.
    await page.goto(fx.link(whatIfHash({ step: '1', wi: 'm2@1,zz' })));
    await assertShows(whatIfReference([{ kind: 'mask', step: 1, token: 2 }])[1]);
    assert.match(await page.textContent('body'), /“zz”.*the others are kept/);
    await open(page, whatIfHash({ step: '1', wi: 'm40@1' }));
    await assertShows(whatIfReference([])[1]);
    assert.match(await page.textContent('body'), /The engine refused the what-ifs/);
    await urlSettled(page);
    assert.equal(new URL(page.url()).hash.includes('wi='), false);
  });

  test('the what-if controls on a phone, in Chinese', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(fx.link(whatIfHash({ step: '3', lang: 'zh', wi: 'm2@1,p0@3,t0.5@2' })));
    await waitForStep(page, MODEL, 3);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
    await page.locator('[data-testid=whatif-panel]').scrollIntoViewIfNeeded();
    assert.equal(await page.textContent('#whatif-title'), '假如……');
    assert.match(await page.textContent('[data-testid=whatif-items]'), /从第 2 步起屏蔽“jerry”/);
    await shot(page, 'decode-whatif-375-zh');
    // the step in numbers at τ = 0.5, in Chinese: every term divided by τ
    await page.locator('[data-testid=formula-panel]').scrollIntoViewIfNeeded();
    await page.waitForFunction(() =>
      (document.querySelector('[data-testid=formula-panel]')?.textContent ?? '').includes(
        '在 τ = 0.5 时，每一项都是 exp((e_j − m) / τ)。',
      ),
    );
    // why the decoder still writes a word it no longer looks at, in Chinese
    await page.goto('about:blank');
    await page.goto(fx.link(whatIfHash({ step: '1', lang: 'zh', wi: 'm2@1' })));
    await waitForStep(page, MODEL, 1);
    const [, masked] = whatIfReference([{ kind: 'mask', step: 1, token: 2 }]);
    const taken = masked.top.find((t) => t.token === masked.token);
    assert.ok(taken && masked.token !== '</s>', 'step 2 writes a word');
    assert.match(
      (await page.textContent('[data-testid=whatif-still-writes]')) ?? '',
      new RegExp(
        `^\\s*屏蔽了 “jerry”，这一步仍然写出 ${masked.token}（p ${formatNumber(taken.prob)}）。屏蔽只是`,
      ),
    );
  });

  test('at 375 px in Chinese, step 1 shows nothing to come and says that weights are not alignments; zh’s missing location model is unavailable', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    const input = 'tom chased jerry in the kitchen yesterday';
    await open(page, hashOf({ task: 'zh', model: 'additive-bahdanau', input, step: '1', lang: 'zh' }));
    await waitForStep(page, 'zh-additive-bahdanau', 1);
    await page.locator('[data-testid=heatmap]').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=heatmap] rect.cell').length > 0);
    assert.equal(
      await page.locator('[data-testid=heatmap] [data-testid$="-0"]').count(),
      2,
      'steps 1 and 2 only',
    );
    assert.equal(await page.textContent('[data-testid=alignment-soft]'), decodeDict.zh.alignmentSoft);
    await page.click('[data-testid=settings-summary]');
    assert.equal(await page.isDisabled('[data-testid=score-location]'), true);
  });

  test('a pinned step’s weights are called pinned, and its mark never breaks inside “τ = 0.245”', async () => {
    await open(
      page,
      hashOf({
        task: 'zh',
        lang: 'en',
        model: 'additive-bahdanau',
        input: 'tom chase jerry',
        step: '1',
        wi: 'p1/0.01/0@1,m2@1,t0.245@1',
      }),
    );
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
  });
});

describe('on a phone and a small laptop', () => {
  test('on a phone the settings fold into one line, so the stepper is on the first screen', async () => {
    const p = await fx.page({ viewport: { width: 375, height: 800 } });
    await open(p, hashOf({ task: 'zh', model: 'additive-bahdanau', input: 'tom chase jerry', step: '1' }));
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
  });

  test('at 375 px the step-in-numbers formulas stay inside their card (they scroll)', async () => {
    const p = await fx.open(
      hashOf({
        task: 'zh',
        lang: 'zh',
        model: 'additive-bahdanau',
        input: 'tom chased jerry in the kitchen',
        step: '3',
      }),
      { viewport: { width: 375, height: 800 } },
    );
    await waitForStep(p, 'zh-additive-bahdanau', 3);
    const panel = p.locator('[data-testid=formula-panel]');
    await panel.scrollIntoViewIfNeeded();
    await p.locator('[data-testid=formula-panel] .pair .tex .katex').first().waitFor();
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
    // What scrolls says so: a Tab stop with a name, and a shade on the side with more (the
    // background's two radial gradients), a focus ring when the keyboard is in it. A box whose
    // content fits is no Tab stop.
    const regions = await p.evaluate(() =>
      [...document.querySelectorAll('.scroll, .heatmap-scroll')].map((el) => ({
        scrolls: el.scrollWidth > el.clientWidth + 1,
        marked: el.hasAttribute('data-scrolls'),
        tab: el.getAttribute('tabindex'),
        name: el.getAttribute('aria-label') ?? '',
        shades: (getComputedStyle(el).backgroundImage.match(/radial-gradient/g) ?? []).length,
      })),
    );
    const scrolling = regions.filter((r) => r.scrolls);
    assert.ok(scrolling.length > 0, `some box scrolls at 375 px: ${JSON.stringify(regions)}`);
    for (const r of regions)
      if (r.scrolls) assert.ok(r.marked && r.tab === '0' && r.name && r.shades === 2, JSON.stringify(r));
      else assert.ok(!r.marked && r.tab === null, JSON.stringify(r));
    await p.locator('[data-scrolls]').first().focus();
    await p.keyboard.press('Shift+Tab');
    await p.keyboard.press('Tab');
    const ring = await p.evaluate(() => {
      const el = /** @type {Element} */ (document.activeElement);
      const style = getComputedStyle(el);
      return {
        scrolls: el.hasAttribute('data-scrolls'),
        outline: `${style.outlineStyle} ${style.outlineWidth}`,
      };
    });
    assert.deepEqual(ring, { scrolls: true, outline: 'solid 3px' });
  });

  test('the formula view on a phone: the softmax and its worked line break after “=”, none past the card', async () => {
    const p = await fx.open(hashOf({ task: 'zh', input: 'tom chase jerry', lang: 'en' }), PHONE);
    const panel = p.locator('[data-testid=formula-panel]');
    await panel.waitFor({ state: 'attached', timeout: 30_000 });
    await panel.scrollIntoViewIfNeeded();
    await p.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid=formula-panel] .tex')].some(
          (tex) => tex.getAttribute('data-tex')?.startsWith('\\alpha_{\\text') && tex.querySelector('.katex'),
        ),
      null,
      { timeout: 30_000 },
    );
    const shown = await panel.evaluate((el) => {
      const edge = el.getBoundingClientRect().right;
      const softmax = [...el.querySelectorAll('.tex')].filter((tex) =>
        tex.getAttribute('data-tex')?.startsWith('\\alpha'),
      );
      return softmax.map((tex) => {
        const katex = /** @type {Element} */ (tex.querySelector('.katex-html'));
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
  });

  test('the scores’ scale in a small laptop’s stage card: its ticks apart, not “−7.33107.331”', async () => {
    for (const lang of ['en', 'zh']) {
      const p = await fx.open(hashOf({ task: 'zh', lang }), { viewport: { width: 1024, height: 768 } });
      await p.waitForSelector('[data-testid=score-axis] .ticks', { timeout: 30_000 });
      const ticks = await p.$eval('[data-testid=score-axis] .ticks', (el) =>
        [...el.children].map((tick) => {
          const box = tick.getBoundingClientRect();
          return { text: tick.textContent, left: box.left, right: box.right };
        }),
      );
      assert.equal(ticks.length, 3, JSON.stringify(ticks));
      assert.equal(ticks[1].text, '0');
      for (let i = 1; i < ticks.length; i++)
        assert.ok(ticks[i].left - ticks[i - 1].right >= 4, `${lang}: ${JSON.stringify(ticks)}`);
    }
  });

  test('the focus and “current” are marked differently, each 3 : 1 on white', async () => {
    await open(page, hashOf({ task: 'zh', model: 'additive-bahdanau', input: LONG, step: '2' }));
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
});

// the three stepping views, in English at 1440 px and in Chinese on a phone
for (const [view, ready, lang, viewport, words] of [
  ['decode', '[data-testid=decode]', 'en', { width: 1440, height: 1000 }, 'Skip to the step buttons'],
  ['caption', '[data-testid=caption][data-model]', 'zh', { width: 375, height: 800 }, '跳到步进键'],
  [
    'listen',
    '[data-testid=listen][data-model]',
    'en',
    { width: 375, height: 800 },
    'Skip to the step buttons',
  ],
  ['decode', '[data-testid=decode]', 'zh', { width: 375, height: 800 }, '跳到步进键'],
])
  test(`${view} (${lang}, ${viewport.width} px): the first Tab stop skips to the step buttons, and the next Tab is one of them`, async () => {
    const page = await fx.open(hashOf({ view, task: 'zh', input: 'tom chase jerry', lang }), { viewport });
    await page.waitForSelector(ready, { state: 'attached', timeout: 60_000 });
    await page.keyboard.press('Tab');
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        return el?.getAttribute('data-testid') ?? el?.getAttribute('role') ?? el?.tagName ?? '';
      });
    assert.equal(await focused(), 'skip-link');
    assert.equal(await page.locator('[data-testid=skip-link]').innerText(), words);
    await page.keyboard.press('Enter');
    assert.equal(await focused(), 'group');
    await page.keyboard.press('Tab');
    assert.match(await focused(), /^([a-z]+-)?(reset|start|back|play|autoplay|step|end)$/);
    assert.equal(new URL(page.url()).hash.includes('main'), false, 'the link’s state stays in the address');
  });
