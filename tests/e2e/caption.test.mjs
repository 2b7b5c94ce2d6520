// The Caption view in headless Chromium against the image module run here in node: the overlay's
// weights, the stage grids and the context are the engine's numbers for the scene shown; dragging
// an object re-captions the scene and moves the weight peak of the word naming it; an uploaded
// PNG is captioned as the engine captions its pixels; bad uploads and bad links give a message;
// the first page load does not fetch the image module; the layout on a laptop and a phone.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { before, beforeEach, describe, test } from 'node:test';
import { deflateSync } from 'node:zlib';

import { cellName } from '../../web/features/caption/scene.js';
import { formatNumber } from '../../web/shared/lib/format.js';
import { loadImaging, readModel } from '../js/load-imaging.mjs';
import { afterFrame, pageScreenshot, urlSettled } from './browser.mjs';
import { PHONE, useBrowser } from './fixture.mjs';
import { pastTheEdge } from './layout.mjs';
import { checkStepBar } from './step-bar.mjs';

const fx = useBrowser();
/** Each test's page: 1440 × 1000, in a fresh context. */
let page;
beforeEach(async () => {
  page = await fx.page();
});

const MODEL = 'scenes-additive-bahdanau';
// A small red circle well above a large blue square: "a small red circle above a large blue square".
const SCENE = [
  { shape: 'circle', color: 'red', size: 'small', x: 16, y: 7 },
  { shape: 'square', color: 'blue', size: 'large', x: 14, y: 23 },
];
const sceneParam = (objects) => objects.map((o) => [o.shape, o.color, o.size, o.x, o.y].join('.')).join('_');
const hashOf = (objects, extra = {}) =>
  `#${new URLSearchParams({ view: 'caption', cap: 'additive', scene: sceneParam(objects), ...extra })}`;

let im, model;

/** The engine's caption of a picture in node: plain data, the session deleted. */
function captionOf(pixels, width, height, channels) {
  const s = model.caption(pixels, width, height, channels, { topK: 5 });
  try {
    return { steps: s.run(), text: s.outputText(), pixels: s.pixels(), grid: s.grid() };
  } finally {
    s.delete();
  }
}
const describe_ = (objects) =>
  objects.map((o) => `${o.size} ${o.color} ${o.shape} at ${o.x},${o.y}`).join('; ');
/** The engine's drawing of a scene and its caption. */
function reference(objects) {
  const scene = im.scene(describe_(objects));
  return { scene, ...captionOf(scene.pixels, scene.width, scene.height, 3) };
}

const argmax = (xs) => Array.from(xs).reduce((b, x, j, all) => (x > all[b] ? j : b), 0);

before(async () => {
  im = await loadImaging();
  model = im.ImageModel.load(readModel(`${MODEL}.safetensors`));
});

/**
 * Loads the page afresh at `hash`. (A goto that changes only the hash would be a same-document
 * navigation: the page reloads itself on it, and a wait could still see the old document.)
 */
async function open(p, hash) {
  await p.goto('about:blank');
  await p.goto(fx.link(hash));
}

/** Waits until the view shows a caption of model `name` at word `i` with text `text` (any when null). */
async function waitForCaption(p, i, text = null, name = MODEL) {
  await p.waitForFunction(
    ([name, i, text]) => {
      const c = document.querySelector('[data-testid=caption]');
      return (
        c?.dataset.model === name &&
        c.dataset.step === String(i) &&
        (text === null || c.dataset.text === text) &&
        !c.classList.contains('stale') &&
        !c.querySelector('[data-pending]')
      );
    },
    [name, i, text],
    { timeout: 20_000 },
  );
}

/** What the page shows for the current word: overlay weights, score and weight grids, context. */
function shown(p) {
  return p.evaluate(() => {
    const read = (prefix) =>
      [...document.querySelectorAll(`[data-testid^="${prefix}-"]`)]
        .filter((el) => new RegExp(`^${prefix}-\\d+$`).test(el.dataset.testid ?? ''))
        .map((el) => Number(el.dataset.value));
    const context = document.querySelector('[data-testid=caption-context]');
    return {
      overlay: read('scene-cell'),
      scores: read('caption-score'),
      weights: read('caption-weight'),
      context: (context?.getAttribute('data-values') ?? '').split(',').filter(Boolean).map(Number),
      peak: Number(document.querySelector('[data-testid=scene]')?.getAttribute('data-peak')),
      word: document.querySelector('[data-testid=scene]')?.getAttribute('data-word'),
      words: [...document.querySelectorAll('[data-testid^="word-"]')].map((el) => el.textContent.trim()),
    };
  });
}

