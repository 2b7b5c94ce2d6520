// What the learner reads from the engine beyond the steps: the input's true limits, the model's
// confidence in its output, the cosine bound, where self-attention's q, k and v come from, and the
// exports of Compare, Beam and Self-attention. Each number on the page is checked against the
// engine run here in node (or a checkpoint's tensors read here), and hand-computed values.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { loadEngine } from '../js/load-engine.mjs';
import { readSafetensors } from '../js/reference.mjs';
import { launchBrowser, waitForStep } from './browser.mjs';
import { serveBuild } from './static-server.mjs';

const modelFile = (name) =>
  new Uint8Array(readFileSync(new URL(`../../web/models/${name}.safetensors`, import.meta.url)));

let server, browser, page, ap;
const consoleErrors = [];
const models = new Map();
const model = (name) => {
  if (!models.has(name)) models.set(name, ap.Model.load(modelFile(name)));
  return models.get(name);
};

const hash = (fields) => `#${new URLSearchParams({ view: 'decode', ...fields })}`;
async function open(p, hashPart) {
  await p.goto('about:blank');
  await p.goto(server.url + hashPart);
}
/** Clicks an export button and returns the download's name and bytes. */
async function grab(p, testid) {
  const [download] = await Promise.all([p.waitForEvent('download'), p.click(`[data-testid=${testid}]`)]);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The texts of an SVG file drawn on its own page that reach outside their svg element. */
async function clippedInFile(text) {
  const alone = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await alone.setContent(text.replace(/^<\?xml[^>]*>/, ''));
  const clipped = await alone.$eval('svg', (svg) => {
    const box = svg.getBoundingClientRect();
    return [...svg.querySelectorAll('text')]
      .map((t) => ({ text: t.textContent, r: t.getBoundingClientRect() }))
      .filter(
        ({ r }) =>
          r.left < box.left - 1 ||
          r.right > box.right + 1 ||
          r.top < box.top - 1 ||
          r.bottom > box.bottom + 1,
      )
      .map(({ text }) => text);
  });
  await alone.close();
  return clipped;
}

describe('the engine’s numbers a learner reads', () => {
  before(async () => {
    [server, browser, ap] = await Promise.all([serveBuild(), launchBrowser(), loadEngine()]);
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true });
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
  });
  after(async () => {
    for (const m of models.values()) m.delete();
    await browser?.close();
    await server?.close();
  });

  test('the input hint states the model’s true limits, from the engine', async () => {
    await open(page, hash({ task: 'reverse', model: 'additive-bahdanau', input: 'abcdefj' }));
    await waitForStep(page, 'reverse-additive-bahdanau', 0);
    const limits = model('reverse-additive-bahdanau').info().limits;
    assert.deepEqual([limits.minSourceTokens, limits.maxSourceTokens], [1, 19]);
    const hint = page.locator('[data-testid=input-hint]');
    await page.waitForFunction(() =>
      /1–19/.test(document.querySelector('[data-testid=input-hint]')?.textContent ?? ''),
    );
    assert.equal((await hint.textContent())?.trim(), 'Input: 1–19 letters from a to j, no spaces');
    // and the engine does take both ends: one letter and nineteen
    for (const input of ['a', 'abcdefghijabcdefghi']) {
      await open(page, hash({ task: 'reverse', model: 'additive-bahdanau', input }));
      await waitForStep(page, 'reverse-additive-bahdanau', 0);
    }
    await open(page, hash({ task: 'dates', model: 'additive-bahdanau', input: '11/29/26' }));
    await waitForStep(page, 'dates-additive-bahdanau', 0);
    await page.waitForFunction(() =>
      /33/.test(document.querySelector('[data-testid=input-hint]')?.textContent ?? ''),
    );
    assert.equal((await hint.textContent())?.trim(), 'Input: a date, 1–33 characters');
  });

  test('the output’s confidence is the engine’s, and “hello” on dates says plainly that it is low', async () => {
    const expect = (text) => {
      const s = model('dates-additive-bahdanau').decode(text);
      s.run();
      const c = s.confidence();
      s.delete();
      return c;
    };
    await open(page, hash({ task: 'dates', model: 'additive-bahdanau', input: 'hello' }));
    await waitForStep(page, 'dates-additive-bahdanau', 0);
    const box = page.locator('[data-testid=confidence]');
    const hello = expect('hello');
    assert.ok(hello.low);
    assert.equal(Number(await box.getAttribute('data-mean')), hello.meanProb);
    assert.equal(Number(await box.getAttribute('data-min')), hello.minProb);
    assert.equal(await page.locator('[data-testid=confidence-mean]').textContent(), '82.8 %');
    assert.equal(await page.locator('[data-testid=confidence-min]').textContent(), '28.0 %');
    const low = await page.locator('[data-testid=confidence-low]').textContent();
    assert.match(low ?? '', /step 7/);
    assert.match(low ?? '', /below 50\.0 %/);
    assert.match(low ?? '', /always answers something/);

    await open(page, hash({ task: 'dates', model: 'additive-bahdanau', input: '29 november 2026' }));
    await waitForStep(page, 'dates-additive-bahdanau', 0);
    const sure = expect('29 november 2026');
    assert.ok(!sure.low);
    assert.equal(Number(await box.getAttribute('data-min')), sure.minProb);
    assert.equal(await page.locator('[data-testid=confidence-low]').count(), 0);
  });

  test('the cosine bound for “tom chase jerry” (n = 3): e² / (e² + 2) = 0.787 in Decode, Compare and the Sandbox', async () => {
    const bound = Math.exp(2) / (Math.exp(2) + 2);
    assert.ok(Math.abs(ap.cosineWeightBound(3) - bound) < 1e-15);
    await open(page, hash({ task: 'zh', model: 'cosine-bahdanau', input: 'tom chase jerry' }));
    await waitForStep(page, 'zh-cosine-bahdanau', 0);
    const decodeBound = page.locator('[data-testid=cosine-bound]');
    await decodeBound.waitFor();
    assert.equal(await decodeBound.getAttribute('data-n'), '3');
    assert.ok(Math.abs(Number(await decodeBound.getAttribute('data-value')) - bound) < 1e-15);
    assert.equal(await page.locator('[data-testid=cosine-bound-value]').textContent(), '0.787');
    // only where cosine is chosen
    await page.locator('h1').click();
    await page.keyboard.press('4'); // additive
    await waitForStep(page, 'zh-additive-bahdanau', 0);
    assert.equal(await page.locator('[data-testid=cosine-bound]').count(), 0);

    await page.click('[data-testid=view-compare]');
    const card = page.locator('[data-testid="cosine-bound-zh-cosine-bahdanau"]');
    await card.waitFor({ timeout: 30_000 });
    assert.equal(await card.getAttribute('data-n'), '3');
    assert.equal(
      await page.locator('[data-testid="cosine-bound-zh-cosine-bahdanau-value"]').textContent(),
      '0.787',
    );

    await open(page, '#view=sandbox&kind=cosine&t=1');
    const sandbox = page.locator('[data-testid=cosine-bound]');
    await sandbox.waitFor({ timeout: 20_000 });
    assert.equal(await sandbox.getAttribute('data-n'), '3');
    assert.equal(await page.locator('[data-testid=cosine-bound-value]').textContent(), '0.787');
    // τ = 0.5 doubles the scores' range: e⁴ / (e⁴ + 2)
    await open(page, '#view=sandbox&kind=cosine&t=0.5');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=cosine-bound-value]')?.textContent === '0.965',
      null,
      { timeout: 20_000 },
    );
    assert.ok(Math.abs(Math.exp(4) / (Math.exp(4) + 2) - 0.9646) < 1e-4);
  });

  test('self-attention: the q shown is W_q x + b_q from the checkpoint’s own tensors, and a tap reads a number', async () => {
    const name = 'zh-additive-bahdanau-transformer';
    const tensors = readSafetensors(modelFile(name));
    const s = model(name).decode('tom chase jerry');
    const layers = s.selfAttention();
    s.delete();
    // layer 2, head 3, token "jerry"
    await open(
      page,
      `#${new URLSearchParams({ view: 'self', task: 'zh', input: 'tom chase jerry', sa: '1.2.2' })}`,
    );
    const part = page.locator('[data-testid=sa-proj-q]');
    await part.waitFor({ timeout: 30_000 });
    const shown = await page.$$eval('[data-testid^=sa-proj-q-]', (els) =>
      els.map((e) => Number(e.dataset.value)),
    );
    const W = tensors['encoder.layers.1.attn.w_q'];
    const B = tensors['encoder.layers.1.attn.b_q'];
    const d = W.shape[1];
    const dh = d / 4;
    assert.equal(shown.length, dh);
    const x = layers[1].input.data.subarray(2 * d, 3 * d);
    shown.forEach((q, i) => {
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

    const phone = await browser.newPage({
      viewport: { width: 375, height: 800 },
      hasTouch: true,
      isMobile: true,
    });
    await phone.goto(
      `${server.url}#${new URLSearchParams({ view: 'self', task: 'zh', input: 'tom chase jerry', sa: '1.2.2' })}`,
    );
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
    await phone.close();
  });

  test('Compare exports every model’s numbers as JSON and CSV and their heatmaps as one SVG and PNG', async () => {
    await open(
      page,
      hash({ view: 'compare', task: 'zh', model: 'additive-bahdanau', input: 'tom chase jerry' }),
    );
    // every model's figure, and the fixed-vector baseline's "no attention" picture: each card has
    // its decode (they finish one by one, and the export holds the finished ones)
    await page.waitForFunction(
      () =>
        document.querySelectorAll('figure[data-testid^="cmp-"] svg').length >= 7 &&
        [...document.querySelectorAll('section.card[data-testid^="compare-"]')].every((card) =>
          card.querySelector('[data-testid^="output-"]'),
        ),
      null,
      { timeout: 40_000 },
    );
    const names = await page.$$eval('figure[data-testid^="cmp-"], div[data-testid^="cmp-"]', (els) =>
      els.map((e) => e.dataset.testid.slice(4)),
    );
    assert.ok(names.includes('zh-none-bahdanau'));
    const json = await grab(page, 'compare-export-json');
    assert.equal(json.name, 'compare-zh-tom_chase_jerry.json');
    const data = JSON.parse(json.bytes.toString());
    assert.equal(data.input, 'tom chase jerry');
    assert.deepEqual(data.models.map((m) => m.name).sort(), [...new Set(names)].sort());
    const cosine = data.models.find((m) => m.name === 'zh-cosine-bahdanau');
    const s = model('zh-cosine-bahdanau').decode('tom chase jerry');
    const steps = s.run();
    s.delete();
    assert.equal(cosine.steps.length, steps.length);
    assert.deepEqual(cosine.steps[1].weights, Array.from(steps[1].weights));
    assert.equal(cosine.heldoutExactMatch, model('zh-cosine-bahdanau').info().heldoutExactMatch);

    const csv = (await grab(page, 'compare-export-csv')).bytes.toString().trimEnd().split('\n');
    assert.equal(
      csv[0],
      'model,heldout_exact_match,step,token,log_prob,source_index,source_token,score,weight',
    );
    const row = csv.find(
      (l) => l.startsWith('zh-cosine-bahdanau,') && l.split(',')[2] === '1' && l.split(',')[5] === '2',
    );
    assert.ok(row, 'the cosine model’s step 2, source token 3');
    const fields = row.split(',');
    assert.equal(fields[6], 'jerry');
    assert.equal(Number(fields[7]), steps[1].scores[2]);
    assert.equal(Number(fields[8]), steps[1].weights[2]);
    const total = data.models.reduce((sum, m) => sum + m.steps.length * m.sourceTokens.length, 0);
    assert.equal(csv.length, 1 + total);

    const svg = await grab(page, 'compare-export-svg');
    assert.equal(svg.name, 'compare-zh-tom_chase_jerry.heatmaps.svg');
    const text = svg.bytes.toString();
    assert.match(text, /data-legend/);
    assert.match(text, /attention weight/);
    for (const m of data.models) assert.ok(text.includes(`${m.name} → `), `${m.name} in the picture`);
    // the fixed-vector baseline has no weights, so no cells: its picture says "no attention"
    const cells = data.models
      .filter((m) => m.steps.every((step) => step.weights))
      .reduce((sum, m) => sum + m.steps.length * m.sourceTokens.length, 0);
    assert.equal(cells, total - 4 * 3, 'the baseline: 4 steps × 3 source tokens without cells');
    assert.equal((text.match(/class="cell/g) ?? []).length, cells);
    assert.deepEqual(await clippedInFile(text), []);
    const png = await grab(page, 'compare-export-png');
    assert.deepEqual([...png.bytes.subarray(0, 8)], PNG);
  });

  test('Beam exports its nodes and beams as JSON and CSV and the tree with the beam’s heatmap as SVG and PNG', async () => {
    const input = 'tom chased jerry in the kitchen yesterday';
    await open(page, hash({ view: 'beam', task: 'zh', model: 'additive-bahdanau', input, k: '3' }));
    await page.waitForSelector('[data-testid=beam-heatmap] svg', { timeout: 30_000 });
    const s = model('zh-additive-bahdanau').decode(input);
    const expected = s.beam(3);
    const n = s.sourceTokens().length;
    s.delete();
    const json = await grab(page, 'beam-export-json');
    assert.equal(json.name, 'zh-additive-bahdanau-beam3-tom_chased_jerry_in_the_kitchen.json');
    const data = JSON.parse(json.bytes.toString());
    assert.equal(data.width, 3);
    assert.deepEqual(data.beams, expected.beams);
    assert.deepEqual(data.scores, expected.scores);
    assert.equal(data.nodes.length, expected.nodes.length);
    assert.deepEqual(data.nodes[4].weights, Array.from(expected.nodes[4].weights));

    const csv = (await grab(page, 'beam-export-csv')).bytes.toString().trimEnd().split('\n');
    assert.equal(
      csv[0],
      'node,parent,depth,token,log_prob,total_log_prob,finished,final_rank,final_score,source_index,source_token,weight',
    );
    assert.equal(csv.length, 1 + expected.nodes.length * n);
    const last = expected.beams[0].at(-1);
    const row = csv.find((l) => l.startsWith(`${last},`) && l.split(',')[9] === '2').split(',');
    assert.deepEqual([row[7], Number(row[8]), row[10]], ['1', expected.scores[0], 'jerry']);
    assert.equal(Number(row[11]), expected.nodes[last].weights[2]);

    const svg = (await grab(page, 'beam-export-svg')).bytes.toString();
    assert.match(svg, /data-legend/);
    assert.match(svg, /The tree \(blue: beam #1/);
    assert.match(svg, /Attention of beam #1/);
    // the tree's nodes keep their colours in the file (attributes, not the page's CSS)
    assert.match(svg, /<rect[^>]*fill="#eef4fc"[^>]*stroke="#2563b8"/);
    assert.equal((svg.match(/class="cell/g) ?? []).length, expected.beams[0].length * n);
    assert.deepEqual(await clippedInFile(svg), []);
    const png = await grab(page, 'beam-export-png');
    assert.deepEqual([...png.bytes.subarray(0, 8)], PNG);
  });

  test('Self-attention exports the engine’s layer records as JSON, every head’s numbers as CSV, and its pictures', async () => {
    const name = 'zh-additive-bahdanau-transformer';
    await open(
      page,
      `#${new URLSearchParams({ view: 'self', task: 'zh', input: 'tom chase jerry', sa: '0.1.0' })}`,
    );
    await page.waitForSelector('[data-testid=sa-cross-heatmap] svg', { timeout: 30_000 });
    const s = model(name).decode('tom chase jerry');
    const layers = s.selfAttention();
    s.delete();
    const json = await grab(page, 'sa-export-json');
    assert.equal(json.name, `${name}-self-attention-tom_chase_jerry.trace.json`);
    const trace = JSON.parse(json.bytes.toString());
    assert.equal(trace.encoder.length, 2);
    assert.deepEqual(trace.encoder[1].tensors.weights.shape, [4, 3, 3]);
    assert.deepEqual(trace.encoder[1].tensors.weights.data, Array.from(layers[1].weights.data));
    assert.deepEqual(trace.encoder[0].tensors.w_q.shape, [4, 16, 64]);

    const csv = (await grab(page, 'sa-export-csv')).bytes.toString().trimEnd().split('\n');
    assert.equal(csv[0], 'layer,head,query_index,query_token,key_index,key_token,raw_score,score,weight');
    assert.equal(csv.length, 1 + 2 * 4 * 3 * 3);
    // layer 2, head 4, query "chase", key "jerry"
    const row = csv[1 + ((1 * 4 + 3) * 3 + 1) * 3 + 2].split(',');
    assert.deepEqual(row.slice(0, 6), ['1', '3', '1', 'chase', '2', 'jerry']);
    const at = (4 * 0 + 3) * 9 + 1 * 3 + 2;
    assert.equal(Number(row[6]), layers[1].rawScores.data[at]);
    assert.equal(Number(row[8]), layers[1].weights.data[at]);

    const svg = (await grab(page, 'sa-export-svg')).bytes.toString();
    assert.match(svg, /data-legend/);
    assert.match(svg, /Layer 1, head 2: queries above attend to keys below/);
    assert.match(svg, /Decoder cross-attention/);
    assert.match(svg, /<rect[^>]*fill="#2563b8"/, 'the chosen query keeps its colour');
    assert.deepEqual(await clippedInFile(svg), []);
    const png = await grab(page, 'sa-export-png');
    assert.deepEqual([...png.bytes.subarray(0, 8)], PNG);
  });

  test('no console errors on the way', () => {
    assert.deepEqual(consoleErrors, []);
  });
});
