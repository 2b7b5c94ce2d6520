// The Listen view in headless Chromium against the audio module run here in node: the utterance
// shown is the engine's (frames, letter spans), Play hands the engine's PCM to the Web Audio API as
// one AudioBuffer and moves a playhead; a word outside the lexicon gets the engine's message; the
// spectrogram's weights, the stage panels and the letters × frames alignment are the engine's
// trace; the models side by side; the keys (digits as in Decode, space, S) and the hint that says
// them; the bars' value and time axes and the spectrogram's frequency axis from the engine's
// numbers; a location-aware model's panels; links, a late-loading view, a phone, a missing engine.
import assert from 'node:assert/strict';
import { before, beforeEach, describe, test } from 'node:test';

import { SCORES } from '../../web/shared/lib/score-functions.js';
import { loadAudio, readModel } from '../js/load-audio.mjs';
import { openFresh, pageScreenshot, shot, urlSettled } from './browser.mjs';
import { useBrowser } from './fixture.mjs';
import { listenHash, shippedSpeech } from './listen-page.mjs';
import { checkStepBar } from './step-bar.mjs';

const fx = useBrowser();
/** Each test's page: 1440 × 1000, in a fresh context. */
let page;
beforeEach(async () => {
  page = await fx.page();
});

let au;
before(async () => {
  au = await loadAudio();
});

const SAY = { phrase: 'how much wood would a woodchuck chuck', seed: 3, rate: 1, noise: 0.1 };
const MODEL = 'speech-additive-bahdanau';

const open = (p, hash) => openFresh(p, fx.link(hash));

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