// A PNG of `width` × `height` pixels: 8-bit RGB from `rgb`, or (no rgb) 1-bit black, which keeps
// even a 10,000 × 10,000 image a few kilobytes.
const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
function png(width, height, rgb = null) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = rgb ? 8 : 1; // bit depth
  header[9] = rgb ? 2 : 0; // RGB or grey
  const stride = rgb ? width * 3 : Math.ceil(width / 8);
  const raw = Buffer.alloc((stride + 1) * height);
  if (rgb)
    for (let y = 0; y < height; y++)
      Buffer.from(rgb.subarray(y * stride, (y + 1) * stride)).copy(raw, y * (stride + 1) + 1);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('caption view', () => {
  test('the first page load does not fetch the image module; opening the view does', async () => {
    const p = page;
    const urls = [];
    p.on('request', (r) => urls.push(r.url()));
    await p.goto(fx.link('#view=decode'));
    await p.waitForSelector('[data-testid=decode]', { timeout: 20_000 });
    await urlSettled(p);
    const imaging = (u) => /imaging|scenes-|CaptionView/.test(u);
    assert.deepEqual(urls.filter(imaging), [], 'the decode view fetched a part of the image engine');
    await p.click('[data-testid=view-caption]');
    await waitForCaption(p, 0);
    assert.ok(
      urls.some((u) => /imaging.*\.js$/.test(u)),
      `no image module fetched: ${urls.filter(imaging)}`,
    );
    assert.ok(
      urls.some((u) => /imaging.*\.wasm$/.test(u)),
      'no image .wasm fetched',
    );
  });

  test("the overlay's, the grids' and the context's numbers are the engine's, word by word", async () => {
    const expected = reference(SCENE);
    await open(page, `${hashOf(SCENE)}`);
    await waitForCaption(page, 0, expected.text);
    const L = expected.grid.rows * expected.grid.cols;
    for (let i = 0; i < expected.steps.length; i++) {
      if (i > 0) await page.locator('body').press('ArrowRight');
      await waitForCaption(page, i, expected.text);
      const s = await shown(page);
      const step = expected.steps[i];
      assert.equal(s.overlay.length, L);
      assert.deepEqual(s.overlay, Array.from(step.weights), `overlay of word ${i + 1}`);
      assert.deepEqual(s.weights, Array.from(step.weights), `weights grid of word ${i + 1}`);
      assert.deepEqual(s.scores, Array.from(step.scores), `scores grid of word ${i + 1}`);
      assert.deepEqual(s.context, Array.from(step.context), `context of word ${i + 1}`);
      assert.equal(s.peak, argmax(step.weights));
      assert.equal(s.word, step.token);
      assert.deepEqual(
        s.words,
        expected.steps.slice(0, i + 1).map((x) => x.token),
      );
    }
    // Home goes back to the first word
    await page.locator('body').press('Home');
    await waitForCaption(page, 0, expected.text);
  });

  test('dragging an object re-captions the scene and moves the peak of the word naming it', async () => {
    const before = reference(SCENE);
    await open(page, `${hashOf(SCENE)}`);
    await waitForCaption(page, 0, before.text);
    const circleStep = (ref) => ref.steps.findIndex((s) => s.token === 'circle');
    assert.ok(circleStep(before) >= 0, `the caption names no circle: ${before.text}`);

    // drag the circle from the top to the right edge, the square staying where it is
    const box = await page.locator('[data-testid=scene-canvas]').boundingBox();
    assert.ok(box);
    const size = before.grid.imageSize;
    const at = (x, y) => [box.x + ((x + 0.5) / size) * box.width, box.y + ((y + 0.5) / size) * box.height];
    await page.mouse.move(...at(16, 7));
    await page.mouse.down();
    for (let k = 1; k <= 6; k++) await page.mouse.move(...at(16 + (12 * k) / 6, 7 + (9 * k) / 6));
    await page.mouse.up();
    const moved = [{ ...SCENE[0], x: 28, y: 16 }, SCENE[1]];
    const after = reference(moved);
    assert.notEqual(
      after.text,
      before.text,
      'the engine captions the moved scene alike: a useless test scene',
    );
    await waitForCaption(page, 0, after.text);
    assert.equal(await page.locator('[data-testid=object-0-at]').textContent(), '28,16');
    await urlSettled(page);
    assert.match(
      await page.evaluate(() => location.hash),
      /scene=circle\.red\.small\.28\.16_square\.blue\.large\.14\.23/,
    );

    // the word "circle" now looks at the circle's new place
    const i = circleStep(after);
    assert.ok(i >= 0, `the new caption names no circle: ${after.text}`);
    // the keys step, wherever the drag left the focus (the arrows move an object only when the
    // picture was reached with the keyboard)
    for (let k = 0; k < i; k++) await page.keyboard.press('ArrowRight');
    await waitForCaption(page, i, after.text);
    const s = await shown(page);
    assert.deepEqual(s.overlay, Array.from(after.steps[i].weights));
    const { cols } = after.grid;
    const cell = size / cols;
    const centre = (j) => ({ x: (j % cols) * cell + cell / 2, y: Math.floor(j / cols) * cell + cell / 2 });
    const peakBefore = centre(argmax(before.steps[circleStep(before)].weights));
    const peakAfter = centre(s.peak);
    assert.notDeepEqual(peakAfter, peakBefore, 'the peak did not move');
    const distance = (p, o) => Math.hypot(p.x - o.x, p.y - o.y);
    assert.ok(
      distance(peakAfter, moved[0]) < distance(peakAfter, SCENE[0]),
      `the peak ${JSON.stringify(peakAfter)} is not nearer the circle's new centre than its old one`,
    );

    // dragged onto the square, the circle stops at its edge: the square drawn over it hid it while
    // the caption still named it
    await page.mouse.move(...at(28, 16));
    await page.mouse.down();
    for (let k = 1; k <= 8; k++) await page.mouse.move(...at(28 - (14 * k) / 8, 16 + (7 * k) / 8));
    await page.mouse.up();
    await urlSettled(page);
    const [x, y] = String(await page.locator('[data-testid=object-0-at]').textContent())
      .split(',')
      .map(Number);
    assert.notDeepEqual([x, y], [28, 16], 'the circle did not move towards the square');
    const stopped = [{ ...SCENE[0], x, y }, SCENE[1]];
    const [a, b] = reference(stopped).scene.objects.map((o) => o.box);
    assert.ok(
      a.x1 < b.x0 || b.x1 < a.x0 || a.y1 < b.y0 || b.y1 < a.y0,
      `the engine's boxes overlap: ${JSON.stringify([a, b])}`,
    );
    await page.waitForFunction(
      (text) => document.querySelector('[data-testid=caption]')?.getAttribute('data-text') === text,
      reference(stopped).text,
    );
    // grown to large at the square's edge, it moves to the nearest place where it covers nothing
    await page.selectOption('[data-testid=object-0-size]', 'large');
    await page.waitForFunction(
      ([x, y]) => document.querySelector('[data-testid=object-0-at]')?.textContent !== `${x},${y}`,
      [x, y],
    );
    const [gx, gy] = String(await page.locator('[data-testid=object-0-at]').textContent())
      .split(',')
      .map(Number);
    const grown = [{ ...SCENE[0], size: 'large', x: gx, y: gy }, SCENE[1]];
    const [c, d] = reference(grown).scene.objects.map((o) => o.box);
    assert.ok(c.x1 < d.x0 || d.x1 < c.x0 || c.y1 < d.y0 || d.y1 < c.y0, `grown: ${JSON.stringify([c, d])}`);
  });

  test('colour, size and shape changes, adding and removing objects re-caption at once', async () => {
    await open(page, `${hashOf(SCENE)}`);
    await waitForCaption(page, 0, reference(SCENE).text);
    const scene = SCENE.map((o) => ({ ...o }));
    const expect = async (what) => {
      const text = reference(scene).text;
      await waitForCaption(page, 0, text);
      await urlSettled(page);
      assert.ok((await page.evaluate(() => location.hash)).includes(`scene=${sceneParam(scene)}`), what);
    };
    await page.selectOption('[data-testid=object-0-color]', 'yellow');
    scene[0].color = 'yellow';
    await expect('colour');
    await page.selectOption('[data-testid=object-1-size]', 'small');
    scene[1].size = 'small';
    await expect('size');
    await page.selectOption('[data-testid=object-1-shape]', 'triangle');
    scene[1].shape = 'triangle';
    await expect('shape');
    await page.click('[data-testid=object-add]');
    const added = await page.locator('[data-testid=object-2-at]').textContent();
    const [x, y] = String(added).split(',').map(Number);
    scene.push({
      shape: await page.locator('[data-testid=object-2-shape]').inputValue(),
      color: await page.locator('[data-testid=object-2-color]').inputValue(),
      size: await page.locator('[data-testid=object-2-size]').inputValue(),
      x,
      y,
    });
    await expect('add');
    await page.click('[data-testid=object-0-remove]');
    scene.shift();
    await expect('remove');
    // with the picture focused the arrow keys move the picked object, and do not step
    await page.click('[data-testid=object-0]');
    await page.locator('[data-testid=scene-canvas]').focus();
    await page.keyboard.press('ArrowLeft');
    scene[0].x -= 2;
    await expect('arrow key');
  });

  test('an uploaded PNG is captioned as the engine captions its pixels', async () => {
    await open(page, `${hashOf(SCENE)}`);
    await waitForCaption(page, 0);
    // the engine's own drawing of another scene, three times larger (each pixel a 3 × 3 block)
    // and with 10 more columns of white on the left and on the right: the page cuts out the
    // centred 96 × 96 square and the engine scales it, so the caption must be the engine's
    // caption of those 96 × 96 pixels (which average back to the drawing itself)
    const other = [
      { shape: 'triangle', color: 'green', size: 'large', x: 8, y: 15 },
      { shape: 'diamond', color: 'yellow', size: 'small', x: 25, y: 17 },
    ];
    const drawn = reference(other).scene;
    const [K, PAD] = [3, 10];
    const side = drawn.width * K;
    const square = new Uint8Array(side * side * 3);
    const wide = new Uint8Array((side + 2 * PAD) * side * 3).fill(255);
    for (let y = 0; y < side; y++)
      for (let x = 0; x < side; x++)
        for (let c = 0; c < 3; c++) {
          const v = drawn.pixels[(Math.floor(y / K) * drawn.width + Math.floor(x / K)) * 3 + c];
          square[(y * side + x) * 3 + c] = v;
          wide[(y * (side + 2 * PAD) + x + PAD) * 3 + c] = v;
        }
    const expected = captionOf(square, side, side, 3);
    assert.deepEqual(
      Array.from(expected.pixels),
      Array.from(drawn.pixels),
      'the engine does not average back',
    );
    await page.setInputFiles('[data-testid=upload]', {
      name: 'scene.png',
      mimeType: 'image/png',
      buffer: png(side + 2 * PAD, side, wide),
    });
    await page.waitForSelector('[data-testid=upload-shown]');
    await waitForCaption(page, 0, expected.text);
    const s = await shown(page);
    assert.deepEqual(s.overlay, Array.from(expected.steps[0].weights));
    assert.equal(await page.locator('[data-testid=caption-cut]').count(), 0, 'a finished caption');

    // a red and a blue block: the engine stops the caption at its length limit, and the view says
    // so (it showed 23 words cut at the limit with no note); the long file name is shown whole
    const blocks = new Uint8Array(32 * 32 * 3);
    for (let p = 0; p < 32 * 32; p++) blocks.set(p % 32 < 16 ? [220, 30, 30] : [30, 30, 220], p * 3);
    const endless = captionOf(blocks, 32, 32, 3);
    assert.notEqual(
      endless.steps.at(-1).token,
      '</s>',
      'the engine ended this caption: a useless test image',
    );
    const name = `red-and-blue-blocks-${'x'.repeat(80)}.png`;
    await page.setInputFiles('[data-testid=upload]', {
      name,
      mimeType: 'image/png',
      buffer: png(32, 32, blocks),
    });
    await waitForCaption(page, 0, endless.text);
    assert.match(
      await page.locator('[data-testid=caption-cut]').innerText(),
      new RegExp(
        `after ${endless.steps.length} words \\(this model’s longest caption, ${endless.steps.length - 1}, and one`,
      ),
    );
    // in Chinese on a phone, the same note in Chinese
    await page.click('[data-testid=lang-zh]');
    await page.setViewportSize({ width: 375, height: 800 });
    assert.match(
      await page.locator('[data-testid=caption-cut]').innerText(),
      new RegExp(
        `^在长度上限处截断：引擎在 ${endless.steps.length} 个词之后停止生成描述（这个模型最长的描述 ${endless.steps.length - 1} 个词`,
      ),
    );
    assert.match(await page.locator('[data-testid=caption-cut]').innerText(), /[\u4e00-\u9fff]/);
    await page.setViewportSize({ width: 1440, height: 1000 });
    await page.click('[data-testid=lang-en]');
    const upload = page.locator('[data-testid=upload-shown]');
    assert.ok((await upload.innerText()).includes(name));
    assert.equal(await upload.evaluate((el) => el.scrollWidth <= el.clientWidth), true, 'the name wraps');
    assert.equal(await page.getAttribute('[data-testid=upload]', 'title'), name);
    await page.click('[data-testid=upload-back]');
    await waitForCaption(page, 0, reference(SCENE).text);
  });

  test('bad uploads give a message and leave the caption working', async () => {
    await open(page, `${hashOf(SCENE)}`);
    const expected = reference(SCENE);
    await waitForCaption(page, 0, expected.text);
    await page.setInputFiles('[data-testid=upload]', {
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('this is not a picture\n'),
    });
    await page.waitForSelector('[data-testid=upload-error]');
    assert.match(await page.locator('[data-testid=upload-error]').textContent(), /notes\.png.*not an image/);

    await page.setInputFiles('[data-testid=upload]', {
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: png(10_000, 10_000),
    });
    await page.waitForFunction(() =>
      /huge\.png/.test(document.querySelector('[data-testid=upload-error]')?.textContent ?? ''),
    );
    assert.match(await page.locator('[data-testid=upload-error]').textContent(), /10,000 × 10,000 pixels/);
    // still the scene's caption, and still answering
    assert.equal(await page.locator('[data-testid=upload-shown]').count(), 0);
    await waitForCaption(page, 0, expected.text);
    await page.locator('body').press('ArrowRight');
    await waitForCaption(page, 1, expected.text);
  });

  test("a link's objects that are not a scene are left out, each with a note", async () => {
    const circle = SCENE[0];
    const hash = `#${new URLSearchParams({
      view: 'caption',
      scene: `${sceneParam([circle])}_hexagon.red.small.5.5_square.blue.large.30.30_circle.red`,
    })}`;
    await open(page, `${hash}`);
    await waitForCaption(page, 0, reference([circle]).text);
    // with the other link values' notes
    const notes = await page.locator('[data-testid=link-notes] li').allTextContents();
    assert.equal(notes.length, 3, notes.join('\n'));
    assert.match(notes[0], /hexagon\.red\.small\.5\.5/);
    assert.match(notes[1], /square\.blue\.large\.30\.30/);
    assert.equal(await page.locator('[data-testid^="object-"][data-testid$="-at"]').count(), 1);
    // a scene with no object at all: it says what it shows instead (scene=garbage was replaced
    // by the view's own scene with no word of it)
    await open(page, '#view=caption&scene=garbage');
    await waitForCaption(page, 0);
    const shown = await page.locator('[data-testid=link-notes]').innerText();
    assert.match(shown, /scene “garbage” holds no object the engine can draw; showing small red circle at/);
  });

  test('pointing at a cell of the scores or the weights lights it in both grids and the formulas, with its numbers', async () => {
    const expected = reference(SCENE);
    const step = expected.steps[0];
    const cols = expected.grid.cols;
    await open(page, hashOf(SCENE));
    await waitForCaption(page, 0, expected.text);
    const lit = () =>
      page.evaluate(() => {
        const cell = (id) => {
          const found = [...document.querySelectorAll(`[data-testid=${id}] td.pointed`)];
          return found.length === 1
            ? Number(found[0].dataset.testid?.split('-').at(-1))
            : found.length || null;
        };
        return {
          scores: cell('caption-score'),
          weights: cell('caption-weight'),
          formula: [...document.querySelectorAll('[data-testid=caption-formula] table')].map(
            (t) => t.querySelectorAll('tr.pointed').length,
          ),
          readout: document.querySelector('[data-testid=pointed-readout]')?.textContent?.trim(),
        };
      });
    const readout = (j) =>
      `cell ${cellName(j, cols)} (position ${j + 1}): score e = ${formatNumber(step.scores[j])} → weight α = ${formatNumber(step.weights[j])}`;
    // the cell the word looks at most: a row of each formula table too
    const j = argmax(step.weights);
    await page.hover(`[data-testid=caption-weight-${j}]`);
    // each table of the formulas (the scores with the softmax, the context's sum) lights its row
    await page.waitForFunction(() => {
      const tables = [...document.querySelectorAll('[data-testid=caption-formula] table')];
      return tables.length >= 2 && tables.every((t) => t.querySelectorAll('tr.pointed').length === 1);
    });
    // and the heatmap outlines the cell on the word's row (below the fold: a frame late)
    await page.waitForFunction(
      (j) =>
        document.querySelector('[data-testid=caption-heatmap-pointed]')?.getAttribute('data-j') === String(j),
      j,
    );
    const { formula, ...shown } = await lit();
    assert.deepEqual(shown, { scores: j, weights: j, readout: readout(j) });
    // another cell, from the scores' grid
    const k = j === 0 ? 1 : 0;
    await page.hover(`[data-testid=caption-score-${k}]`);
    await page.waitForFunction(
      (k) =>
        document.querySelector('[data-testid=caption-weight] td.pointed')?.dataset.testid ===
        `caption-weight-${k}`,
      k,
    );
    assert.equal((await lit()).readout, readout(k));
    // away: nothing lit, and the readout says what pointing does
    await page.mouse.move(2, 2);
    await page.waitForFunction(
      () =>
        !document.querySelector('[data-testid=caption-weight] td.pointed') &&
        !document.querySelector('[data-testid=caption-heatmap-pointed]'),
    );
    const none = await lit();
    assert.deepEqual([none.scores, none.formula.every((n) => n === 0)], [null, true]);
    assert.match(none.readout ?? '', /^Point at a cell of the scores or the weights/);
  });

  test("a link's object that would cover another moves to the nearest free place: the caption names only what shows", async () => {
    const square = { shape: 'square', color: 'blue', size: 'large', x: 14, y: 23 };
    const circle = { shape: 'circle', color: 'red', size: 'small', x: 16, y: 20 };
    await open(page, hashOf([square, circle]));
    // its box reached into the square's (the reach is 6 + 3 pixels): straight up, 7 pixels, is free
    const moved = { ...circle, y: 13 };
    await waitForCaption(page, 0, reference([square, moved]).text);
    assert.equal(await page.locator('[data-testid=object-1-at]').textContent(), '16,13');
    const notes = await page.locator('[data-testid=link-notes] li').allTextContents();
    assert.equal(notes.length, 1, notes.join('\n'));
    assert.match(notes[0], /“circle\.red\.small\.16\.20” would cover part of another one.*\(16, 13\)/);
    await urlSettled(page);
    assert.ok((await page.evaluate(() => location.hash)).includes(`scene=${sceneParam([square, moved])}`));
  });

  test('score functions side by side on the same scene, and screenshots', async () => {
    await open(page, `${hashOf(SCENE, { ccmp: '1' })}`);
    await waitForCaption(page, 0);
    await page.waitForSelector('[data-testid=caption-compare-panel]');
    // one caption per shipped scene model, each the engine's
    const shipped = readdirSync(new URL('../../web/models/', import.meta.url))
      .map((f) => /^scenes-(\w+)-bahdanau\.safetensors$/.exec(f)?.[1])
      .filter(Boolean);
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid$="-text"][data-testid^=compare-]').length === n,
      shipped.length,
    );
    for (const score of shipped) {
      const other = im.ImageModel.load(readModel(`scenes-${score}-bahdanau.safetensors`));
      const scene = im.scene(describe_(SCENE));
      const s = other.caption(scene.pixels, 32, 32, 3);
      const first = Array.from(s.run()[0].weights);
      const text = s.outputText();
      s.delete();
      other.delete();
      assert.equal(await page.locator(`[data-testid=compare-${score}-text]`).textContent(), text);
      const overlay = await page.evaluate(
        (score) =>
          [...document.querySelectorAll(`[data-testid^="compare-${score}-scene-cell-"]`)].map((el) =>
            Number(/** @type {HTMLElement} */ (el).dataset.value),
          ),
        score,
      );
      assert.deepEqual(overlay, first, `${score}: the first word's weights`);
    }
    await pageScreenshot(page, 'caption-compare-1440');
    const phone = await fx.open(hashOf(SCENE), PHONE);
    await waitForCaption(phone, 0);
    const sideways = await phone.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(sideways <= 0, `the phone layout scrolls sideways by ${sideways} px`);
    await pageScreenshot(phone, 'caption-375');
  });

  test('a missing image .wasm or a broken scene checkpoint gives a message instead of hanging', async () => {
    // their consoles report the 404 and the failed loads
    const expected = /404|did not load|Failed to load|WebAssembly|checkpoint|safetensors/;
    const context = await fx.context({}, { expected });
    await context.route('**/imaging-*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
    const noEngine = await context.newPage();
    await noEngine.goto(fx.link(hashOf(SCENE)));
    await noEngine.waitForSelector('[data-testid=caption-engine-error]', { timeout: 20_000 });
    assert.match(
      await noEngine.textContent('[data-testid=caption-engine-error]'),
      /The image engine did not load/,
    );

    const broken = await fx.context({}, { expected });
    await broken.route('**/scenes-additive-bahdanau-*.safetensors', (route) =>
      route.fulfill({ status: 200, body: 'not a checkpoint' }),
    );
    const badModel = await broken.newPage();
    await badModel.goto(fx.link(hashOf(SCENE)));
    await badModel.waitForSelector('[data-testid=caption-error]', { timeout: 20_000 });
    assert.match(
      await badModel.textContent('[data-testid=caption-error]'),
      /scenes-additive-bahdanau: .*checkpoint/,
    );
  });

  test('the step bar: the same marks, names without them, the focus kept at the ends, a phone’s marks alone', () =>
    checkStepBar(fx, {
      view: 'caption',
      prefix: 'caption-',
      play: 'caption-play',
      names: ['start (First word)', 'Back', 'Step', 'end (Last word)'],
    }));

  test('the file picker has a name for a screen reader', async () => {
    await page.goto(fx.link({ view: 'caption', lang: 'en' }));
    await page.locator('[data-testid=upload]').waitFor({ timeout: 20_000 });
    // it was announced as "button"
    assert.match(await page.locator('[data-testid=upload]').ariaSnapshot(), /button "Your own image"/);
  });

  test('its scores and weights on a small laptop: the 8 columns whole, side by side where they fit', async () => {
    // one page, its window resized: the columns' layout is the stylesheet's
    const p = await fx.open({ view: 'caption', lang: 'en' }, { viewport: { width: 1024, height: 800 } });
    await p.waitForSelector('[data-testid=caption-weight-63]', { timeout: 60_000 });
    for (const width of [1024, 1280, 1440]) {
      await p.setViewportSize({ width, height: 800 });
      await afterFrame(p);
      const found = await p.evaluate(() =>
        ['caption-scores-panel', 'caption-weights-panel'].map((id) => {
          const panel = /** @type {Element} */ (document.querySelector(`[data-testid=${id}]`));
          const scroll = /** @type {HTMLElement} */ (panel.querySelector('.scroll'));
          return {
            cut: scroll.scrollWidth - scroll.clientWidth,
            top: Math.round(panel.getBoundingClientRect().top),
          };
        }),
      );
      const where = `${width}: ${JSON.stringify(found)}`;
      // at 1024 px 385 px of table in a 261 px box
      for (const panel of found) assert.ok(panel.cut <= 0, where);
      assert.equal(found[0].top === found[1].top, width >= 1280, where);
    }
  });

  test('its words × cells heatmap on a phone: its own size in a box that scrolls, labels readable', async () => {
    const phone = await fx.open({ view: 'caption', lang: 'en' }, PHONE);
    const svg = phone.locator('[data-testid=caption-heatmap] svg');
    await svg.waitFor({ state: 'attached', timeout: 60_000 });
    await svg.scrollIntoViewIfNeeded();
    const found = await svg.evaluate((el) => {
      const box = /** @type {HTMLElement} */ (el.closest('.heatmap-scroll'));
      return {
        shown: el.getBoundingClientRect().width,
        drawn: Number(el.getAttribute('width')),
        scrolls: box.scrollWidth > box.clientWidth,
        right: box.getBoundingClientRect().right,
      };
    });
    // squeezed to 328 px: 64 columns of 14 px drawn at a third of their size, 4 px labels
    assert.ok(found.drawn > 800 && Math.abs(found.shown - found.drawn) < 1, JSON.stringify(found));
    assert.ok(found.scrolls && found.right <= 375, JSON.stringify(found));
    assert.deepEqual(await pastTheEdge(phone), { scrollWidth: 375, width: 375, found: [] });
  });
});
