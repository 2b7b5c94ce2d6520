// The Beam view in headless Chromium against the engine's beam search run here in node: the beams,
// their scores and a selected beam's weights; with the decode's what-ifs (the note names them, en
// and zh) and without them on request; what beam search is; the exports; a phone.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';

import { formatNumber } from '../../web/shared/lib/format.js';
import { pageScreenshot, urlSettled } from './browser.mjs';
import { clippedInFile, download, hashOf, heatmapValues, PNG_SIGNATURE } from './decode-view.mjs';
import { decodeReference as reference, model } from './engine.mjs';
import { PHONE, useBrowser } from './fixture.mjs';
import { linesOf } from './layout.mjs';

const fx = useBrowser();
/** Each test's page: 1440 × 1000, in a fresh context. */
let page;
beforeEach(async () => {
  page = await fx.page();
});

const DATES = 'dates-additive-bahdanau';
const DATE = '29 november 2026';
const beamHash = (fields) => hashOf({ view: 'beam', ...fields });

test('the beams and their scores are the API’s; a selected beam shows its attention', async () => {
  const expected = reference(DATES, DATE, [], 3);
  await page.goto(fx.link(beamHash({ task: 'dates', model: 'additive-bahdanau', input: DATE, k: '3' })));
  await page.waitForSelector('[data-testid=beam-0]', { timeout: 20_000 });
  const scores = await page.$$eval('[data-testid^="beam-"] .score', (els) =>
    els.map((e) => Number(e.dataset.value)),
  );
  assert.deepEqual(scores, expected.beam.scores);
  // beside each, the total the tree shows and the tokens it is divided by: the engine's nodes
  const totals = await page.$$eval('[data-testid$="-total"]', (els) =>
    els.map((e) => [Number(e.dataset.value), Number(e.dataset.tokens), e.textContent]),
  );
  assert.deepEqual(
    totals,
    expected.beam.beams.map((path) => {
      const last = expected.beam.nodes.find((n) => n.id === path[path.length - 1]);
      return [last.totalLogProb, path.length, `= ${formatNumber(last.totalLogProb)} / ${path.length}`];
    }),
  );
  const b = expected.beam.beams.length > 1 ? 1 : 0;
  await page.click(`[data-testid=beam-${b}]`);
  const path = expected.beam.beams[b].map((id) => expected.beam.nodes.find((n) => n.id === id));
  await page.waitForFunction(
    (t) => document.querySelector('h2')?.textContent !== null && document.body.textContent.includes(t),
    `Attention of beam #${b + 1}`,
  );
  assert.deepEqual(
    await heatmapValues(page, 'beam-heatmap', path.length, expected.sourceTokens.length),
    path.map((n) => Array.from(n.weights)),
  );
  await pageScreenshot(page, 'beam-1440');
});

test('the view says what beam search is, labels its numbers and explains a cut beam', async () => {
  await page.goto(
    fx.link(
      beamHash({
        task: 'zh',
        model: 'additive-bahdanau',
        input: 'tom chased jerry in the kitchen yesterday',
        k: '3',
      }),
    ),
  );
  await page.waitForSelector('[data-testid=beam-0]', { timeout: 30_000 });
  assert.match(
    await page.textContent('[data-testid=beamview-about]'),
    /keeps the k most probable partial outputs.*per token/s,
  );
  assert.match(await page.textContent('[data-testid=beamview-columns]'), /log p per token/);
  const cut = await page.$$eval('[data-testid^=beam-] .hint', (els) =>
    els.some((e) => e.textContent.trim() === 'cut'),
  );
  if (cut)
    assert.match(await page.textContent('[data-testid=beamview-cut-note]'), /length limit.*unfinished/s);
  assert.match(await page.locator('main').textContent(), /total log probability so far \(not per token\)/);
});

