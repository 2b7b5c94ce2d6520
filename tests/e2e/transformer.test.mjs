// Decode with the encoder–decoder Transformer in headless Chromium, against the same checkpoints
// decoded here in node by the trainer module (the module whose decoder the page's engine Worker
// starts for them): one head's three stages (q, the keys, the scores, the weights, the values and
// the head's output), the causal triangle of the masked self-attention, every head's small map,
// the alignment averaged or per head, and the head picked by a click; at 1440 and 375 px, in
// English and Chinese, with no console errors.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, beforeEach, test } from 'node:test';

import { showToken as show } from '../../web/shared/lib/format.js';
import { linkOf, RUNS } from '../js/training-reference.mjs';
import { loadTrainer } from '../js/trainer-fixture.mjs';
import { pageScreenshot, shot, waitForStep } from './browser.mjs';
import { hashOf, heatmapPointed, heatmapValues, litAt, pointedFigures } from './decode-view.mjs';
import { PHONE, useBrowser } from './fixture.mjs';
import { assertRaceAsGolden, openTrain, trainUntilDone } from './train-page.mjs';

const fx = useBrowser();
let page;
beforeEach(async () => {
  page = await fx.page();
});

const golden = JSON.parse(readFileSync(new URL('training_golden.json', import.meta.url), 'utf8'));
const MODEL = 'dates-transformer';
const DATE = '29 november 2026';
/** The module's first start and the checkpoint's load take a while on a busy machine. */
const FIRST_STEP = 90_000;

let reference;
/** The decode of DATE with the head what-ifs (whatif-link.js's items), as the engine gives it. */
let decodeWith;
let model;
before(async () => {
  const T = await loadTrainer();
  model = T.Model.load(
    new Uint8Array(readFileSync(new URL(`../../web/models/${MODEL}.safetensors`, import.meta.url))),
  );
  const session = model.decode(DATE, { topK: 5, qkv: true });
  reference = { steps: session.run(), sourceTokens: session.sourceTokens(), info: model.info() };
  session.delete();
  decodeWith = (items) => {
    const s = model.decode(DATE, { topK: 5, qkv: true });
    try {
      const steps = [];
      while (!s.done()) {
        for (const w of items)
          if (w.step === s.length()) {
            const argument = 'weights' in w ? w.weights : w.token;
            const where = argument === undefined ? [w.layer, w.head] : [w.layer, w.head, argument];
            s.whatIf({ [w.kind]: where });
          }
        steps.push(s.step());
      }
      return steps;
    } finally {
      s.delete();
    }
  };
});
after(() => model.delete());

const link = (fields) => hashOf({ task: 'dates', model: 'transformer', input: DATE, reveal: '1', ...fields });

/** The elements `${prefix}-<j>`'s data-value, in order. */
const values = (p, prefix) =>
  p.evaluate(
    (prefix) =>
      [...document.querySelectorAll(`[data-testid^="${prefix}-"]`)]
        .filter((el) => new RegExp(`^${prefix}-\\d+$`).test(el.dataset.testid))
        .map((el) => Number(el.dataset.value)),
    prefix,
  );
/** A MatrixView's cells, row-major. */
const cells = (p, testid) =>
  p.$$eval(`[data-testid="${testid}"] td`, (tds) => tds.map((td) => Number(td.dataset.value)));

/** [layer, head, …] of a tensor {data, shape} as a plain array. */
function slice(t, ...index) {
  const inner = t.shape.slice(index.length).reduce((a, b) => a * b, 1);
  let at = 0;
  for (let k = 0; k < index.length; k++) at = at * t.shape[k] + index[k];
  return Array.from(t.data.subarray(at * inner, (at + 1) * inner));
}

/** The head shown: its three stages are the record's numbers at that layer and head. */
async function assertHead(p, step, layer, head, steps = reference.steps) {
  const r = steps[step];
  await p.waitForFunction(
    ([l, h]) => {
      const el = document.querySelector('[data-testid=transformer-step]');
      return el?.dataset.layer === String(l) && el.dataset.head === String(h);
    },
    [layer, head],
  );
  const what = `step ${step}, layer ${layer}, head ${head}`;
  assert.deepEqual(await cells(p, 'tx-query'), slice(r.crossQuery, layer, head), `${what}: q`);
  assert.deepEqual(await cells(p, 'tx-keys'), slice(r.crossKey, layer, head), `${what}: keys`);
  assert.deepEqual(await values(p, 'tx-score'), slice(r.crossScores, layer, head), `${what}: scores`);
  assert.deepEqual(await values(p, 'weight'), slice(r.crossWeights, layer, head), `${what}: weights`);
  assert.deepEqual(await cells(p, 'tx-values'), slice(r.crossValue, layer, head), `${what}: values`);
  assert.deepEqual(await cells(p, 'tx-context'), slice(r.crossContext, layer, head), `${what}: output`);
}

