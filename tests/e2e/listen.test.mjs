// The Listen view in headless Chromium against the audio module run here in node: the utterance
// shown is the engine's (frames, letter spans), Play hands the engine's PCM to the Web Audio API
// as one AudioBuffer of frames × samples-per-frame samples and moves a playhead; a phrase with a
// word outside the lexicon gets the engine's message naming it; the spectrogram's weights, the
// stage panels and the letters × frames alignment are the engine's trace of the utterance; the
// first page load does not fetch the audio module; 375 px wide works; the console stays free of
// errors. Screenshots go to test-output/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { loadAudio, readModel } from '../js/load-audio.mjs';
import { launchBrowser, openFresh, pageScreenshot, urlSettled, watchConsole } from './browser.mjs';
import { listenHash, shippedSpeech } from './listen-page.mjs';
import { serveBuild } from './static-server.mjs';

const shots = new URL('../../test-output/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });

const SAY = { phrase: 'how much wood would a woodchuck chuck', seed: 3, rate: 1, noise: 0.1 };
const MODEL = 'speech-additive-bahdanau';

let au, server, browser, page;
const consoleErrors = [];

before(async () => {
  [au, server, browser] = await Promise.all([loadAudio(), serveBuild(), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  watchConsole(page, consoleErrors);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const open = (p, hash) => openFresh(p, `${server.url}${hash}`);

/** Waits until the view shows the utterance asked for (and, with a model, letter `step` of it). */
async function waitForUtterance(p, say, step = null, model = null) {
  const key = JSON.stringify([say.phrase, say.seed, say.rate, say.noise]);
  await p
    .waitForFunction(
      ([key, step, model]) => {
        const c = document.querySelector('[data-testid=listen]');
        return (
          c?.getAttribute('data-said') === key &&
          !c.classList.contains('stale') &&
          (step === null || c.getAttribute('data-step') === String(step)) &&
          (model === null || c.getAttribute('data-model') === model) &&
          !c.querySelector('[data-pending]')
        );
      },
      [key, step, model],
      // generous: under load (two test files at a time) the engine's Worker can take many seconds
      { timeout: 60_000 },
    )
    .catch(async (error) => {
      // what the view showed instead, so a timeout says which condition never held
      const seen = await p.evaluate(() => {
        const c = document.querySelector('[data-testid=listen]');
        const text = (id) => document.querySelector(`[data-testid=${id}]`)?.textContent ?? null;
        return {
          said: c?.getAttribute('data-said') ?? null,
          classes: c?.className ?? null,
          step: c?.getAttribute('data-step') ?? null,
          model: c?.getAttribute('data-model') ?? null,
          pending: c ? c.querySelectorAll('[data-pending]').length : null,
          problem: text('listen-problem'),
          stale: text('listen-stale'),
          modelError: text('listen-model-error'),
          engineError: text('listen-engine-error'),
          hash: location.hash,
        };
      });
      throw new Error(`waiting for ${key} step ${step} of ${model}: the view shows ${JSON.stringify(seen)}`, {
        cause: error,
      });
    });
}

const numbers = (text) => (text ?? '').split(',').filter(Boolean).map(Number);

describe('listen view', () => {
  test('the first page load does not fetch the audio module; opening the view does', async () => {
    const p = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    watchConsole(p, consoleErrors);
    const urls = [];
    p.on('request', (r) => urls.push(r.url()));
    await p.goto(`${server.url}#view=decode`);
    await p.waitForSelector('[data-testid=decode]', { timeout: 20_000 });
    await urlSettled(p);
    const audio = (u) => /\/audio-|speech-|ListenView/.test(u);
    assert.deepEqual(urls.filter(audio), [], 'the decode view fetched a part of the audio engine');
    await p.click('[data-testid=view-listen]');
    await p.waitForSelector('[data-testid=listen-spectrogram]', { timeout: 20_000 });
    assert.ok(
      urls.some((u) => /\/audio-.*\.js$/.test(u)),
      `no audio module fetched: ${urls.filter(audio)}`,
    );
    assert.ok(
      urls.some((u) => /\/audio-.*\.wasm$/.test(u)),
      'no audio .wasm fetched',
    );
    await p.close();
  });

  test("the utterance is the engine's, and Play plays its PCM as one AudioBuffer with a moving playhead", async () => {
    const u = au.synthesize(SAY);
    const limits = au.limits();
    await open(page, listenHash(SAY));
    await waitForUtterance(page, SAY);
    const spectrogram = page.locator('[data-testid=listen-spectrogram]');
    assert.equal(Number(await spectrogram.getAttribute('data-frames')), u.frames.rows);
    assert.equal(Number(await spectrogram.getAttribute('data-bands')), 24);
    const play = page.locator('[data-testid=listen-play]');
    assert.equal(Number(await play.getAttribute('data-samples')), u.frames.rows * limits.samplesPerFrame);
    // the buffer handed to Web Audio: as long as the engine's PCM, at its rate
    const made = await page.evaluate(() => {
      const seen = [];
      const create = AudioContext.prototype.createBuffer;
      AudioContext.prototype.createBuffer = function (channels, length, rate) {
        seen.push({ channels, length, rate });
        return create.call(this, channels, length, rate);
      };
      // @ts-ignore a test hook
      window.__buffers = seen;
    });
    void made;
    await play.click();
    await page.waitForFunction(
      () =>
        Number(document.querySelector('[data-testid=listen-play]')?.getAttribute('data-buffer-length')) > 0,
    );
    assert.equal(
      Number(await play.getAttribute('data-buffer-length')),
      u.frames.rows * limits.samplesPerFrame,
    );
    assert.equal(Number(await play.getAttribute('data-buffer-rate')), limits.sampleRate);
    const buffers = await page.evaluate(() => /** @type {any} */ (window).__buffers);
    assert.deepEqual(buffers, [
      { channels: 1, length: u.frames.rows * limits.samplesPerFrame, rate: limits.sampleRate },
    ]);
    // the playhead moves over the frames while the sound plays (or the sound has already ended)
    await page.waitForFunction(
      () => {
        const s = document.querySelector('[data-testid=listen-spectrogram]');
        const b = document.querySelector('[data-testid=listen-play]');
        return Number(s?.getAttribute('data-playhead')) > 0 || b?.getAttribute('aria-pressed') === 'false';
      },
      null,
      { timeout: 5_000 },
    );
    await play.click(); // stop
    await page.waitForFunction(
      () => document.querySelector('[data-testid=listen-play]')?.getAttribute('aria-pressed') === 'false',
    );
    assert.equal(await spectrogram.getAttribute('data-playhead'), '-1');
  });

  test('a word outside the lexicon gets the engine message naming it; fixing it hears again', async () => {
    await open(page, listenHash(SAY));
    await waitForUtterance(page, SAY);
    const box = page.locator('[data-testid=listen-phrase]');
    await box.fill('how much wud would a woodchuck chuck');
    const problem = page.locator('[data-testid=listen-problem]');
    await problem.waitFor({ timeout: 10_000 });
    assert.equal(await problem.getAttribute('data-code'), 'unknown_token');
    const text = await problem.textContent();
    const engine = (() => {
      try {
        au.synthesize({ ...SAY, phrase: 'how much wud would a woodchuck chuck' });
      } catch (e) {
        return e.message;
      }
      return '';
    })();
    assert.match(text ?? '', /“wud”/);
    assert.ok(text?.includes(engine), `${text} has the engine's ${engine}`);
    await box.fill(SAY.phrase);
    await problem.waitFor({ state: 'detached', timeout: 10_000 });
    await waitForUtterance(page, SAY);
  });

  test(
    "the spectrogram's weights, the stages and the alignment are the engine's trace",
    { skip: !shippedSpeech('additive') },
    async () => {
      const model = au.AudioModel.load(readModel(`${MODEL}.safetensors`));
      const u = au.synthesize(SAY);
      const s = model.listen(u.frames, { topK: 5 });
      const steps = s.run();
      const reduction = s.reduction();
      s.delete();
      model.delete();
      await open(page, listenHash(SAY, { lsc: 'additive', lcmp: '0' }));
      await waitForUtterance(page, SAY, 0, MODEL);
      for (let i = 0; i < steps.length; i++) {
        if (i > 0) await page.locator('body').press('ArrowRight');
        await waitForUtterance(page, SAY, i, MODEL);
        const shown = await page.evaluate(() => ({
          overlay: document.querySelector('[data-testid=listen-spectrogram]')?.getAttribute('data-weights'),
          weights: document.querySelector('[data-testid=listen-weights]')?.getAttribute('data-values'),
          scores: document.querySelector('[data-testid=listen-scores]')?.getAttribute('data-values'),
          context: document.querySelector('[data-testid=listen-context]')?.getAttribute('data-values'),
          letter: document.querySelector('[data-testid=listen-spectrogram]')?.getAttribute('data-letter'),
        }));
        assert.deepEqual(numbers(shown.overlay), Array.from(steps[i].weights), `overlay of letter ${i + 1}`);
        assert.deepEqual(numbers(shown.weights), Array.from(steps[i].weights), `weights of letter ${i + 1}`);
        assert.deepEqual(numbers(shown.scores), Array.from(steps[i].scores), `scores of letter ${i + 1}`);
        assert.deepEqual(numbers(shown.context), Array.from(steps[i].context), `context of letter ${i + 1}`);
        assert.equal(shown.letter, steps[i].token);
      }
      const spectrogram = page.locator('[data-testid=listen-spectrogram]');
      assert.equal(Number(await spectrogram.getAttribute('data-reduction')), reduction);
      // the alignment: one row per letter written, the engine's weights
      const alignment = page.locator('[data-testid=listen-alignment]');
      await alignment.scrollIntoViewIfNeeded();
      await page.waitForFunction(
        (n) =>
          document.querySelector('[data-testid=listen-alignment]')?.getAttribute('data-rows')?.split(';')
            .length === n,
        steps.length,
      );
      const rows = (await alignment.getAttribute('data-rows'))?.split(';').map(numbers);
      assert.deepEqual(
        rows,
        steps.map((st) => Array.from(st.weights)),
      );
      const letters = await page.locator('[data-testid^=letter-]').allTextContents();
      assert.deepEqual(
        letters.map((l) => (l === '␣' ? ' ' : l)),
        steps.map((st) => st.token),
      );
    },
  );

  const others = ['location', 'general', 'dot', 'scaled_dot', 'cosine', 'scaled_cosine'].filter(
    shippedSpeech,
  );
  test(
    "models side by side: each one's transcript, figures and alignment are its own engine trace",
    { skip: !shippedSpeech('additive') || !others.length },
    async () => {
      const u = au.synthesize(SAY);
      const traces = {};
      for (const score of ['additive', ...others]) {
        const model = au.AudioModel.load(readModel(`speech-${score}-bahdanau.safetensors`));
        const s = model.listen(u.frames, { topK: 5 });
        traces[score] = { steps: s.run(), text: s.outputText(), info: model.info() };
        s.delete();
        model.delete();
      }
      await open(page, listenHash(SAY, { lsc: 'additive', lcmp: '1' }));
      await waitForUtterance(page, SAY, 0, MODEL);
      await page.locator('[data-testid=listen-compare-panel]').scrollIntoViewIfNeeded();
      for (const [score, trace] of Object.entries(traces)) {
        await page.waitForSelector(`[data-testid=compare-${score}-alignment]`, { timeout: 20_000 });
        assert.equal(await page.locator(`[data-testid=compare-${score}-text]`).textContent(), trace.text);
        const rows = (
          await page.locator(`[data-testid=compare-${score}-alignment]`).getAttribute('data-rows')
        )
          ?.split(';')
          .map(numbers);
        assert.deepEqual(
          rows,
          trace.steps.map((st) => Array.from(st.weights)),
          score,
        );
        const figures = await page.locator(`[data-testid=compare-${score}-figures]`).textContent();
        assert.ok(figures?.includes(`${(100 * trace.info.heldoutCer).toFixed(1)} %`), `${score}: ${figures}`);
        assert.ok(figures?.includes(trace.info.monotonicity.toFixed(3)), `${score}: ${figures}`);
      }
      await pageScreenshot(page, `${shots}listen-compare.png`);
    },
  );

  test('375 px wide: nothing wider than the screen; screenshots at 1440 and 375', async () => {
    const p = await browser.newPage({ viewport: { width: 375, height: 800 } });
    watchConsole(p, consoleErrors);
    await open(p, listenHash(SAY));
    await waitForUtterance(p, SAY);
    const width = await p.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `the page is ${width} px wide`);
    const box = await p.locator('[data-testid=listen-spectrogram]').boundingBox();
    assert.ok(box && box.width > 250 && box.x + box.width <= 375, JSON.stringify(box));
    await pageScreenshot(p, `${shots}listen-375.png`);
    await p.close();
    await open(page, listenHash(SAY));
    await waitForUtterance(page, SAY);
    await pageScreenshot(page, `${shots}listen-1440.png`);
  });

  test('the link holds what was said and the step; a reload hears the same utterance', async () => {
    const other = { phrase: 'a woodchuck could chuck wood', seed: 9, rate: 1.5, noise: 0.3 };
    await open(page, listenHash(SAY));
    await waitForUtterance(page, SAY);
    await page.locator('[data-testid=listen-phrase]').fill(other.phrase);
    await page.locator('[data-testid=listen-seed]').fill('9');
    await page.locator('[data-testid=listen-seed]').press('Enter');
    await page.locator('[data-testid=listen-rate]').fill('1.5');
    await page.locator('[data-testid=listen-noise]').fill('0.3');
    await waitForUtterance(page, other);
    await urlSettled(page);
    const hash = new URLSearchParams(new URL(page.url()).hash.slice(1));
    assert.equal(hash.get('view'), 'listen');
    assert.equal(hash.get('say'), other.phrase);
    assert.equal(hash.get('lseed'), '9');
    assert.equal(hash.get('lrate'), '1.5');
    assert.equal(hash.get('lnoise'), '0.3');
    await page.reload();
    await waitForUtterance(page, other);
    const u = au.synthesize(other);
    assert.equal(
      Number(await page.locator('[data-testid=listen-spectrogram]').getAttribute('data-frames')),
      u.frames.rows,
    );
  });

  test('a missing audio .wasm gives a message instead of hanging', async () => {
    const context = await browser.newContext();
    // its console is expected to report the 404 and the failed load
    await context.route('**/audio-*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
    const p = await context.newPage();
    await p.goto(`${server.url}${listenHash(SAY)}`);
    await p.waitForSelector('[data-testid=listen-engine-error]', { timeout: 20_000 });
    assert.match(await p.textContent('[data-testid=listen-engine-error]'), /The audio engine did not load/);
    await context.close();
  });

  test('no console errors on the way', () => {
    assert.deepEqual(consoleErrors, []);
  });
});
