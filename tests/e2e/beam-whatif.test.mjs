// The Beam view with the decode's what-ifs: the beams, their scores, the selected beam's weights and
// the marked tree nodes equal the engine's beam search run in node with the same what-ifs; the
// note names them (en and zh); the switch shows the model's own beams, equal to the engine's
// without them. Zero console errors; screenshots at 1440 and 375 px in both languages.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { loadEngine } from '../js/load-engine.mjs';
import { launchBrowser, pageScreenshot, urlSettled } from './browser.mjs';
import { serveBuild } from './static-server.mjs';

const shots = new URL('../../test-output/', import.meta.url).pathname;
const modelFile = (name) =>
  new Uint8Array(readFileSync(new URL(`../../web/models/${name}.safetensors`, import.meta.url)));

const MODEL = 'zh-additive-bahdanau';
const INPUT = 'tom chase jerry';
// mask “tom” from step 2 on, pin step 3 on “jerry”, τ = 0.5 from step 1
const WI = 'm0@1,p2@2,t0.5@0';
let server, browser, page, ap, engineModel;
const consoleErrors = [];
const hash = (fields) =>
  `#${new URLSearchParams({ view: 'beam', task: 'zh', model: 'additive-bahdanau', input: INPUT, k: '3', ...fields })}`;

/** The engine's beam search of INPUT in node, with the link's what-ifs as the page sends them. */
async function reference(wi, k = 3) {
  const { decodeOptions, readWhatIfUrl } = await import('../../web/shared/text/whatif-link.js');
  const session = engineModel.decode(INPUT, { topK: 5 });
  try {
    return session.beam(k, wi ? decodeOptions(readWhatIfUrl(`#wi=${wi}`)) : undefined);
  } finally {
    session.delete();
  }
}

async function open(hashPart) {
  await page.goto('about:blank');
  await page.goto(server.url + hashPart);
  await page.waitForSelector('[data-testid=beam-heatmap] svg', { timeout: 30_000 });
}

/** The beams, scores, selected beam's weights and marked nodes on the page equal `expected`. */
async function assertShows(expected) {
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid=beams] li').length === n,
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

before(async () => {
  [server, browser, ap] = await Promise.all([serveBuild(), launchBrowser(), loadEngine()]);
  engineModel = ap.Model.load(modelFile(MODEL));
  page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  mkdirSync(shots, { recursive: true });
});
after(async () => {
  engineModel?.delete();
  await browser?.close();
  await server?.close();
});

describe('the Beam view with what-ifs', () => {
  test('shows the engine’s beams with the what-ifs, says so, and without them on request', async () => {
    await open(hash({ lang: 'en', wi: WI }));
    const withThem = await reference(WI);
    const without = await reference('');
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
    await pageScreenshot(page, `${shots}beam-whatif-1440-en.png`);
    await page.setViewportSize({ width: 375, height: 800 });
    await pageScreenshot(page, `${shots}beam-whatif-375-en.png`);
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
    await open(hash({ lang: 'zh', wi: 'p1@0' }));
    const expected = await reference('p1@0');
    await page.waitForSelector('[data-testid=beam-whatif-note][data-applied=yes]');
    await assertShows(expected);
    for (const n of expected.nodes.filter((n) => n.depth === 0))
      assert.deepEqual(Array.from(n.weights), [0, 1, 0]);
    assert.match(
      await page.textContent('[data-testid=beam-whatif-note]'),
      /^使用你的假如：.*“chase”.*。引擎给每条束/,
    );
    await pageScreenshot(page, `${shots}beam-whatif-1440-zh.png`);
    await page.setViewportSize({ width: 375, height: 800 });
    await pageScreenshot(page, `${shots}beam-whatif-375-zh.png`);
    await page.setViewportSize({ width: 1440, height: 1000 });
  });

  test('without what-ifs the view has no note and shows the model’s own beams', async () => {
    await open(hash({ lang: 'en' }));
    await assertShows(await reference(''));
    assert.equal(await page.locator('[data-testid=beam-whatifs]').count(), 0);
    assert.deepEqual(consoleErrors, []);
  });
});