/** The causal triangle up to `step`: row r is step r's self-attention weights, the future blank. */
async function assertCausal(p, step, layer, head) {
  const shown = await p.evaluate((n) => {
    const rows = [];
    for (let r = 0; r < n; r++) {
      const row = [];
      for (let c = 0; c < n; c++) {
        const el = document.querySelector(`[data-testid="causal-${r}-${c}"]`);
        row.push(el?.dataset.future ? 'future' : el ? Number(el.dataset.value) : 'absent');
      }
      rows.push(row);
    }
    return rows;
  }, step + 1);
  const expected = Array.from({ length: step + 1 }, (_, r) => [
    ...slice(reference.steps[r].selfWeights, layer, head),
    ...Array(step - r).fill('future'),
  ]);
  assert.deepEqual(shown, expected, `causal triangle at step ${step}`);
  // the future is neither drawn with a number nor computed: no such cells after the current row
  assert.equal(await p.locator(`[data-testid^="causal-${step + 1}-"]`).count(), 0);
  // nor named: a token fed after this step is one not written yet, in the columns and the rows
  const later = (tokens) => tokens.map((token, i) => (i <= step ? show(token) : '·'));
  const fed = reference.steps.map((s) => s.prevToken);
  for (const where of ['thead th[scope=col]', 'tbody th[scope=row]'])
    assert.deepEqual(
      await p.$$eval(`[data-testid=causal] ${where}`, (ths) => ths.map((th) => th.textContent?.trim())),
      later(fed),
      `causal labels (${where}) at step ${step}`,
    );
}

/** Every head's small map: its row `step` is that head's cross-attention weights. */
async function assertAllHeads(p, step) {
  const [L, H] = reference.steps[0].crossWeights.shape;
  for (let l = 0; l < L; l++)
    for (let h = 0; h < H; h++) {
      const row = await p.$$eval(`[data-testid="heads-${l}-${h}"] rect[data-step="${step}"]`, (rects) =>
        rects.map((el) => Number(el.dataset.value)),
      );
      assert.deepEqual(row, slice(reference.steps[step].crossWeights, l, h), `all heads: ${l}.${h}`);
    }
}

test('stepping a Transformer decode: one head’s three stages, the causal mask and all heads are the trace’s', async () => {
  const { steps, sourceTokens } = reference;
  await page.goto(fx.link(link({ step: '0', head: '1.2' })));
  await waitForStep(page, MODEL, 0, FIRST_STEP);
  assert.match(await page.getByTestId('model-info').textContent(), /Transformer encoder and decoder/);
  for (let i = 0; i < steps.length; i++) {
    await waitForStep(page, MODEL, i);
    await assertHead(page, i, 1, 2);
    await assertCausal(page, i, 1, 2);
    await assertAllHeads(page, i);
    if (i === 3) await pageScreenshot(page, 'transformer-1440');
    if (i + 1 < steps.length) await page.locator('body').press('ArrowRight');
  }
  // the output is the trace's
  const output = await page.$$eval('[data-testid^="output-"]', (els) =>
    els.filter((el) => /^output-\d+$/.test(el.dataset.testid)).map((el) => el.textContent.trim()),
  );
  assert.deepEqual(
    output,
    steps.map((s) => show(s.token)),
  );
  // the alignment: the engine's average of the last layer's heads, or the head chosen
  const n = sourceTokens.length;
  assert.deepEqual(
    await heatmapValues(page, 'heatmap', steps.length, n),
    steps.map((s) => Array.from(s.weights)),
  );
  await page.getByTestId('align-head').check();
  await page.waitForFunction(() => location.hash.includes('align=head'));
  assert.deepEqual(
    await heatmapValues(page, 'heatmap', steps.length, n),
    steps.map((s) => slice(s.crossWeights, 1, 2)),
  );
});

