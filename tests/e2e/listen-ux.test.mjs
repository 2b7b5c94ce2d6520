// The Listen view as a first-time learner meets it, in headless Chromium: the digit keys pick the
// same score function as in Decode (1 dot … 7 location) and a key without a speech model says so;
// space writes the letters as it steps the decoder in Decode, S plays the sound, and the keyboard
// hint says both (en and zh); the sound's button and the letters' button have names and icons of
// their own; the score and weight bars carry a value axis (0, the scale's ends with their sign,
// the step's largest value) and a time axis, from the engine's numbers, and so does the letters ×
// time alignment; the spectrogram's frequency axis is the engine's band frequencies and pointing
// at it reads the engine's frame value there; a location-aware model's features sit under its bars and its notes write
// subscripts; a tap reads a bar on a touch screen; the speaking rate, the noise and the model's
// figures say what they are. Screenshots go to test-output/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { loadAudio, readModel } from '../js/load-audio.mjs';
import { SCORES } from '../../web/shared/lib/score-functions.js';
import { launchBrowser, openFresh, pageScreenshot, watchConsole } from './browser.mjs';
import { listenHash, shippedSpeech } from './listen-page.mjs';
import { serveBuild } from './static-server.mjs';

const shots = new URL('../../test-output/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });

const SAY = { phrase: 'how much wood would a woodchuck chuck', seed: 2, rate: 1, noise: 0.1 };
const KEY = JSON.stringify([SAY.phrase, SAY.seed, SAY.rate, SAY.noise]);
const hashOf = (extra = {}) => listenHash(SAY, extra);
const SHIPPED = SCORES.filter(shippedSpeech);

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

const open = (extra = {}) => openFresh(page, `${server.url}${hashOf(extra)}`);

/** Waits until the view shows SAY through `model` at letter `step` (any when null). */
function shown(model, step = null) {
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
    [KEY, model, step],
    { timeout: 60_000 },
  );
}

const name = (score) => `speech-${score}-bahdanau`;

describe('the Listen view for a learner', () => {
  test('digit keys pick the score function Decode gives them; a key without a model says so', async () => {
    assert.ok(SHIPPED.length >= 2, `speech models shipped: ${SHIPPED}`);
    await open({ lsc: SHIPPED[SHIPPED.length - 1] });
    await shown(name(SHIPPED[SHIPPED.length - 1]));
    for (const score of SHIPPED) {
      // Decode's keys: SCORES in order, 1 first
      await page.locator('body').press(String(SCORES.indexOf(score) + 1));
      await shown(name(score));
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
    await page.locator('[data-testid=listen-keys]').screenshot({ path: `${shots}listen-ux-keys.png` });
  });

  test('space plays and pauses the letters as in Decode; S plays the sound; the hint says so', async () => {
    const model = name(SHIPPED.includes('additive') ? 'additive' : SHIPPED[0]);
    await open({ lsc: model.split('-')[1], lcmp: '0' });
    await shown(model, 0);
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
      await open({ lsc: SHIPPED[0], lcmp: '0', lang });
      await shown(model, 0);
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
      await page
        .locator('section.hear')
        .first()
        .screenshot({ path: `${shots}listen-ux-sound-${lang}.png` });
    }
  });

  test("the score and weight bars have a value axis and a time axis from the engine's numbers", async () => {
    const score = SHIPPED.includes('additive') ? 'additive' : SHIPPED[0];
    const model = au.AudioModel.load(readModel(`${name(score)}.safetensors`));
    const u = au.synthesize(SAY);
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
    await open({ lsc: score, lcmp: '0', lstep: String(step) });
    await shown(name(score), step);
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
    await page.locator('[data-testid=listen-stages]').screenshot({ path: `${shots}listen-ux-bars.png` });
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
      await open({ lang, lcmp: '0', lsc: SHIPPED[0] });
      await shown(name(SHIPPED[0]));
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
    await pageScreenshot(page, `${shots}listen-ux-375-zh.png`);
    await page.setViewportSize({ width: 1440, height: 1000 });
  });

  test(
    "location-aware: the features' columns sit under the bars; the notes write subscripts, not TeX",
    { skip: !shippedSpeech('location') },
    async () => {
      await open({ lsc: 'location', lcmp: '0', lstep: '4' });
      await shown(name('location'), 4);
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
      await panel.screenshot({ path: `${shots}listen-ux-location.png` });
    },
  );

  test('on a touch screen a tap on a bar reads it, and the reading stays', async () => {
    const context = await browser.newContext({
      viewport: { width: 375, height: 800 },
      hasTouch: true,
      isMobile: true,
    });
    const phone = await context.newPage();
    phone.on('pageerror', (e) => consoleErrors.push(String(e)));
    const score = SHIPPED.includes('additive') ? 'additive' : SHIPPED[0];
    await phone.goto(`${server.url}${hashOf({ lsc: score, lcmp: '0', lstep: '3' })}`);
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
    await context.close();
  });

  test("the spectrogram's frequency axis is the engine's bands; pointing at it reads a frame's energy", async () => {
    const limits = au.limits();
    const u = au.synthesize(SAY);
    const score = SHIPPED.includes('additive') ? 'additive' : SHIPPED[0];
    await open({ lsc: score, lcmp: '0' });
    await shown(name(score));
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

  test('the console stayed free of errors', () => {
    assert.deepEqual(consoleErrors, []);
  });
});
