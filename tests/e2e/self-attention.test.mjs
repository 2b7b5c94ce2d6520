// The Self-attention view in headless Chromium: for a chosen token, layer and head the numbers on
// screen (Q·K, the scaled scores, the softmax weights, the head's output, the lines, q = W_q x + b_q)
// are the JS API's trace of the same model and the checkpoint's own tensors; the decoder's
// cross-attention beside it is that model's trace; keys, messages, exports, a phone.
import assert from 'node:assert/strict';
import { before, beforeEach, test } from 'node:test';

import { formatNumber } from '../../web/shared/lib/format.js';
import { readSafetensors } from '../js/reference.mjs';
import { runPython } from '../js/run-python.mjs';
import { afterFrame, shot, urlSettled, waitForStep } from './browser.mjs';
import { clippedInFile, download, hashOf, PNG_SIGNATURE } from './decode-view.mjs';
import { model, modelFile } from './engine.mjs';
import { DESKTOP, PHONE, useBrowser } from './fixture.mjs';
import { lineCount } from './layout.mjs';

const fx = useBrowser();
/** Each test's page: 1440 × 1000, in a fresh context. */
let page;
beforeEach(async () => {
  page = await fx.page();
});

const MODEL = 'zh-additive-bahdanau-transformer';
const INPUT = 'tom said that he was hungry';
const selfHash = (fields) => hashOf({ view: 'self', ...fields });
let reference;
before(() => {
  const session = model(MODEL).decode(INPUT);
  reference = {
    tokens: session.sourceTokens(),
    layers: session.selfAttention(),
    cross: session.run().map((s) => s.weights),
  };
  session.delete();
});

async function open(p, fields) {
  await p.goto(fx.link(selfHash(fields)));
  await p.waitForSelector('[data-testid=sa-detail]', { timeout: 30_000 });
}

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
  await open(page, { task: 'zh', input: INPUT });
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
  await shot(page, 'self-attention-1440', { fullPage: true });
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
  await open(page, { task: 'zh', input: INPUT, sa: '1.2.3' });
  checkAgainstTrace(await shown(), 1, 2, 3);
  assert.equal(await page.locator('[data-testid^=sa-head-]').count(), 8);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => document.querySelector('#sa-detail-title').textContent.includes('head 4'));
  checkAgainstTrace(await shown(), 1, 3, 4);
});