test('a head is picked by its layer and head, or by a click on its small map; the link keeps it', async () => {
  const last = 2;
  // the trainer module's .wasm held back a moment: the view says what it is loading meanwhile
  await page.route(/\/trainer-[^/]*\.wasm$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.goto(fx.link(link({ step: String(last) })));
  await page.waitForFunction(() =>
    /trainer module/.test(document.querySelector('[data-testid=loading]')?.textContent ?? ''),
  );
  assert.match(await page.getByTestId('model-loading').textContent(), /Transformer decoder’s engine/);
  await waitForStep(page, MODEL, last, FIRST_STEP);
  await assertHead(page, last, 0, 0);
  await page.getByTestId('tx-head-3').check();
  await assertHead(page, last, 0, 3);
  await page.getByTestId('heads-1-1').click();
  await assertHead(page, last, 1, 1);
  await assertCausal(page, last, 1, 1);
  await page.waitForFunction(() => location.hash.includes('head=1.1'));
  // a link's head past the model's is kept within it, and a malformed one is noted
  await page.goto('about:blank');
  await page.goto(fx.link(link({ step: String(last), head: '9.9' })));
  await waitForStep(page, MODEL, last, FIRST_STEP);
  const [L, H] = reference.steps[0].crossWeights.shape;
  await assertHead(page, last, L - 1, H - 1);
});

test('pointing at a source token or a bar of the head shown lights that token in every figure of the step, with that head’s numbers', async () => {
  const step = 2;
  const [layer, head] = [1, 2];
  await page.goto(fx.link(link({ step: String(step), head: `${layer}.${head}`, align: 'head' })));
  await waitForStep(page, MODEL, step, FIRST_STEP);
  await assertHead(page, step, layer, head);
  const r = reference.steps[step];
  const scores = slice(r.crossScores, layer, head);
  const weights = slice(r.crossWeights, layer, head);
  const expectLit = async (j, how) => {
    await heatmapPointed(page, j);
    const { formula, ...shown } = await pointedFigures(page, {
      scores: 'tx-scores-panel',
      score: 'tx-score',
    });
    assert.deepEqual(formula, [], 'no formula tables for a Transformer head');
    assert.deepEqual(shown, litAt(j, show(reference.sourceTokens[j]), scores[j], weights[j]), how);
  };
  await page.hover('[data-testid=source-1]');
  await expectLit(1, 'a source token');
  await page.hover('[data-testid=weight-3]');
  await expectLit(3, 'a weight’s bar');
  await page.hover('[data-testid=tx-score-0]');
  await expectLit(0, 'a score’s bar');
});

/** The output tokens shown. */
const shownOutput = (p) =>
  p.$$eval('[data-testid^="output-"]', (els) =>
    els.filter((el) => /^output-\d+$/.test(el.dataset.testid)).map((el) => el.textContent.trim()),
  );
/** The what-ifs of the page's link, read as the page reads them. */
async function linkedItems(p) {
  const { readWhatIfUrl } = await import('../../web/shared/text/whatif-link.js');
  return readWhatIfUrl(new URL(p.url()).hash);
}

test('a head switched off, a token masked for one head, a head pinned: that head’s numbers are the engine’s, and the later steps follow', async () => {
  const [L, H] = reference.steps[0].crossWeights.shape;
  await page.goto(fx.link(link({ step: '1', head: '0.1' })));
  await waitForStep(page, MODEL, 1, FIRST_STEP);
  await page.getByTestId('head-off').click();
  const off = [{ kind: 'headOff', step: 1, layer: 0, head: 1 }];
  await page.waitForFunction(
    () => location.hash.includes('wi=ho0.1%401') || location.hash.includes('wi=ho0.1@1'),
  );
  assert.deepEqual(await linkedItems(page), off);
  let expected = decodeWith(off);
  await waitForStep(page, MODEL, 1);
  await assertHead(page, 1, 0, 1, expected);
  assert.deepEqual(
    await cells(page, 'tx-context'),
    Array(slice(expected[1].crossContext, 0, 1).length).fill(0),
  );
  assert.equal(await page.getByTestId('head-off').getAttribute('aria-pressed'), 'true');
  // step 0 is before the what-if: the model's own
  assert.deepEqual(slice(expected[0].crossContext, 0, 1), slice(reference.steps[0].crossContext, 0, 1));

  // a source token masked for layer 2's head 3 alone from step 1 on: its weight there is 0
  await page.getByTestId(`tx-layer-${L - 1}`).check();
  await page.getByTestId(`tx-head-${H - 1}`).check();
  await page.getByTestId('head-mask-0').click();
  const masked = [...off, { kind: 'headMask', step: 1, layer: L - 1, head: H - 1, token: 0 }];
  await page.waitForFunction(() => /hm/.test(decodeURIComponent(location.hash)));
  assert.deepEqual(await linkedItems(page), masked);
  expected = decodeWith(masked);
  assert.equal(slice(expected[1].crossWeights, L - 1, H - 1)[0], 0);
  await waitForStep(page, MODEL, 1);
  await assertHead(page, 1, L - 1, H - 1, expected);
  assert.equal(await page.getByTestId('head-mask-0').getAttribute('aria-pressed'), 'true');

  // that head pinned on token 2 at step 2: one-hot there, its own softmax again at step 3
  await page.locator('body').press('ArrowRight');
  await waitForStep(page, MODEL, 2);
  await page.getByTestId('head-pin-2').click();
  const pinned = [...masked, { kind: 'headPin', step: 2, layer: L - 1, head: H - 1, token: 2 }];
  await page.waitForFunction(() => /hp/.test(decodeURIComponent(location.hash)));
  assert.deepEqual(await linkedItems(page), pinned);
  expected = decodeWith(pinned);
  await waitForStep(page, MODEL, 2);
  await assertHead(page, 2, L - 1, H - 1, expected);
  assert.deepEqual(
    slice(expected[2].crossWeights, L - 1, H - 1),
    reference.sourceTokens.map((_, j) => (j === 2 ? 1 : 0)),
  );
  await pageScreenshot(page, 'transformer-head-whatifs-1440');
  // the later steps follow: every one is the engine's decode with these what-ifs
  for (let i = 3; i < expected.length; i++) {
    await page.locator('body').press('ArrowRight');
    await waitForStep(page, MODEL, i);
    await assertHead(page, i, L - 1, H - 1, expected);
  }
  assert.deepEqual(
    await shownOutput(page),
    expected.map((s) => show(s.token)),
  );
  // the list of what-ifs says what each is, and clearing them gives the model's own decode back
  assert.match(await page.getByTestId('whatif-items').innerText(), /head 1\.2 off from step 2/);
  await page.getByTestId('whatif-clear').click();
  await waitForStep(page, MODEL, expected.length - 1);
  await assertHead(page, expected.length - 1, L - 1, H - 1);
});

for (const [size, options, lang] of [
  ['1440', {}, 'zh'],
  ['375', PHONE, 'en'],
  ['375', PHONE, 'zh'],
])
  test(`at ${size} px in ${lang === 'zh' ? 'Chinese' : 'English'}: the panels are the trace’s and fit the screen`, async () => {
    const p = await fx.page(options);
    const step = 4;
    await p.goto(fx.link(link({ step: String(step), head: '0.1', lang })));
    await waitForStep(p, MODEL, step, FIRST_STEP);
    await assertHead(p, step, 0, 1);
    await assertCausal(p, step, 0, 1);
    await assertAllHeads(p, step);
    const title = await p.locator('#causal-title').textContent();
    assert.equal(/[\u4e00-\u9fff]/.test(title ?? ''), lang === 'zh', title ?? '');
    // nothing makes the page itself scroll sideways
    const overflow = await p.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow} px wider than the screen`);
    if (size === '375') await shot(p.getByTestId('transformer-step'), `transformer-375-${lang}`);
    await pageScreenshot(p, `transformer-${size}-${lang}-page`);
  });

test(`the Train view races the Transformer decoder beside additive attention (${RUNS.datesTransformerRace.steps} steps, as the golden runs), and its model opens in Decode’s Transformer panels`, async () => {
  const run = RUNS.datesTransformerRace;
  const want = golden.datesTransformerRace;
  await openTrain(page, fx.url, linkOf(run));
  assert.match(await page.getByTestId('train-transformer-hint').textContent(), /2 layers × 4 heads/);
  await trainUntilDone(page, run.scores);
  await pageScreenshot(page, 'train-transformer-1440');
  const sent = await assertRaceAsGolden(page, run, want);
  assert.notDeepEqual(sent[0].reports.at(-1).loss, sent[1].reports.at(-1).loss, 'two different models');
  assert.match(
    await page.getByTestId('run-transformer').locator('h3').textContent(),
    /^Transformer decoder$/,
  );

  // Decode: the trained Transformer through the trainer module, its panels and alignment the golden's
  await page.getByTestId('run-transformer-final-decode').click();
  await page.waitForFunction(
    () =>
      /^(trained-)?dates-transformer-luong-/.test(
        document.querySelector('[data-testid=decode]')?.getAttribute('data-model') ?? '',
      ),
    undefined,
    { timeout: FIRST_STEP },
  );
  const name = (await page.getByTestId('decode').getAttribute('data-model')) ?? '';
  await waitForStep(page, name, 0, FIRST_STEP);
  await page.getByTestId('transformer-step').waitFor();
  assert.match(page.url(), /model=transformer/);
  // trained beside the Train view's default encoder, the BiGRU: the model says so
  assert.match(
    await page.getByTestId('model-info').textContent(),
    /bidirectional GRU encoder and a Transformer decoder \(2 layers × 4 heads/,
  );
  const { weights, outputText } = want.decode;
  // the whole decode's rows: at step 1 the heatmap draws only the steps so far unless revealed
  await page.getByTestId('reveal').check();
  assert.deepEqual(await heatmapValues(page, 'heatmap', weights.length, weights[0].length), weights);
  assert.equal((await shownOutput(page)).join('').replace(/<\/s>$/, ''), outputText.replaceAll(' ', '␣'));
  await pageScreenshot(page, 'train-transformer-decode-1440');
});
