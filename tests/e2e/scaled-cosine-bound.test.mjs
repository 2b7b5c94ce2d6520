// Scaled cosine's weight bound on the page, with its real g: the learned g of
// dates-scaled_cosine-bahdanau in Decode (bound and formula) and Compare, and the g chosen in the
// Sandbox. Every number is checked against the engine run here in node, the checkpoint's own
// tensor and e^{2g} / (e^{2g} + n − 1) computed by hand. Screenshots go to test-output/.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { loadEngine } from '../js/load-engine.mjs';
import { readSafetensors } from '../js/reference.mjs';
import { formatNumber } from '../../web/shared/lib/format.js';
import { exampleQuery, exampleTokens } from '../../web/features/sandbox/example.js';
import { launchBrowser, urlSettled, waitForStep } from './browser.mjs';
import { serveBuild } from './static-server.mjs';

const shots = new URL('../../test-output/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });

const NAME = 'dates-scaled_cosine-bahdanau';
const INPUT = 'may 3';
const bytes = new Uint8Array(readFileSync(new URL(`../../web/models/${NAME}.safetensors`, import.meta.url)));
const byHand = (n, g) => Math.exp(2 * g) / (Math.exp(2 * g) + n - 1);

let server, browser, page, ap;
const consoleErrors = [];
/** What the engine in node gives for INPUT: the first step's g, n, the bound with g and with 1. */
let expected;

async function open(p, hash) {
  await p.goto('about:blank');
  await p.goto(server.url + hash);
}
const attr = async (selector, name) => page.locator(selector).first().getAttribute(name);

describe('scaled cosine’s bound with its real g', () => {
  before(async () => {
    [server, browser, ap] = await Promise.all([serveBuild(), launchBrowser(), loadEngine()]);
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    const model = ap.Model.load(bytes);
    const session = model.decode(INPUT);
    const first = session.step();
    const n = session.sourceTokens().length;
    expected = {
      g: first.scale,
      n,
      bound: ap.cosineWeightBound(n, first.scale),
      plain: ap.cosineWeightBound(n),
      largest: Math.max(...first.weights),
    };
    session.delete();
    model.delete();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the engine’s g is the checkpoint’s learned one, and its bound is e^{2g} / (e^{2g} + n − 1)', () => {
    const tensor = readSafetensors(bytes)['decoder.attn.scale'];
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
    await open(
      page,
      `#${new URLSearchParams({ view: 'decode', task: 'dates', model: 'scaled_cosine-bahdanau', input: INPUT })}`,
    );
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
    await page.screenshot({ path: `${shots}scaled-cosine-decode.png` });

    // plain cosine keeps g = 1, and its formula has no g to fill
    await page.locator('h1').click();
    await page.keyboard.press('5');
    await waitForStep(page, 'dates-cosine-bahdanau', 0);
    await page.waitForFunction(() => !document.querySelector('[data-testid=cosine-bound-scale]'));
    assert.equal(await attr('[data-testid=cosine-bound]', 'data-scale'), '1');
    assert.equal(Number(await attr('[data-testid=cosine-bound]', 'data-value')), expected.plain);
  });

  test('Compare: the scaled cosine card gives the model’s g and its bound in one line', async () => {
    await open(
      page,
      `#${new URLSearchParams({ view: 'compare', task: 'dates', model: 'scaled_cosine-bahdanau', input: INPUT })}`,
    );
    const card = page.locator(`[data-testid="cosine-bound-${NAME}"]`).first();
    await card.waitFor({ timeout: 30_000 });
    assert.equal(Number(await card.getAttribute('data-scale')), expected.g);
    assert.equal(Number(await card.getAttribute('data-value')), expected.bound);
    assert.equal(Number(await card.getAttribute('data-plain')), expected.plain);
    assert.equal(
      await page.locator(`[data-testid="cosine-bound-${NAME}-scale"]`).first().textContent(),
      formatNumber(expected.g),
    );
    const line = (await card.textContent())?.replace(/\s+/g, ' ').trim() ?? '';
    assert.ok(
      line.startsWith(
        `Cosine bound lifted: the learned g = ${formatNumber(expected.g)} lets one of n = 5 tokens take up to 1.000 (plain cosine: ${formatNumber(expected.plain)})`,
      ),
      line,
    );
    assert.match(
      (await page.textContent('[data-testid=cosine-note]')) ?? '',
      /learned g, which lifts that cap/,
    );
    // the plain cosine card beside it keeps g = 1
    assert.equal(await attr('[data-testid="cosine-bound-dates-cosine-bahdanau"]', 'data-scale'), '1');
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}scaled-cosine-compare.png` });
  });

  test('Sandbox: a control for g within the engine’s range, and the bound with it', async () => {
    const keys = exampleTokens.map((t) => t.key);
    const values = exampleTokens.map((t) => t.value);
    const attend = (scale) =>
      ap.attend('scaled_cosine', exampleQuery, keys, values, scale === null ? {} : { params: { scale } });
    const max = ap.limits().maxCosineScale;
    const bound = page.locator('[data-testid=cosine-bound]');
    const settled = (g) =>
      page.waitForFunction(
        (g) => document.querySelector('[data-testid=cosine-bound]')?.getAttribute('data-scale') === String(g),
        g,
        { timeout: 20_000 },
      );
    const weights = () =>
      page.$$eval('[data-testid=weights-panel] [data-testid^=weight-]', (els) =>
        els.filter((e) => e.dataset.value !== undefined).map((e) => Number(e.dataset.value)),
      );

    await open(page, '#view=sandbox&kind=scaled_cosine&t=1');
    await bound.waitFor({ timeout: 20_000 });
    // no g chosen: the engine's default √dk = 2 for keys of size 4
    const byDefault = attend(null);
    assert.equal(byDefault.scale, 2);
    await settled(2);
    assert.equal(Number(await bound.getAttribute('data-value')), ap.cosineWeightBound(3, 2));
    assert.equal(await page.textContent('[data-testid=scale-output]'), '2.000');
    assert.deepEqual(await weights(), Array.from(byDefault.weights));
    const number = page.locator('[data-testid=scale-number]');
    assert.equal(await number.getAttribute('min'), String(-max));
    assert.equal(await number.getAttribute('max'), String(max));
    assert.match((await page.textContent('.inputs')) ?? '', /takes g from −1000 to 1000/);

    // the slider: one step right is g = 2.1 (a float32 in the engine)
    await page.focus('[data-testid=scale]');
    await page.keyboard.press('ArrowRight');
    const g21 = attend(2.1).scale;
    assert.equal(g21, Math.fround(2.1));
    await settled(g21);
    assert.equal(Number(await bound.getAttribute('data-value')), ap.cosineWeightBound(3, g21));
    assert.deepEqual(await weights(), Array.from(attend(2.1).weights));

    // the box: the model's learned g, where one key takes nearly all the weight
    await number.fill(String(expected.g));
    await settled(expected.g);
    assert.equal(Number(await bound.getAttribute('data-value')), ap.cosineWeightBound(3, expected.g));
    assert.equal(await page.textContent('[data-testid=cosine-bound-scale]'), formatNumber(expected.g));
    assert.equal(await page.textContent('[data-testid=cosine-bound-value]'), '1.000');
    assert.match((await bound.textContent()) ?? '', /The scale g lifts the cosine bound/);
    assert.deepEqual(await weights(), Array.from(attend(expected.g).weights));
    const tex = await page.locator('[data-testid=scores-panel] .tex').getAttribute('data-tex');
    assert.ok(tex?.startsWith(`e_j = \\underset{g}{${formatNumber(expected.g)}}\\,`), tex ?? '');
    // τ divides the scores: the bound of g/τ
    await page.fill('[data-testid=temperature]', '2');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=temperature-output]')?.textContent === '2.00',
    );
    await page.waitForFunction(
      (v) => document.querySelector('[data-testid=cosine-bound]')?.getAttribute('data-value') === String(v),
      ap.cosineWeightBound(3, expected.g / 2),
      { timeout: 20_000 },
    );
    await page.screenshot({ path: `${shots}scaled-cosine-sandbox.png` });

    // kept in the link: a reload restores g
    await urlSettled(page);
    assert.equal(new URL(page.url()).hash.match(/[#&]g=([^&]*)/)?.[1], String(expected.g));
    await page.reload();
    await settled(expected.g);

    // outside the engine's range: its message, and the last result greyed out
    await number.fill(String(2 * max));
    await page.waitForSelector('[data-testid=error]');
    assert.match(
      (await page.textContent('[data-testid=error]')) ?? '',
      /options\.params\.scale: expected a number from -1000 to 1000, got 2000/,
    );
    assert.throws(() => attend(2 * max), { code: 'bad_argument' });
    assert.deepEqual(consoleErrors, []);
  });

  test('on a phone (375 × 800) the folded settings say g, and the control opens with them', async () => {
    const phone = await browser.newPage({ viewport: { width: 375, height: 800 } });
    await phone.goto(`${server.url}#view=sandbox&kind=scaled_cosine&t=1&g=8`);
    await phone.waitForFunction(
      () => document.querySelector('[data-testid=cosine-bound]')?.getAttribute('data-scale') === '8',
      null,
      { timeout: 20_000 },
    );
    assert.match(
      (await phone.textContent('[data-testid=settings-summary]')) ?? '',
      /scaled cosine · g = 8\.000 · τ/,
    );
    assert.equal(
      Number(await phone.getAttribute('[data-testid=cosine-bound]', 'data-value')),
      ap.cosineWeightBound(3, 8),
    );
    await phone.click('[data-testid=settings-summary]');
    await phone.locator('[data-testid=scale]').scrollIntoViewIfNeeded();
    assert.equal(await phone.inputValue('[data-testid=scale-number]'), '8');
    await phone.screenshot({ path: `${shots}scaled-cosine-sandbox-phone.png` });
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `no sideways scroll (${width}px)`);
    await phone.close();
  });
});
