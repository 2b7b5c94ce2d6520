// The decoding pages in headless Chromium against the same wasm and checkpoints run here in node:
// the stepper's scores, weights and context are the API's trace at every step, forcing a token
// changes the later steps as the API says, the keys step, the compare view's heatmaps are each
// model's trace, beams, URL round-trip, exports, messages, phone width, and no console errors.
// Screenshots of every view go to test-output/.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { loadEngine } from '../js/load-engine.mjs';
import { formatNumber, showToken as show } from '../../web/shared/lib/format.js';
import { launchBrowser, waitForStep, pageScreenshot, urlSettled } from './browser.mjs';
import { serveBuild } from './static-server.mjs';

const shots = new URL('../../test-output/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });
const modelDir = new URL('../../web/models/', import.meta.url).pathname;
const shipped = readdirSync(modelDir)
  .filter((f) => f.endsWith('.safetensors'))
  .map((f) => f.replace(/\.safetensors$/, ''));

const DATES = 'dates-additive-bahdanau';
const DATE = '29 november 2026';
const SCORES = ['dot', 'scaled_dot', 'general', 'additive', 'cosine', 'scaled_cosine', 'location'];

let ap, server, browser, page;
const consoleErrors = [];
const models = new Map();

function watchConsole(p) {
  p.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  p.on('pageerror', (error) => consoleErrors.push(String(error)));
}

function model(name) {
  if (!models.has(name))
    models.set(name, ap.Model.load(new Uint8Array(readFileSync(`${modelDir}${name}.safetensors`))));
  return models.get(name);
}

/** The API's decode of `text`: greedy, except where `forces` ([[step, tokenId]]) says. */
function reference(name, text, forces = [], beam = 0) {
  const s = model(name).decode(text, { topK: 5 });
  const forced = new Map(forces);
  const steps = [];
  while (!s.done()) steps.push(forced.has(s.length()) ? s.force(forced.get(s.length())) : s.step());
  const out = {
    sourceTokens: s.sourceTokens(),
    steps,
    outputText: s.outputText(),
    beam: beam ? s.beam(beam) : null,
  };
  s.delete();
  return out;
}

/** A fresh load of the page at `hashPart` (a change of the hash alone reloads the page itself). */
async function open(p, hashPart) {
  await p.goto('about:blank');
  await p.goto(server.url + hashPart);
}

// reveal=1: the output still to come is shown too, so a step's whole output can be compared
const hash = (fields) => `#${new URLSearchParams({ view: 'decode', reveal: '1', ...fields })}`;

/** Waits until the stepper shows step `i` of model `name`, then reads its numbers. */
async function shownStep(p, name, i) {
  await waitForStep(p, name, i);
  return p.evaluate(() => {
    const read = (prefix) =>
      [...document.querySelectorAll(`[data-testid^="${prefix}-"]`)]
        .filter((el) => new RegExp(`^${prefix}-\\d+$`).test(el.dataset.testid))
        .map((el) => ({ value: Number(el.dataset.value), text: el.textContent.trim() }));
    return {
      scores: read('score'),
      weights: read('weight'),
      // the context strip is a canvas; its numbers are in data-values
      context: (document.querySelector('[data-testid=context]')?.dataset.values ?? '')
        .split(',')
        .filter((v) => v !== '')
        .map((v) => ({ value: Number(v) })),
      source: read('source'),
      output: [...document.querySelectorAll('[data-testid^="output-"]')]
        .filter((el) => /^output-\d+$/.test(el.dataset.testid))
        .map((el) => el.textContent.trim()),
    };
  });
}

function assertStep(shown, record, what) {
  for (const stage of ['scores', 'weights', 'context'])
    assert.deepEqual(
      shown[stage].map((x) => x.value),
      Array.from(record[stage]),
      `${what}: ${stage} are the trace's`,
    );
  for (const stage of ['scores', 'weights'])
    assert.deepEqual(
      shown[stage].map((x) => x.text),
      Array.from(record[stage], formatNumber),
      `${what}: ${stage} as written`,
    );
  assert.deepEqual(
    shown.source.map((x) => x.value),
    Array.from(record.weights),
    `${what}: source tokens lit by weight`,
  );
}

async function heatmapValues(p, testid, rows, cols) {
  return p.evaluate(
    ([testid, rows, cols]) =>
      Array.from({ length: rows }, (_, i) =>
        Array.from({ length: cols }, (_, j) =>
          Number(document.querySelector(`[data-testid="${testid}-${i}-${j}"]`)?.dataset.value),
        ),
      ),
    [testid, rows, cols],
  );
}

async function noSidewaysScroll(p, what) {
  const { scrollWidth, innerWidth } = await p.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  assert.ok(
    scrollWidth <= innerWidth,
    `${what}: page is ${scrollWidth} px wide in a ${innerWidth} px window`,
  );
}

const ready = shipped.includes(DATES);

describe('decoding pages', { skip: ready ? false : `no ${DATES}.safetensors in web/models yet` }, () => {
  before(async () => {
    [ap, server, browser] = await Promise.all([loadEngine(), serveBuild(), launchBrowser()]);
    assert.ok(ap.Model, 'the wasm build has the trained-model API');
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    watchConsole(page);
  });

  after(async () => {
    for (const m of models.values()) m.delete();
    await browser?.close();
    await server?.close();
  });

  test('stepping through a dates decode shows the trace’s scores, weights and context at every step', async () => {
    const expected = reference(DATES, DATE);
    await open(page, hash({ task: 'dates', model: 'additive-bahdanau', input: DATE, step: '0' }));
    for (let i = 0; i < expected.steps.length; i++) {
      const shown = await shownStep(page, DATES, i);
      assertStep(shown, expected.steps[i], `step ${i}`);
      assert.deepEqual(
        shown.output,
        expected.steps.map((s) => show(s.token)),
      );
      if (i === 3) await pageScreenshot(page, `${shots}page-decode-desktop.png`);
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
    await open(page, hash({ task: 'dates', model: 'additive-bahdanau', input: DATE, step: '5' }));
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
    await pageScreenshot(page, `${shots}page-decode-forced.png`);

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

  test('a link with a task but no input shows that task’s first example, also after another task’s state', async () => {
    const zh = shipped.find((m) => /^zh-[a-z_]+-(bahdanau|luong)$/.test(m));
    if (zh) {
      const [, score, style] = zh.split('-');
      await open(page, hash({ task: 'zh', model: `${score}-${style}`, input: 'tom chase jerry' }));
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

  test('each export downloads a well-formed file', async () => {
    const expected = reference(DATES, DATE);
    await open(page, hash({ task: 'dates', model: 'additive-bahdanau', input: DATE, step: '0' }));
    await shownStep(page, DATES, 0);
    const grab = async (what) => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.click(`[data-testid=export-${what}]`),
      ]);
      return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
    };
    const json = await grab('json');
    assert.match(json.name, /\.trace\.json$/);
    const trace = JSON.parse(json.bytes.toString());
    assert.equal(trace.steps.length, expected.steps.length);
    assert.deepEqual(trace.meta.source_tokens, expected.sourceTokens);

    const csv = await grab('csv');
    const lines = csv.bytes.toString().trimEnd().split('\n');
    const n = expected.sourceTokens.length;
    assert.equal(lines[0], 'step,token,choice,log_prob,source_index,source_token,score,weight');
    assert.equal(lines.length, 1 + expected.steps.length * n);
    const [step, , choice, , j, , score, weight] = lines[1 + 3 * n + 2].split(',');
    assert.deepEqual([step, choice, j], ['3', 'greedy', '2']);
    assert.equal(Number(score), expected.steps[3].scores[2]);
    assert.equal(Number(weight), expected.steps[3].weights[2]);

    const svg = await grab('svg');
    const text = svg.bytes.toString();
    assert.match(text, /^<\?xml/);
    assert.match(text, /<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.equal((text.match(/class="cell/g) ?? []).length, expected.steps.length * n);

    const png = await grab('png');
    assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.ok(png.bytes.length > 1000);
  });

  test('unknown words, empty and over-long input get a message in the page', async () => {
    const zh = shipped.find((m) => /^zh-[a-z_]+-(bahdanau|luong)$/.test(m)); // a BiGRU model
    if (zh) {
      const [, score, style] = zh.split('-');
      await open(page, hash({ task: 'zh', model: `${score}-${style}`, input: 'tom chse jerry' }));
      await page.waitForSelector('[data-testid=input-error]');
      const message = await page.textContent('[data-testid=input-error]');
      assert.match(message, /unknown word "chse"/);
      assert.match(message, /chase/);
      await pageScreenshot(page, `${shots}page-unknown-word.png`);
      await page.click('[data-testid=input-error] button:has-text("chase")');
      await shownStep(page, zh, 0);
      assert.equal(await page.inputValue('[data-testid=decode-input]'), 'tom chase jerry');
    }
    await open(page, hash({ task: 'dates', model: 'additive-bahdanau', input: DATE }));
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

  test('compare: every shipped model of the task gets a heatmap whose cells are its trace', async () => {
    await open(page, hash({ view: 'compare', task: 'dates', model: 'additive-bahdanau', input: DATE }));
    const names = [...SCORES.map((s) => `dates-${s}-bahdanau`), 'dates-additive-luong'].filter((name) =>
      shipped.includes(name),
    );
    for (const name of names) {
      const expected = reference(name, DATE);
      await page.waitForSelector(`[data-testid="cmp-${name}-0-0"]`, { timeout: 20_000 });
      assert.deepEqual(
        await heatmapValues(page, `cmp-${name}`, expected.steps.length, expected.sourceTokens.length),
        expected.steps.map((s) => Array.from(s.weights)),
        `${name}: heatmap`,
      );
      assert.equal(await page.textContent(`[data-testid="output-${name}"]`), expected.outputText);
      const accuracy = model(name).info().heldoutExactMatch;
      if (accuracy != null)
        assert.equal(
          Number(await page.getAttribute(`[data-testid="accuracy-${name}"]`, 'data-value')),
          accuracy,
        );
    }
    // where each model's weights differ most from the chosen model's: the engine's answer, as the API gives it
    const weights = (name) => reference(name, DATE).steps.map((s) => s.weights);
    for (const name of names.filter((n) => n !== DATES)) {
      const expected = ap.weightDifference(weights(DATES), weights(name));
      const diff = page.locator(`[data-testid="diff-${name}"]`);
      await diff.waitFor({ timeout: 20_000 });
      assert.deepEqual(
        await diff.evaluate((el) => [el.dataset.value, el.dataset.row, el.dataset.col].map(Number)),
        [expected.value, expected.row, expected.col],
        `${name}: largest difference`,
      );
      assert.match(await diff.textContent(), new RegExp(`\\(\\|Δ\\| = ${formatNumber(expected.value)}\\)`));
    }
    const bahdanau = SCORES.filter((s) => shipped.includes(`dates-${s}-bahdanau`)).length;
    assert.equal(
      await page.locator('[data-testid^="cmp-dates-"][data-testid$="-bahdanau"]:is(figure)').count(),
      // the chosen model appears in every group (six scores; Bahdanau vs Luong; BiGRU vs Transformer)
      bahdanau + 1 + (shipped.includes('dates-additive-bahdanau-transformer') ? 1 : 0),
    );
    await pageScreenshot(page, `${shots}page-compare-desktop.png`);
  });

  test('beam view: the beams and their scores are the API’s; a selected beam shows its attention', async () => {
    const expected = reference(DATES, DATE, [], 3);
    await open(page, hash({ view: 'beam', task: 'dates', model: 'additive-bahdanau', input: DATE, k: '3' }));
    await page.waitForSelector('[data-testid=beam-0]', { timeout: 20_000 });
    const scores = await page.$$eval('[data-testid^="beam-"] .score', (els) =>
      els.map((e) => Number(e.dataset.value)),
    );
    assert.deepEqual(scores, expected.beam.scores);
    const b = expected.beam.beams.length > 1 ? 1 : 0;
    await page.click(`[data-testid=beam-${b}]`);
    const path = expected.beam.beams[b].map((id) => expected.beam.nodes.find((n) => n.id === id));
    await page.waitForFunction(
      (t) => document.querySelector('h2')?.textContent !== null && document.body.textContent.includes(t),
      `Attention of beam #${b + 1}`,
    );
    assert.deepEqual(
      await heatmapValues(page, 'beam-heatmap', path.length, expected.sourceTokens.length),
      path.map((n) => Array.from(n.weights)),
    );
    await pageScreenshot(page, `${shots}page-beam-desktop.png`);
  });

  test('the engine keeps only the session on show: a decode replaces the last, Compare keeps none', async () => {
    await open(page, hash({ view: 'decode', task: 'dates', model: 'additive-bahdanau', input: DATE }));
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

  test('the sandbox still works from its tab', async () => {
    await page.click('[data-testid=view-sandbox]');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=weight-0]')?.textContent.trim() === '0.600',
    );
    await urlSettled(page);
    assert.match(page.url(), /view=sandbox/);
  });

  test('a loading indicator shows while a checkpoint loads', async () => {
    const context = await browser.newContext();
    let release;
    const held = new Promise((resolve) => (release = resolve));
    await context.route('**/*.safetensors', async (route) => {
      await held;
      await route.continue();
    });
    const slow = await context.newPage();
    watchConsole(slow);
    await slow.goto(server.url + hash({ task: 'dates', model: 'additive-bahdanau', input: DATE }));
    await slow.waitForSelector('[data-testid=model-loading]', { timeout: 20_000 });
    assert.match(
      await slow.textContent('[data-testid=model-loading]'),
      /Loading the model dates-additive-bahdanau/,
    );
    release();
    assertStep(await shownStep(slow, DATES, 0), reference(DATES, DATE).steps[0], 'after the slow load');
    assert.equal(await slow.locator('[data-testid=model-loading]').count(), 0);
    await context.close();
  });

  test('a checkpoint that fails to load gets a message', async () => {
    const context = await browser.newContext();
    await context.route('**/*.safetensors', (route) => route.fulfill({ status: 404, body: 'gone' }));
    const broken = await context.newPage(); // its console is expected to report the 404
    await open(broken, hash({ task: 'dates', model: 'additive-bahdanau', input: DATE }));
    await broken.waitForSelector('[data-testid=model-error]', { timeout: 20_000 });
    assert.match(await broken.textContent('[data-testid=model-error]'), /did not load.*404/);
    await context.close();
  });

  test('at phone width (375 px) no view scrolls sideways', async () => {
    const phone = await browser.newPage({ viewport: { width: 375, height: 800 }, deviceScaleFactor: 2 });
    watchConsole(phone);
    const views = ['decode', 'compare', 'beam', 'sandbox'];
    for (const view of views) {
      await open(phone, hash({ view, task: 'dates', model: 'additive-bahdanau', input: DATE, step: '3' }));
      if (view === 'decode') await shownStep(phone, DATES, 3);
      if (view === 'compare') await phone.waitForSelector(`[data-testid="cmp-${DATES}-0-0"]`);
      if (view === 'beam') await phone.waitForSelector('[data-testid=beam-0]');
      if (view === 'sandbox') await phone.waitForSelector('[data-testid=weight-0]');
      await noSidewaysScroll(phone, view);
      await pageScreenshot(phone, `${shots}page-${view}-phone.png`);
    }
    await phone.close();
  });

  test('no console errors on the way', () => {
    assert.deepEqual(consoleErrors, []);
  });
});