describe('the utterance and the trace', () => {
  test('the first page load does not fetch the audio module; opening the view does', async () => {
    const p = page;
    const urls = [];
    p.on('request', (r) => urls.push(r.url()));
    await p.goto(fx.link('#view=decode'));
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

  test('in 中文 a word outside the lexicon and an empty phrase are told in Chinese only', async () => {
    await open(page, listenHash(SAY, { lang: 'zh' }));
    await waitForUtterance(page, SAY);
    const box = page.locator('[data-testid=listen-phrase]');
    const problem = page.locator('[data-testid=listen-problem]');
    await box.fill('how much wud would a woodchuck chuck');
    await problem.waitFor({ timeout: 10_000 });
    const unknown = (await problem.textContent()) ?? '';
    assert.match(unknown, /“wud”/);
    assert.doesNotMatch(
      unknown.replace('“wud”', ''),
      /[A-Za-z]{3,}/,
      `${unknown}: no English sentence beside the Chinese one`,
    );
    await box.fill('');
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid=listen-problem]')?.getAttribute('data-code') === 'empty_input',
    );
    const empty = (await problem.textContent()) ?? '';
    assert.match(empty, /输入为空/);
    assert.doesNotMatch(empty, /[A-Za-z]{3,}/, empty);
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
      const transcript = page.locator('[data-testid=listen-transcript]');
      for (let i = 0; i < steps.length; i++) {
        if (i > 0) await page.locator('body').press('ArrowRight');
        await waitForUtterance(page, SAY, i, MODEL);
        // the whole transcript only at the last letter (or when asked for), as Decode's output
        assert.equal(
          await transcript.count(),
          i === steps.length - 1 ? 1 : 0,
          `transcript at letter ${i + 1}`,
        );
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
      // in Chinese on a phone: back at the first letter the transcript is hidden, at the last shown
      await page.click('[data-testid=lang-zh]');
      await page.setViewportSize({ width: 375, height: 800 });
      await page.evaluate(() => /** @type {HTMLElement} */ (document.activeElement)?.blur());
      await page.locator('body').press('Home');
      await waitForUtterance(page, SAY, 0, MODEL);
      assert.equal(await transcript.count(), 0, 'no transcript at the first letter, in Chinese');
      await page.locator('body').press('End');
      await waitForUtterance(page, SAY, steps.length - 1, MODEL);
      assert.equal(await transcript.count(), 1);
      assert.match((await transcript.textContent()) ?? '', /[\u4e00-\u9fff]/);
      await page.setViewportSize({ width: 1440, height: 1000 });
      await page.click('[data-testid=lang-en]');
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
      await pageScreenshot(page, 'listen-compare-1440');
    },
  );

  test('375 px wide: nothing wider than the screen; screenshots at 1440 and 375', async () => {
    const p = await fx.page({ viewport: { width: 375, height: 800 } });
    await open(p, listenHash(SAY));
    await waitForUtterance(p, SAY);
    const width = await p.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `the page is ${width} px wide`);
    const box = await p.locator('[data-testid=listen-spectrogram]').boundingBox();
    assert.ok(box && box.width > 250 && box.x + box.width <= 375, JSON.stringify(box));
    await pageScreenshot(p, 'listen-375');
    await open(page, listenHash(SAY));
    await waitForUtterance(page, SAY);
    await pageScreenshot(page, 'listen-1440');
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
    // its console reports the 404 and the failed load
    const context = await fx.context({}, { expected: /404|did not load|Failed to load|WebAssembly/ });
    await context.route('**/audio-*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
    const p = await context.newPage();
    await p.goto(fx.link(listenHash(SAY)));
    await p.waitForSelector('[data-testid=listen-engine-error]', { timeout: 20_000 });
    assert.match(await p.textContent('[data-testid=listen-engine-error]'), /The audio engine did not load/);
  });

  test('the step bar: the same marks, names without them, the focus kept at the ends, a phone’s marks alone', () =>
    checkStepBar(fx, {
      view: 'listen',
      prefix: 'listen-',
      play: 'listen-autoplay',
      names: ['start (First letter)', 'Back', 'Step', 'end (Last letter)'],
    }));
});

// The learner's checks hear another utterance (seed 2).
const SAY_UX = { phrase: 'how much wood would a woodchuck chuck', seed: 2, rate: 1, noise: 0.1 };
const KEY_UX = JSON.stringify([SAY_UX.phrase, SAY_UX.seed, SAY_UX.rate, SAY_UX.noise]);
const hashUx = (extra = {}) => listenHash(SAY_UX, extra);
const SHIPPED = SCORES.filter(shippedSpeech);

const openUx = (extra = {}) => openFresh(page, fx.link(hashUx(extra)));

/** Waits until the view shows SAY_UX through `model` at letter `step` (any when null). */
function shownUx(model, step = null) {
  return page.waitForFunction(
    ([key, model, step]) => {
      const c = document.querySelector('[data-testid=listen]');
      return (
        c?.getAttribute('data-said') === key &&
        c.getAttribute('data-model') === model &&
        (step === null || c.getAttribute('data-step') === String(step)) &&
        !c.classList.contains('stale')
      );
    },
    [KEY_UX, model, step],
    { timeout: 60_000 },
  );
}

const name = (score) => `speech-${score}-bahdanau`;

describe('keys, axes and words for a learner', () => {
  test('digit keys pick the score function Decode gives them; a key without a model says so', async () => {
    assert.ok(SHIPPED.length >= 2, `speech models shipped: ${SHIPPED}`);
    await openUx({ lsc: SHIPPED[SHIPPED.length - 1] });
    await shownUx(name(SHIPPED[SHIPPED.length - 1]));
    for (const score of SHIPPED) {
      // Decode's keys: SCORES in order, 1 first
      await page.locator('body').press(String(SCORES.indexOf(score) + 1));
      await shownUx(name(score));
      // the pill says the same key
      const pill = page.locator(`label:has([data-testid=listen-score-${score}]) .key`);
      assert.equal(await pill.textContent(), String(SCORES.indexOf(score) + 1), `${score}'s pill`);
    }
    // the last one pressed
    const chosen = SHIPPED[SHIPPED.length - 1];
    const hint = page.locator('[data-testid=listen-keys]');
    for (const score of SCORES.filter((s) => !SHIPPED.includes(s))) {
      const key = String(SCORES.indexOf(score) + 1);
      await page.locator('body').press(key);
      // nothing changes, and the hint says why
      await page.waitForFunction(
        () => (document.querySelector('[data-testid=listen-key-note]')?.textContent ?? '').trim() !== '',
      );
      const note = await page.locator('[data-testid=listen-key-note]').textContent();
      assert.match(note ?? '', new RegExp(`Key ${key} is .*no .* speech model`), note ?? '');
      assert.equal(await page.locator('[data-testid=listen]').getAttribute('data-model'), name(chosen));
      assert.match((await hint.textContent()) ?? '', new RegExp(`No speech model for .*${key} \\(`));
    }
    // the hint lists the keys that do pick a model
    assert.equal(
      await hint.getAttribute('data-keys'),
      SHIPPED.map((score) => SCORES.indexOf(score) + 1).join(','),
    );
    await shot(page.locator('[data-testid=listen-keys]'), 'listen-keys-1440');
  });

  test('space plays and pauses the letters as in Decode; S plays the sound; the hint says so', async () => {
    const model = name(SHIPPED.includes('additive') ? 'additive' : SHIPPED[0]);
    await openUx({ lsc: model.split('-')[1], lcmp: '0' });
    await shownUx(model, 0);
    const autoplay = page.locator('[data-testid=listen-autoplay]');
    const sound = page.locator('[data-testid=listen-play]');
    await page.locator('body').press(' ');
    assert.equal(await autoplay.getAttribute('aria-pressed'), 'true', 'space starts the letters');
    assert.equal(await sound.getAttribute('aria-pressed'), 'false', 'space is not the sound');
    // the letters move on by themselves
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid=listen]')?.getAttribute('data-step')) > 0,
    );
    await page.locator('body').press(' ');
    assert.equal(await autoplay.getAttribute('aria-pressed'), 'false', 'space pauses the letters');
    assert.equal(await sound.getAttribute('data-buffer-length'), '0', 'no sound was played');
    await page.locator('body').press('s');
    assert.equal(await sound.getAttribute('aria-pressed'), 'true', 'S plays the sound');
    assert.ok(Number(await sound.getAttribute('data-buffer-length')) > 0);
    await page.locator('body').press('s');
    assert.equal(await sound.getAttribute('aria-pressed'), 'false', 'S stops the sound');
    const hint = (await page.locator('[data-testid=listen-keys]').textContent()) ?? '';
    assert.match(hint, /space plays or pauses the letters/);
    assert.match(hint, /S plays or stops the sound/);
    // the buttons' titles name their keys
    assert.match((await autoplay.getAttribute('title')) ?? '', /\(space\)/);
    assert.match((await sound.getAttribute('title')) ?? '', /\(key S\)/);
  });

  test("the sound's button and the letters' button are told apart by name and icon, en and zh", async () => {
    const model = name(SHIPPED[0]);
    for (const [lang, soundName, lettersName] of [
      ['en', 'hear the sound', 'play the letters'],
      ['zh', '听声音', '逐字母播放'],
    ]) {
      await openUx({ lsc: SHIPPED[0], lcmp: '0', lang });
      await shownUx(model, 0);
      const sound = page.getByRole('button', { name: soundName, exact: true });
      const letters = page.getByRole('button', { name: lettersName, exact: true });
      assert.equal(await sound.getAttribute('data-testid'), 'listen-play', `${lang}: the sound's name`);
      assert.equal(
        await letters.getAttribute('data-testid'),
        'listen-autoplay',
        `${lang}: the letters' name`,
      );
      // a speaker for the sound, the ▶ for the letters: not the same glyph twice
      assert.equal(await sound.locator('svg').count(), 1, `${lang}: the sound has its speaker icon`);
      assert.ok(!((await sound.textContent()) ?? '').includes('▶'), `${lang}: no ▶ on the sound`);
      assert.ok(((await letters.textContent()) ?? '').includes('▶'), `${lang}: ▶ on the letters`);
      const hint = (await page.locator('[data-testid=listen-keys]').textContent()) ?? '';
      if (lang === 'zh') {
        assert.match(hint, /空格键播放或暂停逐字母播放/);
        assert.match(hint, /S 键播放或停止声音/);
      }
      // pressed: the names say what a press does now
      await letters.click();
      await page
        .getByRole('button', { name: lang === 'en' ? 'pause the letters' : '暂停逐字母播放' })
        .click();
      await shot(page.locator('section.hear').first(), `listen-sound-1440-${lang}`);
    }
  });

  test("the score and weight bars have a value axis and a time axis from the engine's numbers", async () => {
    const score = SHIPPED.includes('additive') ? 'additive' : SHIPPED[0];
    const model = au.AudioModel.load(readModel(`${name(score)}.safetensors`));
    const u = au.synthesize(SAY_UX);
    const s = model.listen(u.frames, { topK: 5 });
    const steps = s.run();
    const reduction = s.reduction();
    s.delete();
    model.delete();
    const limits = au.limits();
    const secondsPerFrame = limits.samplesPerFrame / limits.sampleRate;
    let extent = 0;
    for (const step of steps) for (const e of step.scores) extent = Math.max(extent, Math.abs(e));
    const step = 3;
    await openUx({ lsc: score, lcmp: '0', lstep: String(step) });
    await shownUx(name(score), step);
    const scores = Array.from(steps[step].scores);
    const weights = Array.from(steps[step].weights);
    const argmax = (xs) => xs.reduce((b, x, j) => (x > xs[b] ? j : b), 0);
    const format = (x) => x.toFixed(3).replace('-', '−');

    // scores: ±the transcript's largest |score|, 0 between, signs written
    const scoreAxis = page.locator('[data-testid=listen-scores-axis]');
    assert.equal(Number(await scoreAxis.getAttribute('data-top')), extent);
    assert.equal(Number(await scoreAxis.getAttribute('data-bottom')), -extent);
    assert.deepEqual(
      (await scoreAxis.locator('.tick').allTextContents()).map((x) => x.trim()),
      [`+${format(extent)}`, '0', `−${format(extent)}`],
    );
    // weights: 0 to 1
    assert.deepEqual(
      (await page.locator('[data-testid=listen-weights-axis] .tick').allTextContents()).map((x) => x.trim()),
      ['1', '0'],
    );
    // the step's largest score and weight, where they are
    for (const [id, values, symbol] of [
      ['listen-scores', scores, 'e'],
      ['listen-weights', weights, 'α'],
    ]) {
      const max = page.locator(`[data-testid=${id}-max]`);
      const j = argmax(values);
      assert.equal(Number(await max.getAttribute('data-index')), j, id);
      assert.equal(Number(await max.getAttribute('data-value')), values[j], id);
      assert.equal(await max.textContent(), `largest ${symbol} = ${format(values[j])} (j = ${j})`);
    }
    // the time ticks: at frame f, f·(samples per frame / sample rate) seconds, placed over the
    // bars' frames (position j covers frames j·r … (j + 1)·r − 1)
    const covered = scores.length * reduction;
    const ticks = await page.locator('[data-testid=listen-scores-time] .xt').evaluateAll((els) =>
      els.map((el) => ({
        frame: Number(el.getAttribute('data-frame')),
        seconds: Number(el.getAttribute('data-seconds')),
        text: el.textContent ?? '',
        left: parseFloat(/** @type {HTMLElement} */ (el).style.left),
      })),
    );
    assert.ok(ticks.length >= 3, JSON.stringify(ticks));
    assert.equal(ticks[0].frame, 0);
    for (const tick of ticks) {
      assert.ok(tick.frame <= covered && tick.frame <= u.frames.rows, JSON.stringify(tick));
      assert.equal(tick.seconds, tick.frame * secondsPerFrame);
      assert.ok(Math.abs(Number(tick.text.replace(' s', '')) - tick.seconds) < 1e-9, JSON.stringify(tick));
      // the style keeps four decimals of a percent
      assert.ok(Math.abs(tick.left - (100 * tick.frame) / covered) < 1e-3, JSON.stringify(tick));
    }
    // a bar read out: its number, its frames and seconds, the letter said there
    const canvas = page.locator('[data-testid=listen-weights]');
    // on screen, so the pointer reaches it
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    assert.ok(box);
    const j = argmax(weights);
    await page.mouse.move(box.x + ((j + 0.5) / weights.length) * box.width, box.y + 20);
    const read = page.locator('[data-testid=listen-weights-panel] .read');
    await page.waitForFunction(
      (j) =>
        document.querySelector('[data-testid=listen-weights-panel] .read sub')?.textContent === String(j),
      j,
    );
    const span = u.spans.find((x) => x.begin <= j * reduction && j * reduction < x.end);
    const text = (await read.textContent())?.replace(/\s+/g, ' ') ?? '';
    assert.ok(text.includes(`= ${format(weights[j])}`), text);
    assert.ok(
      text.includes(
        `frames ${j * reduction}–${(j + 1) * reduction - 1}, ${(j * reduction * secondsPerFrame).toFixed(2)}–`,
      ),
      text,
    );
    if (span && span.letter !== ' ') assert.ok(text.includes(`while “${span.letter}” was said`), text);
    // the position is pointed at in the step's other figures too: the scores' bars read it, and
    // each table of the formulas (below the fold: a frame late) lights its row
    await page.waitForFunction(
      (j) => document.querySelector('[data-testid=listen-scores-panel] .read sub')?.textContent === String(j),
      j,
    );
    const scoreRead = (await page.locator('[data-testid=listen-scores-panel] .read').textContent()) ?? '';
    assert.ok(scoreRead.replace(/\s+/g, ' ').includes(`= ${format(scores[j])}`), scoreRead);
    // each table of the formulas (the scores with the softmax, the context's sum) lights its row
    await page.waitForFunction(() => {
      const tables = [...document.querySelectorAll('[data-testid=listen-formula] table')];
      return tables.length >= 2 && tables.every((t) => t.querySelectorAll('tr.pointed').length === 1);
    });
    await shot(page.locator('[data-testid=listen-stages]'), 'listen-bars-1440');
    // the letters × time alignment has the same seconds under it: from frame 0 at its first column
    // to frame L·r at its right edge, evenly
    const alignment = page.locator('[data-testid=listen-alignment]');
    await alignment.scrollIntoViewIfNeeded();
    await page.waitForSelector('[data-testid=listen-alignment-time] .xt');
    const width = await alignment.evaluate((el) => el.getBoundingClientRect().width);
    const marks = await page.locator('[data-testid=listen-alignment-time] .xt').evaluateAll((els) =>
      els.map((el) => ({
        frame: Number(el.getAttribute('data-frame')),
        text: el.textContent ?? '',
        left: parseFloat(/** @type {HTMLElement} */ (el).style.left),
      })),
    );
    assert.ok(marks.length >= 3 && marks[0].frame === 0, JSON.stringify(marks));
    const perFrame = (width - marks[0].left) / covered;
    for (const mark of marks) {
      assert.ok(Math.abs(mark.left - marks[0].left - mark.frame * perFrame) < 0.01, JSON.stringify(mark));
      assert.ok(
        Math.abs(Number(mark.text.replace(' s', '')) - mark.frame * secondsPerFrame) < 1e-9,
        mark.text,
      );
    }
  });

  test('the speaking rate, the noise and the model figures say what they are, en and zh', async () => {
    for (const [lang, rate, noise] of [
      [
        'en',
        /1× each letter lasts .* 10 ms frames.*2× half as many/,
        /offset drawn evenly between −n and \+n, with n = noise × the height of a strong formant/,
      ],
      ['zh', /1× 时每个字母持续.*2× 时帧数减半/, /在 −n 到 \+n 之间均匀抽取.*n = 噪声 × 一个强共振峰的高度/],
    ]) {
      await openUx({ lang, lcmp: '0', lsc: SHIPPED[0] });
      await shownUx(name(SHIPPED[0]));
      const slider = page.locator('[data-testid=listen-noise]');
      // the hint is the slider's description, read out with it
      const described = await slider.getAttribute('aria-describedby');
      assert.equal(described, 'listen-noise-hint');
      assert.match((await page.locator('#listen-noise-hint').textContent()) ?? '', noise);
      assert.equal(
        await page.locator('[data-testid=listen-rate]').getAttribute('aria-describedby'),
        'listen-rate-hint',
      );
      assert.match((await page.locator('#listen-rate-hint').textContent()) ?? '', rate);
      // and the model's figures say what they measure
      assert.match(
        (await page.locator('[data-testid=listen-figures-hint]').textContent()) ?? '',
        lang === 'en'
          ? /Character error rate: .*edit distance.*Monotonicity: the share of letters whose largest weight is not before the previous letter’s/
          : /字符错误率：.*编辑距离.*单调性：最大权重不在上一个字母之前的字母所占的比例/,
      );
    }
    await page.setViewportSize({ width: 375, height: 800 });
    await pageScreenshot(page, 'listen-375-zh');
    await page.setViewportSize({ width: 1440, height: 1000 });
  });

  test(
    "location-aware: the features' columns sit under the bars; the notes write subscripts, not TeX",
    { skip: !shippedSpeech('location') },
    async () => {
      await openUx({ lsc: 'location', lcmp: '0', lstep: '4' });
      await shownUx(name('location'), 4);
      await page.waitForSelector('[data-testid=listen-features]');
      const bars = await page.locator('[data-testid=listen-previous]').boundingBox();
      const features = await page.locator('[data-testid=listen-features]').boundingBox();
      assert.ok(bars && features);
      // position j of the features under position j of α_{i−1}: same left edge, same width
      assert.ok(Math.abs(bars.x - features.x) < 0.5, `bars at ${bars.x}, features at ${features.x}`);
      assert.ok(Math.abs(bars.width - features.width) < 0.5, `${bars.width} vs ${features.width}`);
      const panel = page.locator('[data-testid=listen-previous-panel]');
      const text = (await panel.innerText()).replace(/\s+/g, ' ');
      assert.doesNotMatch(text, /[a-zα′]_(\{|[a-z0-9])/, text);
      assert.ok((await panel.locator('sub').allTextContents()).includes('i−1'));
      await shot(panel, 'listen-location-1440');
    },
  );

  test('on a touch screen a tap on a bar reads it, and the reading stays', async () => {
    const phone = await fx.page({ viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true });
    const score = SHIPPED.includes('additive') ? 'additive' : SHIPPED[0];
    await phone.goto(fx.link(hashUx({ lsc: score, lcmp: '0', lstep: '3' })));
    await phone.waitForFunction(
      (model) => document.querySelector('[data-testid=listen]')?.getAttribute('data-model') === model,
      name(score),
      { timeout: 60_000 },
    );
    const canvas = phone.locator('[data-testid=listen-weights]');
    await canvas.scrollIntoViewIfNeeded();
    const weights = ((await canvas.getAttribute('data-values')) ?? '').split(',').map(Number);
    const j = weights.reduce((b, w, i) => (w > weights[b] ? i : b), 0);
    const box = await canvas.boundingBox();
    assert.ok(box);
    await phone.touchscreen.tap(box.x + ((j + 0.5) / weights.length) * box.width, box.y + 40);
    const sub = phone.locator('[data-testid=listen-weights-panel] .read sub');
    await phone.waitForFunction(
      (j) =>
        document.querySelector('[data-testid=listen-weights-panel] .read sub')?.textContent === String(j),
      j,
      { timeout: 5_000 },
    );
    await phone.waitForTimeout(300);
    assert.equal(await sub.textContent(), String(j), 'the reading stays after the tap');
  });

  test("the spectrogram's frequency axis is the engine's bands; pointing at it reads a frame's energy", async () => {
    const limits = au.limits();
    const u = au.synthesize(SAY_UX);
    const score = SHIPPED.includes('additive') ? 'additive' : SHIPPED[0];
    await openUx({ lsc: score, lcmp: '0' });
    await shownUx(name(score));
    const ticks = page.locator('[data-testid=listen-spectrogram-hz] .tick');
    const bands = await ticks.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-band'))));
    // every sixth band and the top one, each labelled with its oscillator's frequency
    assert.deepEqual(bands, [0, 6, 12, 18, 23]);
    assert.deepEqual(
      (await ticks.allTextContents()).map((x) => x.trim()),
      bands.map((b) => {
        const f = limits.bandHz[b];
        return f >= 1000 ? `${Math.round(f / 10) / 100} kHz` : `${f} Hz`;
      }),
    );
    assert.equal((await ticks.allTextContents())[0].trim(), '200 Hz');
    // band 0 at the bottom: its label is lower on the page than band 23's
    const [low, high] = await Promise.all([ticks.first().boundingBox(), ticks.last().boundingBox()]);
    assert.ok(low && high && low.y > high.y);

    // a cell in the middle of the picture: its frame and band, and the engine's value there
    const canvas = page.locator('[data-testid=listen-spectrogram]');
    const box = await canvas.boundingBox();
    assert.ok(box);
    const bandsHigh = 132; // the picture's height above the weights' strip
    const frame = 60;
    const band = 15;
    await page.mouse.move(
      box.x + ((frame + 0.5) / u.frames.rows) * box.width,
      box.y + ((limits.bands - 1 - band + 0.5) / limits.bands) * bandsHigh,
    );
    const read = page.locator('[data-testid=listen-spectrogram-read]');
    await page.waitForFunction(() => document.querySelector('[data-testid=listen-spectrogram-read] strong'));
    const text = (await read.textContent()) ?? '';
    // …and the letter the synthesizer was saying then, from the engine's spans
    const said = u.spans.find((s) => s.begin <= frame && frame < s.end);
    assert.ok(said && said.letter !== ' ', `frame ${frame} is inside a letter`);
    assert.ok(
      text.includes(`frame ${frame} (0.60 s, while “${said.letter}” was said), band ${band} (2.45 kHz)`),
      text,
    );
    assert.equal(
      (await read.locator('strong').textContent())?.trim(),
      u.frames.data[frame * u.frames.cols + band].toFixed(3).replace('-', '−'),
    );
    await page.mouse.move(0, 0);
    await page.waitForFunction(() => !document.querySelector('[data-testid=listen-spectrogram-read] strong'));
  });
});

