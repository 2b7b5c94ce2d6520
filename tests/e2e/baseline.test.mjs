// The fixed-vector baseline in Decode: no scores, no weights, no alignment, one context for every
// step, equal to the engine's run in node; the links between it and additive attention.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { loadEngine } from '../js/load-engine.mjs';
import { launchBrowser, waitForStep, watchConsole } from './browser.mjs';
import { serveBuild } from './static-server.mjs';

const modelFile = (name) =>
  new Uint8Array(readFileSync(new URL(`../../web/models/${name}.safetensors`, import.meta.url)));

let server, browser, page, ap;
const consoleErrors = [];
const hash = (fields) => `#${new URLSearchParams({ view: 'decode', ...fields })}`;
// The decode of `name` done, at whichever step the stepper kept.
const waitForModel = (name) =>
  page.waitForFunction(
    (name) => {
      const d = document.querySelector('[data-testid=decode]');
      return d?.dataset.model === name && !d.classList.contains('stale');
    },
    name,
    { timeout: 20_000 },
  );
const fixedValues = () =>
  page.$eval('[data-testid=fixed-vector]', (el) => el.dataset.values.split(',').map(Number));

describe('the fixed-vector baseline in Decode', () => {
  before(async () => {
    [server, browser, ap] = await Promise.all([serveBuild(), launchBrowser(), loadEngine()]);
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    watchConsole(page, consoleErrors);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('shows one context for every step and no scores, weights or alignment', async () => {
    const model = ap.Model.load(modelFile('reverse-none-bahdanau'));
    const session = model.decode('abcdefghij');
    const steps = session.run();
    session.delete();
    model.delete();
    await page.goto(server.url + hash({ task: 'reverse', model: 'none-bahdanau', input: 'abcdefghij' }));
    await waitForStep(page, 'reverse-none-bahdanau', 0);
    await page.locator('[data-testid=fixed-context]').waitFor();
    assert.equal(await page.locator('[data-testid=stages]').isVisible(), false);
    assert.equal(await page.locator('[data-testid=heatmap]').isVisible(), false);
    const first = await fixedValues();
    assert.equal(first.length, steps[0].context.length);
    first.forEach((v, k) => assert.equal(v, steps[0].context[k]));
    await page.keyboard.press('End');
    await waitForStep(page, 'reverse-none-bahdanau', steps.length - 1);
    assert.deepEqual(await fixedValues(), first);
    assert.equal(await page.locator('[data-testid=source-0]').getAttribute('title'), 'no attention weight');
    await page.click('[data-testid=with-attention]');
    await waitForModel('reverse-additive-bahdanau');
    assert.equal(await page.locator('[data-testid=fixed-context]').count(), 0);
    assert.ok(await page.locator('[data-testid=stages]').isVisible());
    await page.click('[data-testid=without-attention]');
    await waitForModel('reverse-none-bahdanau');
    await page.locator('[data-testid=fixed-context]').waitFor();
    assert.deepEqual(consoleErrors, []);
  });
});
