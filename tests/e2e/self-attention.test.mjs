// The self-attention view in headless Chromium: for a chosen token, layer and head the numbers on
// screen (Q·K, the scaled scores, the softmax weights, the head's output, the lines) are the JS
// API's trace of the same model; the decoder's cross-attention beside it is that model's trace;
// keyboard, messages, phone width, zero console errors, and a screenshot.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';

import { loadEngine } from '../js/load-engine.mjs';
import { formatNumber } from '../../web/shared/lib/format.js';
import { launchBrowser, urlSettled, waitForStep } from './browser.mjs';
import { serveBuild } from './static-server.mjs';

const shots = new URL('../../test-output/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });
const MODEL = 'zh-additive-bahdanau-transformer';
const INPUT = 'tom said that he was hungry';

let ap, server, browser, page, reference;
const consoleErrors = [];

before(async () => {
  [ap, server, browser] = await Promise.all([loadEngine(), serveBuild(), launchBrowser()]);
  const model = ap.Model.load(
    new Uint8Array(readFileSync(new URL(`../../web/models/${MODEL}.safetensors`, import.meta.url))),
  );
  const session = model.decode(INPUT);
  reference = {
    tokens: session.sourceTokens(),
    layers: session.selfAttention(),
    cross: session.run().map((s) => s.weights),
  };
  session.delete();
  model.delete();
  page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  await page.goto(`${server.url}#${new URLSearchParams({ view: 'self', task: 'zh', input: INPUT })}`);
  await page.waitForSelector('[data-testid=sa-detail]', { timeout: 30_000 });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const at = (t, ...ix) => {
  let o = 0;
  for (let k = 0; k < ix.length; k++) o = o * t.shape[k] + ix[k];
  return t.data[o];
};

/** The numbers the detail table shows, as text and as data-value. */
function shown() {
  return page.evaluate(() => {
    const cells = (prefix) =>
      [...document.querySelectorAll(`[data-testid^="${prefix}-"]`)]
        .filter((el) => new RegExp(`^${prefix}-\\d+$`).test(el.dataset.testid))
        .map((el) => ({ text: el.textContent.trim(), value: Number(el.dataset.value) }));
    const strip = (id) =>
      [...document.querySelectorAll(`[data-testid="${id}"] .c`)].map((el) => Number(el.dataset.value));
    return {
      title: document.querySelector('#sa-detail-title').textContent,
      raw: cells('sa-raw'),
      scaled: cells('sa-scaled'),
      weight: cells('sa-weight'),
      output: strip('sa-output'),
      query: strip('sa-query'),
    };
  });
}

function checkAgainstTrace(got, layer, head, token) {
  const r = reference.layers[layer];
  const n = reference.tokens.length;
  assert.match(got.title, new RegExp(`“${reference.tokens[token]}”.*layer ${layer + 1}, head ${head + 1}`));
  assert.equal(got.raw.length, n);
  for (let j = 0; j < n; j++) {
    assert.equal(got.raw[j].text, formatNumber(at(r.rawScores, head, token, j)), `q·k ${j}`);
    assert.equal(got.scaled[j].text, formatNumber(at(r.scores, head, token, j)), `scaled ${j}`);
    assert.equal(got.weight[j].text, formatNumber(at(r.weights, head, token, j)), `weight ${j}`);
    assert.equal(got.weight[j].value, Math.fround(at(r.weights, head, token, j)));
  }
  const dh = r.context.shape[2];
  assert.deepEqual(
    got.output,
    Array.from({ length: dh }, (_, k) => at(r.context, head, token, k)),
  );
  assert.deepEqual(
    got.query,
    Array.from({ length: dh }, (_, k) => at(r.query, head, token, k)),
  );
}

test('the chosen token, layer and head show the trace: Q·K, scaled, softmax, weighted sum of V', async () => {
  assert.deepEqual(reference.tokens, INPUT.split(' '));
  checkAgainstTrace(await shown(), 0, 0, 0);
  // "he" (token 3) in layer 2, head 3.
  await page.click('[data-testid=sa-head-1-2]');
  await page.click('[data-testid=sa-token-3]');
  await page.waitForFunction(() => document.querySelector('#sa-detail-title').textContent.includes('head 3'));
  const got = await shown();
  checkAgainstTrace(got, 1, 2, 3);
  // The lines of the chosen query carry the same weights.
  const lines = await page.$$eval('[data-testid^="sa-line-3-"]', (els) =>
    Object.fromEntries(els.map((el) => [el.dataset.testid, Number(el.getAttribute('data-value'))])),
  );
  assert.ok(Object.keys(lines).length >= 1);
  for (const [id, value] of Object.entries(lines)) {
    const j = Number(id.split('-').pop());
    assert.equal(value, at(reference.layers[1].weights, 2, 3, j));
  }
  await page.screenshot({ path: `${shots}self-attention.png`, fullPage: true });
  // The layer, head and token are in the URL: a reload shows the same numbers.
  await urlSettled(page);
  const url = page.url();
  assert.match(url, /sa=1\.2\.3/);
  await page.goto('about:blank');
  await page.goto(url);
  await page.waitForSelector('[data-testid=sa-detail]', { timeout: 30_000 });
  checkAgainstTrace(await shown(), 1, 2, 3);
});

test('every layer × head is drawn, and the keys move the token and the head', async () => {
  assert.equal(await page.locator('[data-testid^=sa-head-]').count(), 8);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => document.querySelector('#sa-detail-title').textContent.includes('head 4'));
  checkAgainstTrace(await shown(), 1, 3, 4);
});

test("the decoder's cross-attention beside it is the same model's trace", async () => {
  const cells = await page.$$eval('[data-testid^="sa-cross-heatmap-"]', (els) =>
    els
      .filter((el) => /-\d+-\d+$/.test(el.dataset.testid))
      .map((el) => [el.dataset.testid, Number(el.dataset.value)]),
  );
  const n = reference.tokens.length;
  assert.equal(cells.length, reference.cross.length * n);
  for (const [id, value] of cells) {
    const [i, j] = id.split('-').slice(-2).map(Number);
    assert.equal(value, reference.cross[i][j]);
  }
  await page.click('[data-testid=sa-show-cross]');
  assert.equal(await page.locator('[data-testid=sa-cross-heatmap]').count(), 0);
  await page.click('[data-testid=sa-show-cross]');
});

test('compare: the transformer model sits beside the BiGRU model, its heatmap its trace', async () => {
  await page.goto('about:blank');
  await page.goto(
    `${server.url}#${new URLSearchParams({ view: 'compare', task: 'zh', model: 'additive-bahdanau', input: INPUT })}`,
  );
  await page.waitForSelector(`[data-testid="cmp-${MODEL}-0-0"]`, { timeout: 30_000 });
  const cells = await page.$$eval(`[data-testid^="cmp-${MODEL}-"]`, (els) =>
    els
      .filter((el) => /-\d+-\d+$/.test(el.dataset.testid))
      .map((el) => [el.dataset.testid, Number(el.dataset.value)]),
  );
  assert.equal(cells.length, reference.cross.length * reference.tokens.length);
  for (const [id, value] of cells) {
    const [i, j] = id.split('-').slice(-2).map(Number);
    assert.equal(value, reference.cross[i][j]);
  }
  await page.screenshot({ path: `${shots}compare-encoders.png`, fullPage: true });
  await page.click(`[data-testid="compare-${MODEL}"] h3 button`);
  await page.waitForSelector('[data-testid=sa-detail]', { timeout: 30_000 });
});

test('decode view: the transformer-encoder model steps like the others, its weights its trace', async () => {
  await page.goto('about:blank');
  await page.goto(
    `${server.url}#${new URLSearchParams({ view: 'decode', task: 'zh', model: 'additive-bahdanau-transformer', input: INPUT, step: '0' })}`,
  );
  const weightsAt = async (i) => {
    await waitForStep(page, MODEL, i, 30_000);
    return page.$$eval('[data-testid^="weight-"]', (els) =>
      els.filter((el) => /^weight-\d+$/.test(el.dataset.testid)).map((el) => Number(el.dataset.value)),
    );
  };
  assert.deepEqual(await weightsAt(0), Array.from(reference.cross[0]));
  assert.ok(await page.isChecked('[data-testid=encoder-transformer]'));
  assert.match(
    await page.textContent('[data-testid=model-info]'),
    /Transformer encoder \(2 layers × 4 heads/,
  );
  await page.click('[data-testid=step]');
  assert.deepEqual(await weightsAt(1), Array.from(reference.cross[1]));
  await page.screenshot({ path: `${shots}decode-transformer.png` });
  await urlSettled(page);
  assert.match(page.url(), /model=additive-bahdanau-transformer/);
  // A score function without a transformer model goes back to the BiGRU encoder.
  await page.locator('[data-testid=score-dot]').check({ force: true });
  await page.waitForFunction(
    () => document.querySelector('[data-testid=decode]')?.dataset.model === 'zh-dot-bahdanau',
  );
  assert.ok(await page.isChecked('[data-testid=encoder-gru]'));
});

test('unknown words and a task without a transformer model give messages, not errors', async () => {
  await page.goto('about:blank');
  await page.goto(`${server.url}#${new URLSearchParams({ view: 'self', task: 'zh', input: INPUT })}`);
  await page.fill('[data-testid=sa-input]', 'tom chaes jerry');
  const error = page.locator('[data-testid=sa-error]');
  await error.waitFor({ timeout: 10_000 });
  assert.match(await error.textContent(), /chaes/);
  await page.goto('about:blank');
  await page.goto(`${server.url}#view=self&task=reverse&input=abc`);
  const none = page.locator('[data-testid=sa-no-model]');
  await none.waitFor({ timeout: 20_000 });
  assert.match(await none.textContent(), /no Transformer-encoder model/);
});

test('dates: the view works on characters, and fits a phone', async () => {
  const phone = await browser.newPage({ viewport: { width: 375, height: 800 } });
  phone.on('pageerror', (e) => consoleErrors.push(String(e)));
  await phone.goto(`${server.url}#view=self&task=dates&input=${encodeURIComponent('29 november 2026')}`);
  await phone.waitForSelector('[data-testid=sa-detail]', { timeout: 30_000 });
  assert.equal(await phone.locator('[data-testid^="sa-raw-"]').count(), 16);
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `horizontal scroll of ${overflow} px`);
  await phone.screenshot({ path: `${shots}self-attention-phone.png`, fullPage: true });
  await phone.close();
  assert.deepEqual(consoleErrors, []);
});