describe('a link into the view while its code comes late', () => {
  // The Listen view's code, and the state that reads its fields from the link, arrive only when
  // the view opens. The page writes its state into the link 250 ms after it starts; were it to
  // write before the view's code had come, the link's fields would be lost, in the address and in
  // the view, which reads them when its code arrives. Here the view's code is held back for 2 s.
  test('the utterance, model and step of the link are kept, in the view and in the address', async () => {
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
    const context = await fx.context();
    await context.route(/\/assets\/(ListenView|listen\.svelte)-[^/]*\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await route.continue();
    });
    const late = await context.newPage();
    await late.goto(fx.link(`#${hash}`));
    const linkOf = async () => new URLSearchParams(await late.evaluate(() => location.hash.slice(1)));
    // while the view's code is on its way, the address still holds every field of the link
    await late.waitForTimeout(1000);
    const waiting = await linkOf();
    for (const [key, value] of hash) assert.equal(waiting.get(key), value, `${key} while loading`);
    await late.waitForFunction(
      () => document.querySelector('[data-testid=listen]')?.getAttribute('data-model'),
      null,
      {
        timeout: 60_000,
      },
    );
    const view = await late.$eval('[data-testid=listen]', (el) => ({
      said: el.getAttribute('data-said'),
      model: el.getAttribute('data-model'),
      step: el.getAttribute('data-step'),
    }));
    assert.deepEqual(view, {
      said: JSON.stringify(['a woodchuck could chuck wood', 7, 1.5, 0.3]),
      model: 'speech-location-bahdanau',
      step: '2',
    });
    await urlSettled(late);
    const written = await linkOf();
    for (const [key, value] of hash) assert.equal(written.get(key), value, `${key} once shown`);
  });
});
