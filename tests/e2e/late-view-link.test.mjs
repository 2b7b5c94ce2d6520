// A link into a view whose code loads late (a slow network, a busy machine): the Listen and Train
// views' code, and the state that reads their fields from the link, arrive only when the view
// opens. The page writes its state into the link 250 ms after it starts; were it to write before
// the view's code had come, the link's fields of that view would be lost — in the address and in
// the view, which reads them when its code arrives. Here the view's code is held back for 2 s.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { launchBrowser, urlSettled } from './browser.mjs';
import { serveBuild } from './static-server.mjs';

let server, browser;
const consoleErrors = [];

/** Opens `hash` with the files matching `late` answered only after `ms`. */
async function openLate(hash, late, ms = 2000) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  await context.route(late, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
  const page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => consoleErrors.push(String(e.stack)));
  await page.goto(`${server.url}#${hash}`);
  return page;
}

const linkOf = async (page) => new URLSearchParams(await page.evaluate(() => location.hash.slice(1)));

describe('a link into a view whose code comes late', () => {
  before(async () => {
    [server, browser] = await Promise.all([serveBuild(), launchBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('Listen: the utterance, model and step of the link are kept, in the view and in the address', async () => {
    const hash = new URLSearchParams({
      view: 'listen',
      say: 'a woodchuck could chuck wood',
      lseed: '7',
      lrate: '1.5',
      lnoise: '0.3',
      lsc: 'location',
      lcmp: '0',
      lstep: '2',
    });
    const page = await openLate(hash, /\/assets\/(ListenView|listen\.svelte)-[^/]*\.js$/);
    // while the view's code is on its way, the address still holds every field of the link
    await page.waitForTimeout(1000);
    const waiting = await linkOf(page);
    for (const [key, value] of hash) assert.equal(waiting.get(key), value, `${key} while loading`);
    await page.waitForFunction(
      () => document.querySelector('[data-testid=listen]')?.getAttribute('data-model'),
      null,
      { timeout: 60_000 },
    );
    const view = await page.$eval('[data-testid=listen]', (el) => ({
      said: el.getAttribute('data-said'),
      model: el.getAttribute('data-model'),
      step: el.getAttribute('data-step'),
    }));
    assert.deepEqual(view, {
      said: JSON.stringify(['a woodchuck could chuck wood', 7, 1.5, 0.3]),
      model: 'speech-location-bahdanau',
      step: '2',
    });
    await urlSettled(page);
    const written = await linkOf(page);
    for (const [key, value] of hash) assert.equal(written.get(key), value, `${key} once shown`);
    await page.context().close();
  });

  test('Train: the task, score functions and steps of the link are kept', async () => {
    const hash = new URLSearchParams({
      view: 'train',
      'tr-task': 'speech',
      'tr-scores': 'location,dot',
      'tr-steps': '40',
    });
    const page = await openLate(hash, /\/assets\/(TrainView|train[^/]*)-[^/]*\.js$/);
    await page.waitForTimeout(1000);
    const waiting = await linkOf(page);
    for (const [key, value] of hash) assert.equal(waiting.get(key), value, `${key} while loading`);
    await page.waitForSelector('[data-testid=train-speech-encoder]', { timeout: 60_000 });
    assert.equal(await page.inputValue('[data-testid=train-steps]'), '40');
    assert.equal(await page.isChecked('[data-testid=train-score-location]'), true);
    assert.equal(await page.isChecked('[data-testid=train-score-dot]'), true);
    assert.equal(await page.isChecked('[data-testid=train-score-additive]'), false);
    await urlSettled(page);
    const written = await linkOf(page);
    for (const [key, value] of hash) assert.equal(written.get(key), value, `${key} once shown`);
    await page.context().close();
  });

  test('no console errors on the way', () => {
    assert.deepEqual(consoleErrors, []);
  });
});