test("the decoder's cross-attention beside it is the same model's trace", async () => {
  await open(page, { task: 'zh', input: INPUT });
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

test('the q shown is W_q x + b_q from the checkpoint’s own tensors, and a tap reads a number', async () => {
  const name = 'zh-additive-bahdanau-transformer';
  const tensors = readSafetensors(modelFile(name));
  const s = model(name).decode('tom chase jerry');
  const layers = s.selfAttention();
  s.delete();
  // layer 2, head 3, token "jerry"
  await page.goto(fx.link(selfHash({ task: 'zh', input: 'tom chase jerry', sa: '1.2.2' })));
  const part = page.locator('[data-testid=sa-proj-q]');
  await part.waitFor({ timeout: 30_000 });
  const shownQ = await page.$$eval('[data-testid^=sa-proj-q-]', (els) =>
    els.map((e) => Number(e.dataset.value)),
  );
  const W = tensors['encoder.layers.1.attn.w_q'];
  const B = tensors['encoder.layers.1.attn.b_q'];
  const d = W.shape[1];
  const dh = d / 4;
  assert.equal(shownQ.length, dh);
  const x = layers[1].input.data.subarray(2 * d, 3 * d);
  shownQ.forEach((q, i) => {
    const r = 2 * dh + i;
    let sum = B.data[r];
    for (let c = 0; c < d; c++) sum += W.data[r * d + c] * x[c];
    assert.ok(Math.abs(q - sum) < 1e-5 * Math.max(1, Math.abs(sum)), `q[${i}] = ${q}, W x + b = ${sum}`);
  });
  const heading = await page.locator('#sa-proj-title').textContent();
  assert.match(heading ?? '', /“jerry”.*layer 2, head 3/);
  assert.match(
    (await page.locator('[data-testid=sa-projections]').textContent()) ?? '',
    /16 × 64 of 64 × 64/,
  );

  const phone = await fx.open(selfHash({ task: 'zh', input: 'tom chase jerry', sa: '1.2.2' }), PHONE);
  const cell = phone.locator('[data-testid=sa-proj-k-3]');
  await cell.waitFor({ timeout: 30_000 });
  await cell.scrollIntoViewIfNeeded();
  await cell.tap();
  const k = Number(await cell.getAttribute('data-value'));
  assert.equal(
    await phone.locator('[data-testid=sa-proj-readout]').textContent(),
    `k3[3] = ${(await cell.textContent())?.trim()}`,
  );
  assert.ok(Number.isFinite(k));
  // the query tokens of the drawing take the focus and Enter chooses one
  await phone.focus('[data-testid=sa-token-0]');
  await phone.keyboard.press('Enter');
  await phone.waitForFunction(() =>
    /“tom”/.test(document.querySelector('#sa-proj-title')?.textContent ?? ''),
  );
});

test('a tap on a vector cell reads its number (a phone has no hover)', async () => {
  const phone = await fx.open('#view=self&task=zh&input=tom+chase+jerry', {
    viewport: { width: 375, height: 800 },
    hasTouch: true,
  });
  await phone.waitForSelector('[data-testid=sa-detail]', { timeout: 30_000 });
  const cell = phone.locator('[data-testid=sa-value-1] .c').nth(2);
  const value = Number(await cell.getAttribute('data-value'));
  await cell.tap();
  await phone.waitForFunction(
    (text) => document.querySelector('[data-testid=sa-readout]')?.textContent.includes(text),
    `v[2] = ${formatNumber(value)}`,
  );
  assert.match(await phone.textContent('[data-testid=sa-readout]'), /chase/);
});

test('Self-attention exports the engine’s layer records as JSON, every head’s numbers as CSV, and its pictures', async () => {
  const name = 'zh-additive-bahdanau-transformer';
  await page.goto(fx.link(selfHash({ task: 'zh', input: 'tom chase jerry', sa: '0.1.0' })));
  await page.waitForSelector('[data-testid=sa-cross-heatmap] svg', { timeout: 30_000 });
  const s = model(name).decode('tom chase jerry');
  const layers = s.selfAttention();
  s.delete();
  const json = await download(page, 'sa-export-json');
  assert.equal(json.name, `${name}-self-attention-tom_chase_jerry.trace.json`);
  const trace = JSON.parse(json.bytes.toString());
  assert.equal(trace.encoder.length, 2);
  assert.deepEqual(trace.encoder[1].tensors.weights.shape, [4, 3, 3]);
  assert.deepEqual(trace.encoder[1].tensors.weights.data, Array.from(layers[1].weights.data));
  assert.deepEqual(trace.encoder[0].tensors.w_q.shape, [4, 16, 64]);

  const csv = (await download(page, 'sa-export-csv')).bytes.toString().trimEnd().split('\n');
  assert.equal(csv[0], 'layer,head,query_index,query_token,key_index,key_token,raw_score,score,weight');
  assert.equal(csv.length, 1 + 2 * 4 * 3 * 3);
  // layer 2, head 4, query "chase", key "jerry"
  const row = csv[1 + ((1 * 4 + 3) * 3 + 1) * 3 + 2].split(',');
  assert.deepEqual(row.slice(0, 6), ['1', '3', '1', 'chase', '2', 'jerry']);
  const at = (4 * 0 + 3) * 9 + 1 * 3 + 2;
  assert.equal(Number(row[6]), layers[1].rawScores.data[at]);
  assert.equal(Number(row[8]), layers[1].weights.data[at]);

  const svg = (await download(page, 'sa-export-svg')).bytes.toString();
  assert.match(svg, /data-legend/);
  assert.match(svg, /Layer 1, head 2: queries above attend to keys below/);
  assert.match(svg, /Decoder cross-attention/);
  assert.match(svg, /<rect[^>]*fill="#2563b8"/, 'the chosen query keeps its colour');
  assert.deepEqual(await clippedInFile(await fx.page({ viewport: { width: 1400, height: 900 } }), svg), []);
  const png = await download(page, 'sa-export-png');
  assert.deepEqual([...png.bytes.subarray(0, 8)], PNG_SIGNATURE);

  // the row shown (layer 1, head 2, query "tom") as a script that recomputes it with NumPy
  const python = await download(page, 'sa-export-python');
  assert.equal(python.name, `${name}-self-attention-tom_chase_jerry.layer1.head2.query1.py`);
  assert.match(python.bytes.toString(), /layer 1, head 2, the query at position i = 0 \("tom"\)/);
  const run = runPython(python.bytes);
  assert.equal(run.status, 0, run.output);
});

test('unknown words and a task without a transformer model give messages, not errors', async () => {
  await open(page, { task: 'zh', input: INPUT });
  await page.fill('[data-testid=sa-input]', 'tom chaes jerry');
  const error = page.locator('[data-testid=sa-error]');
  await error.waitFor({ timeout: 10_000 });
  assert.match(await error.textContent(), /chaes/);
  await page.goto('about:blank');
  await page.goto(fx.link('#view=self&task=reverse&input=abc'));
  const none = page.locator('[data-testid=sa-no-model]');
  await none.waitFor({ timeout: 20_000 });
  assert.match(await none.textContent(), /no Transformer-encoder model/);
});

test('on the reverse task it says plainly that it has no such model, and names none', async () => {
  await open(page, { task: 'zh', input: 'tom chase jerry' });
  await page.click('[data-testid=view-decode]');
  await page.click('[data-testid=task-reverse]');
  await waitForStep(page, 'reverse-additive-bahdanau', 0);
  await page.click('[data-testid=view-self]');
  const note = page.locator('[data-testid=sa-no-model]');
  await note.waitFor();
  assert.match(
    await note.textContent(),
    /Reverse letters has no Transformer-encoder model.*choose English → Chinese or Dates/s,
  );
  const text = await page.locator('main').textContent();
  assert.doesNotMatch(text, /held-out/, 'no model is described');
  assert.doesNotMatch(text, /zh-additive-bahdanau-transformer/, 'not the last task’s model either');
  assert.equal(
    await page.locator('[data-testid=sa-about], [data-testid=sa-error], [data-testid=sa-detail]').count(),
    0,
  );
  // one message, and the way out works
  await page.click('[data-testid=sa-task-dates]');
  await page.waitForSelector('[data-testid=sa-detail]', { timeout: 30_000 });
  assert.match(
    await page.locator('[data-testid=sa-about]').textContent(),
    /dates-additive-bahdanau-transformer/,
  );
});

test('its hints read as sentences and “for its number” is said once', async () => {
  await page.goto(fx.link(selfHash({ task: 'zh', lang: 'en' })));
  const detail = page.locator('[data-testid=sa-readout] + .hint');
  const projections = page.locator('[data-testid=sa-proj-readout] + .hint');
  await projections.waitFor({ timeout: 20_000 });
  // "… its weightsand the output …", "… valueof this layer's record", and the card said
  // "Tap or hover a cell for its number." twice in a row
  assert.match(await detail.innerText(), /the weights its weights and the output its per-head context/);
  assert.match(await projections.innerText(), /query, key, value of this layer's record\.$/);
  const card = await page.locator('[data-testid=sa-readout]').locator('..').innerText();
  assert.equal(card.match(/for its number/g)?.length, 1, card);
});

test('dates: the view works on characters, and fits a phone', async () => {
  const phone = await fx.open(`#view=self&task=dates&input=${encodeURIComponent('29 november 2026')}`, {
    viewport: { width: 375, height: 800 },
  });
  await phone.waitForSelector('[data-testid=sa-detail]', { timeout: 30_000 });
  assert.equal(await phone.locator('[data-testid^="sa-raw-"]').count(), 16);
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `horizontal scroll of ${overflow} px`);
  await shot(phone, 'self-attention-375', { fullPage: true });
});

test('the equations on a phone: one under another, none cut at the screen’s edge', async () => {
  const formula = async (options) => {
    const p = await fx.open({ view: 'self', task: 'zh', lang: 'en' }, options);
    await p.waitForSelector('[data-testid=sa-detail] .formula .katex', { timeout: 30_000 });
    return p.$eval('[data-testid=sa-detail] .formula', (el) => ({
      overflow: el.scrollWidth - el.clientWidth,
      centres: [...el.querySelectorAll('.katex-display')].map((k) => {
        const box = k.getBoundingClientRect();
        return (box.top + box.bottom) / 2;
      }),
      right: Math.max(...[...el.querySelectorAll('.katex')].map((k) => k.getBoundingClientRect().right)),
    }));
  };
  // "α_ij = exp(" ended at the card's edge, the rest (and o_i) out of sight in a scrolling box
  const phone = await formula(PHONE);
  assert.ok(phone.overflow <= 0 && phone.right <= 375, JSON.stringify(phone));
  assert.ok(lineCount(phone.centres) >= 3, JSON.stringify(phone));
  // a laptop keeps them on one line
  const laptop = await formula(DESKTOP);
  assert.equal(lineCount(laptop.centres), 1, JSON.stringify(laptop));
  assert.ok(laptop.overflow <= 0, JSON.stringify(laptop));
});

test('the query table on a phone: two lines a key, every number and vector in sight', async () => {
  const table = async (hash, options) => {
    const p = await fx.open(hash, options);
    await p.waitForSelector('[data-testid=sa-detail] [data-testid=sa-raw-0]', { timeout: 30_000 });
    return p.$eval('[data-testid=sa-detail]', (detail) => {
      const wrap = /** @type {HTMLElement} */ (detail.querySelector('.table-wrap'));
      const edge = wrap.getBoundingClientRect().right;
      const rows = [...detail.querySelectorAll('tbody tr')].map((tr, j) => {
        const box = (id) => {
          const b = /** @type {Element} */ (
            tr.querySelector(`[data-testid=${id}-${j}]`)
          ).getBoundingClientRect();
          return { width: b.width, right: b.right, centre: (b.top + b.bottom) / 2 };
        };
        return ['sa-key', 'sa-raw', 'sa-scaled', 'sa-weight', 'sa-value'].map(box);
      });
      const output = /** @type {Element} */ (
        detail.querySelector('[data-testid=sa-output]')
      ).getBoundingClientRect();
      return {
        scrolls: wrap.scrollWidth - wrap.clientWidth,
        edge,
        rows,
        output: { width: output.width, right: output.right },
      };
    });
  };
  for (const hash of [
    { view: 'self', task: 'zh', lang: 'en' },
    { view: 'self', task: 'dates', input: '29 november 2026', lang: 'zh' },
  ]) {
    // the six columns were 550 px wide in a box that scrolled: the values' vectors out of sight
    const phone = await table(hash, PHONE);
    const where = `${hash.task}: ${JSON.stringify(phone).slice(0, 400)}`;
    assert.ok(phone.scrolls <= 0 && phone.edge <= 375, where);
    assert.ok(phone.rows.length >= 3, where);
    for (const cells of phone.rows) {
      for (const cell of cells) assert.ok(cell.width > 20 && cell.right <= phone.edge + 0.5, where);
      // the numbers on one line, the key's and the value's vectors on the next
      assert.equal(lineCount(cells.map((c) => c.centre)), 2, where);
    }
    assert.ok(phone.output.width > 100 && phone.output.right <= phone.edge + 0.5, where);
  }
  // a laptop keeps one line a key
  const laptop = await table({ view: 'self', task: 'zh', lang: 'en' }, DESKTOP);
  for (const cells of laptop.rows) assert.equal(lineCount(cells.map((c) => c.centre)), 1);
  assert.ok(laptop.scrolls <= 0);
});

test('the two heatmaps: each its own caption under it, side by side or stacked', async () => {
  /** The two heatmaps' captions in page `p` as drawn now, in `lang` at `width`. */
  async function check(p, lang, width, stacked) {
    const found = await p.evaluate(() =>
      ['sa-self', 'sa-cross'].map((id) => {
        const map = /** @type {Element} */ (document.querySelector(`[data-testid=${id}-heatmap]`));
        const caption = document.querySelector(`[data-testid=${id}-caption]`);
        const [m, c] = [map.getBoundingClientRect(), caption?.getBoundingClientRect()];
        return {
          text: caption?.textContent ?? '',
          below: c ? c.top - m.bottom : -1,
          overlaps: c ? c.left < m.right && c.right > m.left : false,
          top: m.top,
          left: m.left,
        };
      }),
    );
    const where = `${lang} ${width}: ${JSON.stringify(found)}`;
    // "Left, …; right, …" under two heatmaps one above the other
    for (const caption of found) {
      assert.doesNotMatch(caption.text, /\b(left|right|above|below)\b|左|右/i, where);
      assert.ok(caption.below >= 0 && caption.below < 40 && caption.overlaps, where);
    }
    assert.match(found[0].text, lang === 'en' ? /encoder's tokens/ : /编码器的词元/, where);
    assert.match(found[1].text, lang === 'en' ? /output step of the decoder/ : /解码器每个输出步/, where);
    assert.equal(found[1].top > found[0].top + 40, stacked, where);
  }
  // a phone's page, and a laptop's window at 1024 and 1440 px, each in English and then switched to Chinese
  const phone = await fx.open({ view: 'self', task: 'zh', lang: 'en' }, PHONE);
  await phone.waitForSelector('[data-testid=sa-cross-heatmap] svg', { timeout: 30_000 });
  const laptop = await fx.open(
    { view: 'self', task: 'zh', lang: 'en' },
    { viewport: { width: 1024, height: 768 } },
  );
  await laptop.waitForSelector('[data-testid=sa-cross-heatmap] svg', { timeout: 30_000 });
  for (const lang of ['en', 'zh']) {
    for (const p of [phone, laptop])
      if (lang === 'zh') {
        await p.click('[data-testid=lang-zh]');
        await p.waitForFunction(() => document.documentElement.lang === 'zh');
        await afterFrame(p);
      }
    await check(phone, lang, 375, true);
    for (const width of [1024, 1440]) {
      await laptop.setViewportSize({ width, height: 768 });
      await afterFrame(laptop);
      await check(laptop, lang, width, width < 1280);
    }
  }
});

test('Decode steps the Transformer-encoder model like the others, its weights its trace', async () => {
  await page.goto(
    fx.link(hashOf({ task: 'zh', model: 'additive-bahdanau-transformer', input: INPUT, step: '0' })),
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
  await shot(page, 'decode-transformer-1440');
  await urlSettled(page);
  assert.match(page.url(), /model=additive-bahdanau-transformer/);
  // A score function without a transformer model goes back to the BiGRU encoder.
  await page.locator('[data-testid=score-dot]').check({ force: true });
  await page.waitForFunction(
    () => document.querySelector('[data-testid=decode]')?.dataset.model === 'zh-dot-bahdanau',
  );
  assert.ok(await page.isChecked('[data-testid=encoder-gru]'));
});