test('Beam exports its nodes and beams as JSON and CSV and the tree with the beam’s heatmap as SVG and PNG', async () => {
  const input = 'tom chased jerry in the kitchen yesterday';
  await page.goto(fx.link(beamHash({ task: 'zh', model: 'additive-bahdanau', input, k: '3' })));
  await page.waitForSelector('[data-testid=beam-heatmap] svg', { timeout: 30_000 });
  const s = model('zh-additive-bahdanau').decode(input);
  const expected = s.beam(3);
  const n = s.sourceTokens().length;
  s.delete();
  const json = await download(page, 'beam-export-json');
  assert.equal(json.name, 'zh-additive-bahdanau-beam3-tom_chased_jerry_in_the_kitchen.json');
  const data = JSON.parse(json.bytes.toString());
  assert.equal(data.width, 3);
  assert.deepEqual(data.beams, expected.beams);
  assert.deepEqual(data.scores, expected.scores);
  assert.equal(data.nodes.length, expected.nodes.length);
  assert.deepEqual(data.nodes[4].weights, Array.from(expected.nodes[4].weights));

  const csv = (await download(page, 'beam-export-csv')).bytes.toString().trimEnd().split('\n');
  assert.equal(
    csv[0],
    'node,parent,depth,token,log_prob,total_log_prob,finished,final_rank,final_score,source_index,source_token,weight',
  );
  assert.equal(csv.length, 1 + expected.nodes.length * n);
  const last = expected.beams[0].at(-1);
  const row = csv.find((l) => l.startsWith(`${last},`) && l.split(',')[9] === '2').split(',');
  assert.deepEqual([row[7], Number(row[8]), row[10]], ['1', expected.scores[0], 'jerry']);
  assert.equal(Number(row[11]), expected.nodes[last].weights[2]);

  const svg = (await download(page, 'beam-export-svg')).bytes.toString();
  assert.match(svg, /data-legend/);
  assert.match(svg, /The tree \(blue: beam #1/);
  assert.match(svg, /Attention of beam #1/);
  // the tree's nodes keep their colours in the file (attributes, not the page's CSS)
  assert.match(svg, /<rect[^>]*fill="#eef4fc"[^>]*stroke="#2563b8"/);
  assert.equal((svg.match(/class="cell/g) ?? []).length, expected.beams[0].length * n);
  assert.deepEqual(await clippedInFile(await fx.page({ viewport: { width: 1400, height: 900 } }), svg), []);
  const png = await download(page, 'beam-export-png');
  assert.deepEqual([...png.bytes.subarray(0, 8)], PNG_SIGNATURE);
});

describe('with the decode’s what-ifs', () => {
  const MODEL = 'zh-additive-bahdanau';
  const INPUT = 'tom chase jerry';
  // mask “tom” from step 2 on, pin step 3 on “jerry”, τ = 0.5 from step 1
  const WI = 'm0@1,p2@2,t0.5@0';
  const whatIfHash = (fields) =>
    beamHash({ task: 'zh', model: 'additive-bahdanau', input: INPUT, k: '3', ...fields });

  /** The engine's beam search of INPUT in node, with the link's what-ifs as the page sends them. */
  async function whatIfReference(wi, k = 3) {
    const { decodeOptions, readWhatIfUrl } = await import('../../web/shared/text/whatif-link.js');
    const session = model(MODEL).decode(INPUT, { topK: 5 });
    try {
      return session.beam(k, wi ? decodeOptions(readWhatIfUrl(`#wi=${wi}`)) : undefined);
    } finally {
      session.delete();
    }
  }

  async function open(hash) {
    await page.goto(fx.link(hash));
    await page.waitForSelector('[data-testid=beam-heatmap] svg', { timeout: 30_000 });
  }

  /** The beams, scores, selected beam's weights and marked nodes on the page equal `expected`. */
  async function assertShows(expected) {
    // the search done: while the next runs, the list still holds the last one's beams
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll('[data-testid=beams] li').length === n &&
        document.querySelector('[data-testid=beams]')?.getAttribute('aria-busy') === 'false',
      expected.beams.length,
    );
    for (let b = 0; b < expected.beams.length; b++) {
      const score = await page.getAttribute(`[data-testid=beam-${b}] .score`, 'data-value');
      assert.equal(Number(score), expected.scores[b], `beam ${b}: score`);
      const text = await page.textContent(`[data-testid=beam-${b}] .text`);
      const tokens = expected.beams[b].map((id) => expected.nodes[id].token).filter((t) => t !== '</s>');
      assert.equal(text, tokens.join(' '), `beam ${b}: output`);
    }
    const best = expected.beams[0].map((id) => expected.nodes[id]);
    for (let i = 0; i < best.length; i++)
      for (let j = 0; j < best[i].weights.length; j++) {
        const shown = await page.getAttribute(`[data-testid=beam-heatmap-${i}-${j}]`, 'data-value');
        assert.equal(Number(shown), best[i].weights[j], `beam 0, step ${i}, weight ${j}`);
      }
    assert.equal(
      await page.locator('[data-testid=beam-tree] [data-intervened=yes]').count(),
      expected.nodes.filter((n) => n.intervened).length,
      'the nodes a what-if changed',
    );
  }

  test('shows the engine’s beams with the what-ifs, says so, and without them on request', async () => {
    await open(whatIfHash({ lang: 'en', wi: WI }));
    const withThem = await whatIfReference(WI);
    const without = await whatIfReference('');
    // The what-ifs change the search: a page that ignored them would show `without`.
    assert.notDeepEqual(
      withThem.nodes.map((n) => Array.from(n.weights)),
      without.nodes.map((n) => Array.from(n.weights)),
    );
    assert.ok(withThem.nodes.some((n) => n.intervened));
    await page.waitForSelector('[data-testid=beam-whatif-note][data-applied=yes]');
    await assertShows(withThem);
    const best = withThem.beams[0].map((id) => withThem.nodes[id]);
    assert.equal(best[1].weights[0], 0, 'tom masked at step 2');
    assert.deepEqual(Array.from(best[2].weights), [0, 0, 1], 'step 3 pinned on jerry');
    assert.equal(
      await page.textContent('[data-testid=beam-whatif-note]'),
      'With your 3 what-ifs: mask “tom” from step 2 · pin step 3 on “jerry” · τ = 0.5 from step 1. ' +
        'The engine applies them to every beam as to greedy decoding: at step i, the masks and τ in force then and step i’s pin.',
    );
    await pageScreenshot(page, 'beam-whatif-1440-en');
    await page.setViewportSize({ width: 375, height: 800 });
    await pageScreenshot(page, 'beam-whatif-375-en');
    await page.setViewportSize({ width: 1440, height: 1000 });

    await page.uncheck('[data-testid=beam-use-whatifs]');
    await page.waitForSelector('[data-testid=beam-whatif-note][data-applied=no]');
    await assertShows(without);
    assert.match(
      await page.textContent('[data-testid=beam-whatif-note]'),
      /^Without your 3 what-ifs \(mask “tom” from step 2 · .*\): the model’s own beams\.$/,
    );
    // the switch is in the link: a reload (or a shared link) shows the model's own beams again
    await urlSettled(page);
    assert.equal(new URL(page.url()).hash.includes('bwi=0'), true, `bwi=0 in ${page.url()}`);
    await page.reload();
    await page.waitForSelector('[data-testid=beam-whatif-note][data-applied=no]', { timeout: 30_000 });
    assert.equal(await page.isChecked('[data-testid=beam-use-whatifs]'), false);
    await assertShows(without);
    await page.check('[data-testid=beam-use-whatifs]');
    await page.waitForSelector('[data-testid=beam-whatif-note][data-applied=yes]');
    await assertShows(withThem);
    await urlSettled(page);
    assert.equal(new URL(page.url()).hash.includes('bwi'), false, 'on (the default) is left out of the link');
  });

  test('in Chinese, one what-if, its beams the engine’s', async () => {
    await open(whatIfHash({ lang: 'zh', wi: 'p1@0' }));
    const expected = await whatIfReference('p1@0');
    await page.waitForSelector('[data-testid=beam-whatif-note][data-applied=yes]');
    await assertShows(expected);
    for (const n of expected.nodes.filter((n) => n.depth === 0))
      assert.deepEqual(Array.from(n.weights), [0, 1, 0]);
    assert.match(
      await page.textContent('[data-testid=beam-whatif-note]'),
      /^使用你的假如：.*“chase”.*。引擎给每条束/,
    );
    await pageScreenshot(page, 'beam-whatif-1440-zh');
    await page.setViewportSize({ width: 375, height: 800 });
    await pageScreenshot(page, 'beam-whatif-375-zh');
  });

  test('without what-ifs the view has no note and shows the model’s own beams', async () => {
    await open(whatIfHash({ lang: 'en' }));
    await assertShows(await whatIfReference(''));
    assert.equal(await page.locator('[data-testid=beam-whatifs]').count(), 0);
  });
});

test('Beam search’s outputs on a phone: a token never split across lines', async () => {
  for (const lang of ['en', 'zh']) {
    const phone = await fx.open({ view: 'beam', task: 'zh', input: 'tom chase jerry', lang }, PHONE);
    await phone.waitForSelector('[data-testid=beam-2] .text .token', { timeout: 30_000 });
    const lines = await linesOf(phone, '[data-testid=beams] .text .token');
    const tokens = await phone.$$eval('[data-testid=beams] .text .token', (els) =>
      els.map((e) => e.textContent),
    );
    // "汤姆 追逐 杰瑞" broke inside 杰瑞
    assert.ok(tokens.includes('杰瑞'), tokens.join());
    assert.deepEqual(
      lines,
      tokens.map(() => 1),
      tokens.join(),
    );
    // the whole of "#1 汤姆 追逐 杰瑞" fits its line
    assert.deepEqual(await linesOf(phone, '[data-testid=beam-0] .text'), [1]);
    assert.equal(await phone.locator('[data-testid=beam-0] .text').textContent(), '汤姆 追逐 杰瑞');
    // the list's per-token score beside the total it divides, in either language (the tree shows
    // totals: the same beam once read −0.500 as both)
    const rows = await phone.$$eval('[data-testid^="beam-"] .score', (els) =>
      els.map((e) => {
        const total = e.closest('[data-testid^="beam-"]')?.querySelector('[data-testid$="-total"]');
        return {
          p: Number(e.dataset.value),
          total: Number(total?.dataset.value),
          n: Number(total?.dataset.tokens),
        };
      }),
    );
    assert.ok(rows.length >= 2, JSON.stringify(rows));
    for (const r of rows) assert.ok(Math.abs(r.p - r.total / r.n) < 1e-6, JSON.stringify(r));
    assert.match(
      (await phone.textContent('[data-testid=beamview-columns]')) ?? '',
      lang === 'en' ? /log p per token \(total \/ tokens\)/ : /每词元 log p（总计 \/ 词元数）/,
    );
  }
});
