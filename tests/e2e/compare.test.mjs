// The Compare view in headless Chromium against the engine run here in node: every shipped model
// of the task gets a heatmap whose cells are its trace and the largest difference the engine finds;
// the ranking by held-out exact match; the what-ifs' card beside the model's own; the fixed-vector
// baseline without a heatmap; the cosine bounds; the exports; a former link; a phone.
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';

import { formatNumber } from '../../web/shared/lib/format.js';
import { pageScreenshot, shot, urlSettled } from './browser.mjs';
import { clippedInFile, download, hashOf, heatmapValues, PNG_SIGNATURE } from './decode-view.mjs';
import { ap, decodeReference as reference, model, modelFile, shipped } from './engine.mjs';
import { PHONE, useBrowser } from './fixture.mjs';
import { loadTrainer } from '../js/trainer-fixture.mjs';
import { lineCount, linesOf, pastTheEdge } from './layout.mjs';

const fx = useBrowser();
/** Each test's page: 1440 × 1000, in a fresh context. */
let page;
beforeEach(async () => {
  page = await fx.page();
});

const DATES = 'dates-additive-bahdanau';
const DATE = '29 november 2026';
const SCORES = ['dot', 'scaled_dot', 'general', 'additive', 'cosine', 'scaled_cosine', 'location'];
const compareHash = (fields) => hashOf({ view: 'compare', ...fields });

test('every shipped model of the task gets a heatmap whose cells are its trace', async () => {
  await page.goto(
    fx.link(compareHash({ task: 'dates', model: 'additive-bahdanau', input: DATE, reveal: '1' })),
  );
  const names = [...SCORES.map((s) => `dates-${s}-bahdanau`), 'dates-additive-luong'].filter((name) =>
    shipped.includes(name),
  );
  for (const name of names) {
    const expected = reference(name, DATE);
    await page.waitForSelector(`[data-testid="cmp-${name}-0-0"]`, { timeout: 20_000 });
    assert.deepEqual(
      await heatmapValues(page, `cmp-${name}`, expected.steps.length, expected.sourceTokens.length),
      expected.steps.map((s) => Array.from(s.weights)),
      `${name}: heatmap`,
    );
    assert.equal(await page.textContent(`[data-testid="output-${name}"]`), expected.outputText);
    const accuracy = model(name).info().heldoutExactMatch;
    if (accuracy != null)
      assert.equal(
        Number(await page.getAttribute(`[data-testid="accuracy-${name}"]`, 'data-value')),
        accuracy,
      );
  }
  // where each model's weights differ most from the chosen model's: the engine's answer, as the API gives it
  const weights = (name) => reference(name, DATE).steps.map((s) => s.weights);
  for (const name of names.filter((n) => n !== DATES)) {
    const expected = ap.weightDifference(weights(DATES), weights(name));
    const diff = page.locator(`[data-testid="diff-${name}"]`);
    await diff.waitFor({ timeout: 20_000 });
    assert.deepEqual(
      await diff.evaluate((el) => [el.dataset.value, el.dataset.row, el.dataset.col].map(Number)),
      [expected.value, expected.row, expected.col],
      `${name}: largest difference`,
    );
    assert.match(await diff.textContent(), new RegExp(`\\(\\|Δ\\| = ${formatNumber(expected.value)}\\)`));
  }
  const bahdanau = SCORES.filter((s) => shipped.includes(`dates-${s}-bahdanau`)).length;
  assert.equal(
    await page.locator('[data-testid^="cmp-dates-"][data-testid$="-bahdanau"]:is(figure)').count(),
    // the chosen model appears in every group (six scores; Bahdanau vs Luong; BiGRU vs Transformer
    // encoder; Bahdanau vs the Transformer decoder)
    bahdanau +
      1 +
      (shipped.includes('dates-additive-bahdanau-transformer') ? 1 : 0) +
      (shipped.includes('dates-transformer') ? 1 : 0),
  );
  await pageScreenshot(page, 'compare-1440');
});

test('the Transformer-encoder model sits beside the BiGRU model, its heatmap its trace', async () => {
  const MODEL = 'zh-additive-bahdanau-transformer';
  const INPUT = 'tom said that he was hungry';
  const session = model(MODEL).decode(INPUT);
  const tokens = session.sourceTokens();
  const cross = session.run().map((s) => s.weights);
  session.delete();
  await page.goto(fx.link(compareHash({ task: 'zh', model: 'additive-bahdanau', input: INPUT })));
  await page.waitForSelector(`[data-testid="cmp-${MODEL}-0-0"]`, { timeout: 30_000 });
  const cells = await page.$$eval(`[data-testid^="cmp-${MODEL}-"]`, (els) =>
    els
      .filter((el) => /-\d+-\d+$/.test(el.dataset.testid))
      .map((el) => [el.dataset.testid, Number(el.dataset.value)]),
  );
  assert.equal(cells.length, cross.length * tokens.length);
  for (const [id, value] of cells) {
    const [i, j] = id.split('-').slice(-2).map(Number);
    assert.equal(value, cross[i][j]);
  }
  await shot(page, 'compare-encoders-1440', { fullPage: true });
  // its title opens it in Self-attention
  await page.click(`[data-testid="compare-${MODEL}"] h3 button`);
  await page.waitForSelector('[data-testid=sa-detail]', { timeout: 30_000 });
});

test('Compare ranks the models by held-out exact match, marks the best, defines the measure and says why cosine is weak', async () => {
  await page.goto(fx.link(compareHash({ task: 'zh', model: 'additive-bahdanau', input: 'tom chase jerry' })));
  // a model is ranked, and its card gives its figure, once its information is read: wait until
  // every card has it, then read the cards and the ranking together
  const handle = await page.waitForFunction(
    () => {
      const cards = [...document.querySelectorAll('section.model[data-testid^=compare-]')];
      if (cards.length < 6 || cards.some((card) => !card.querySelector('[data-testid^=accuracy-]')))
        return null;
      return {
        shown: [...document.querySelectorAll('[data-testid^=accuracy-]')].map((e) => ({
          name: e.dataset.testid.slice('accuracy-'.length),
          value: Number(e.dataset.value),
        })),
        ranked: [...document.querySelectorAll('[data-testid=compare-ranking] li')].map((e) => e.dataset.name),
      };
    },
    null,
    { timeout: 30_000 },
  );
  const { shown, ranked } = await handle.jsonValue();
  const expected = [...new Map(shown.map((m) => [m.name, m.value])).entries()].sort((a, b) => b[1] - a[1]);
  assert.deepEqual(
    ranked.map((name) => expected.find(([n]) => n === name)?.[1]),
    expected.map(([, v]) => v),
    'best first',
  );
  const best = expected[0][1];
  const marked = await page.$$eval('[data-testid=compare-ranking] li.best', (els) =>
    els.map((e) => e.dataset.name),
  );
  assert.deepEqual(
    marked.sort(),
    expected
      .filter(([, v]) => v === best)
      .map(([n]) => n)
      .sort(),
    'the best marked',
  );
  assert.match(
    await page.textContent('[data-testid=heldout-definition]'),
    /never trained on.*exactly right/s,
  );
  assert.match(await page.textContent('[data-testid=cosine-note]'), /\[−1, 1\].*e² ≈ 7\.4/s);
});

test('with the baseline chosen it shows it once and no Bahdanau vs Luong pair of it', async () => {
  await page.goto(
    fx.link(compareHash({ task: 'zh', lang: 'en', model: 'none-bahdanau', input: 'tom chase jerry' })),
  );
  await page.locator('[data-testid=output-zh-dot-bahdanau]').waitFor();
  // The "Bahdanau vs Luong (dot)" group held the baseline again and a "Not shipped" zh-none-luong.
  assert.equal(await page.locator('[data-testid=compare-zh-none-bahdanau]').count(), 1);
  assert.equal(await page.locator('[data-testid=compare-zh-none-luong]').count(), 0);
  const headings = await page.locator('h2').allInnerTexts();
  assert.ok(!headings.some((h) => h.includes('Luong')), headings.join(' | '));
  // The lead named the first score function ("through dot attention in both styles").
  const lead = await page.locator('p.lead').innerText();
  assert.ok(!lead.includes('dot'), lead);
  assert.match(lead, /fixed-vector baseline \(zh-none-bahdanau\)/);
  // Its card said "the others are measured against it", with no difference marked anywhere.
  const note = await page
    .locator('[data-testid=compare-zh-none-bahdanau] [data-testid=chosen-note]')
    .innerText();
  assert.match(note, /no differences to mark: choose a score function/);
  assert.equal(await page.locator('[data-testid^=diff-]').count(), 0);
});

test('its lead names only the groups shown (reverse has no Transformer encoder)', async () => {
  await page.goto(
    fx.link(compareHash({ task: 'reverse', lang: 'en', model: 'dot-bahdanau', input: 'abcdefj' })),
  );
  await page.locator('[data-testid=output-reverse-dot-bahdanau]').first().waitFor();
  const lead = await page.locator('p.lead').innerText();
  assert.equal(
    lead,
    "“abcdefj” through every Bahdanau model of this task, through dot attention in both styles. One colour scale (weight 0 → 1) for all; the red box marks where a model's weights differ most from the chosen model (reverse-dot-bahdanau).",
  );
  assert.equal(await page.locator('[data-testid=compare-reverse-additive-bahdanau-transformer]').count(), 0);
  const zh = await fx.open(
    compareHash({ task: 'zh', lang: 'en', model: 'dot-bahdanau', input: 'tom chase jerry' }),
  );
  await zh.locator('[data-testid=output-zh-dot-bahdanau]').first().waitFor();
  assert.match(
    await zh.locator('p.lead').innerText(),
    /both styles, and through a BiGRU and a Transformer encoder\. One/,
  );
});

test('the chosen model with and without the what-ifs, and the baseline without a heatmap', async () => {
  const MODEL = 'zh-additive-bahdanau';
  const BASELINE = 'zh-none-bahdanau';
  const INPUT = 'tom chased jerry in the kitchen';
  const decodeWith = (items) => {
    const session = model(MODEL).decode(INPUT, { topK: 5 });
    const steps = [];
    while (!session.done()) {
      for (const w of items.filter((w) => w.step === session.length())) session.whatIf({ [w.kind]: w.token });
      steps.push(session.step());
    }
    session.delete();
    return steps;
  };
  const items = [{ kind: 'mask', step: 1, token: 2 }];
  const withIt = decodeWith(items);
  const without = decodeWith([]);
  const baselineSession = model(BASELINE).decode(INPUT);
  baselineSession.run();
  const baselineText = baselineSession.outputText();
  baselineSession.delete();
  await page.goto(
    fx.link(
      compareHash({
        task: 'zh',
        lang: 'en',
        reveal: '1',
        model: 'additive-bahdanau',
        input: INPUT,
        wi: 'm2@1',
      }),
    ),
  );
  const whatIfName = `${MODEL}~whatif`;
  await page.locator(`[data-testid="output-${whatIfName}"]`).waitFor({ timeout: 20_000 });
  const text = (steps) =>
    steps
      .filter((s) => s.token !== '</s>')
      .map((s) => s.token)
      .join(' ');
  assert.equal(await page.textContent(`[data-testid="output-${whatIfName}"]`), text(withIt));
  assert.match(await page.textContent(`[data-testid="whatif-tag-${whatIfName}"]`), /with what-ifs/);
  assert.match(
    await page.textContent(`[data-testid="whatif-list-${whatIfName}"]`),
    /mask “jerry” from step 2/,
  );
  // The heatmap cells are the engine's weights with the what-if: 0 on the masked token from step 2.
  for (const i of [0, 1, 2])
    for (const j of [1, 2]) {
      const cell = Number(
        await page.getAttribute(`[data-testid="cmp-${whatIfName}-${i}-${j}"]`, 'data-value'),
      );
      assert.equal(cell, withIt[i].weights[j], `with: step ${i}, token ${j}`);
      const plain = Number(await page.getAttribute(`[data-testid="cmp-${MODEL}-${i}-${j}"]`, 'data-value'));
      assert.equal(plain, without[i].weights[j], `without: step ${i}, token ${j}`);
    }
  // Where the what-if moved the weights most: the engine's weightDifference of the two decodes.
  const diff = ap.weightDifference(
    without.map((s) => s.weights),
    withIt.map((s) => s.weights),
  );
  await page.locator(`[data-testid="diff-${whatIfName}"]`).waitFor();
  assert.equal(
    Number(await page.getAttribute(`[data-testid="diff-${whatIfName}"]`, 'data-value')),
    diff.value,
  );

  // The baseline: its output, the note in place of a heatmap.
  await page.locator(`[data-testid="output-${BASELINE}"]`).waitFor();
  assert.equal(await page.textContent(`[data-testid="output-${BASELINE}"]`), baselineText);
  assert.match(
    await page.textContent(`[data-testid="cmp-${BASELINE}"]`),
    /no attention: one fixed context for every step/,
  );
  assert.equal(await page.locator(`[data-testid="cmp-${BASELINE}-0-0"]`).count(), 0);

  const json = JSON.parse((await download(page, 'compare-export-json')).bytes.toString());
  const baseline = json.models.find((m) => m.name === BASELINE);
  assert.equal(baseline.outputText, baselineText);
  assert.ok(baseline.steps.every((s) => s.weights === null && s.scores === null));
  const withEntry = json.models.find((m) => m.name === whatIfName);
  assert.deepEqual(withEntry.whatIfs, items);
  assert.deepEqual(withEntry.steps[1].weights, Array.from(withIt[1].weights));
  const csv = (await download(page, 'compare-export-csv')).bytes.toString().trimEnd().split('\n');
  const baselineRows = csv.filter((line) => line.startsWith(`${BASELINE},`));
  assert.ok(baselineRows.length > 0);
  for (const row of baselineRows) assert.match(row, /,,$/, 'no score, no weight');
  const svg = (await download(page, 'compare-export-svg')).bytes.toString();
  assert.match(svg, /no attention: one fixed context for every step/);
  assert.match(svg, new RegExp(`${whatIfName}`));
  await pageScreenshot(page, 'compare-whatif-1440');
  await page.setViewportSize({ width: 375, height: 800 });
  await pageScreenshot(page, 'compare-whatif-375');
});

test('the card with what-ifs does not show the held-out score measured without them', async () => {
  await page.goto(
    fx.link(
      compareHash({
        task: 'zh',
        lang: 'en',
        model: 'additive-bahdanau',
        input: 'tom chased jerry in the kitchen',
        wi: 'm2@1',
      }),
    ),
  );
  const withName = 'zh-additive-bahdanau~whatif';
  await page.locator(`[data-testid="output-${withName}"]`).waitFor();
  // It read "held-out 99.5%" beside the output the what-ifs changed.
  assert.equal(await page.locator(`[data-testid="accuracy-${withName}"]`).count(), 0);
  // (its own card in each group it is in: the six scores, the styles, the encoders, the decoders)
  assert.equal(await page.locator('[data-testid="accuracy-zh-additive-bahdanau"]').count(), 5);
});

test('the scaled cosine card gives the model’s learned g and its bound in one line', async () => {
  const NAME = 'dates-scaled_cosine-bahdanau';
  const INPUT = 'may 3';
  const session = model(NAME).decode(INPUT);
  const g = session.step().scale;
  const n = session.sourceTokens().length;
  session.delete();
  const [bound, plain] = [ap.cosineWeightBound(n, g), ap.cosineWeightBound(n)];
  await page.goto(fx.link(compareHash({ task: 'dates', model: 'scaled_cosine-bahdanau', input: INPUT })));
  const card = page.locator(`[data-testid="cosine-bound-${NAME}"]`).first();
  await card.waitFor({ timeout: 30_000 });
  assert.equal(Number(await card.getAttribute('data-scale')), g);
  assert.equal(Number(await card.getAttribute('data-value')), bound);
  assert.equal(Number(await card.getAttribute('data-plain')), plain);
  assert.equal(
    await page.locator(`[data-testid="cosine-bound-${NAME}-scale"]`).first().textContent(),
    formatNumber(g),
  );
  const line = (await card.textContent())?.replace(/\s+/g, ' ').trim() ?? '';
  assert.ok(
    line.startsWith(
      `Cosine bound lifted: the learned g = ${formatNumber(g)} lets one of n = 5 tokens take up to 1.000 (plain cosine: ${formatNumber(plain)})`,
    ),
    line,
  );
  assert.match(
    (await page.textContent('[data-testid=cosine-note]')) ?? '',
    /learned g, which lifts that cap/,
  );
  // the plain cosine card beside it keeps g = 1
  assert.equal(
    await page
      .locator('[data-testid="cosine-bound-dates-cosine-bahdanau"]')
      .first()
      .getAttribute('data-scale'),
    '1',
  );
  await card.scrollIntoViewIfNeeded();
  await shot(page, 'compare-scaled-cosine-1440');
});

test('Compare exports every model’s numbers as JSON and CSV and their heatmaps as one SVG and PNG', async () => {
  await page.goto(fx.link(compareHash({ task: 'zh', model: 'additive-bahdanau', input: 'tom chase jerry' })));
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
  const json = await download(page, 'compare-export-json');
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

  const csv = (await download(page, 'compare-export-csv')).bytes.toString().trimEnd().split('\n');
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

  const svg = await download(page, 'compare-export-svg');
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
  assert.deepEqual(await clippedInFile(await fx.page({ viewport: { width: 1400, height: 900 } }), text), []);
  const png = await download(page, 'compare-export-png');
  assert.deepEqual([...png.bytes.subarray(0, 8)], PNG_SIGNATURE);
});

test('one what-if, the nav at 1440 px and a link written before links were short', async () => {
  // The link the page wrote before links carried only what differs from the defaults: every field.
  const OLD_LINK =
    'view=compare&task=zh&model=additive-bahdanau&input=tom+chase+jerry&step=0&k=3&kind=dot&t=1' +
    '&q=1%2C+0%2C+1%2C+0&tokens=%5B%5B%22Tom%22%2C%220.6%2C+0.2%2C+0.5%2C+0.1%22%2C%221%2C+0%2C+0%2C+1%22%2C1%5D%2C' +
    '%5B%22chase%22%2C%220%2C+1%2C+0%2C+0.5%22%2C%220%2C+1%2C+0%2C+1%22%2C1%5D%2C%5B%22Jerry%22%2C%220.5%2C+0.3' +
    '%2C+-0.5%2C+0.8%22%2C%220%2C+0%2C+1%2C+1%22%2C1%5D%5D&wi=m1%400&lang=en';
  /** The boxes of the elements matching `selector`, rounded to pixels. */
  const boxes = (p, selector) =>
    p.$$eval(selector, (els) =>
      els.map((el) => {
        const b = el.getBoundingClientRect();
        return { top: Math.round(b.top), bottom: Math.round(b.bottom), lines: el.getClientRects().length };
      }),
    );
  await page.goto(`${fx.url}index.html#${OLD_LINK}`);
  await page.locator('[data-testid^=whatif-list-]').waitFor({ timeout: 20_000 });
  const withName = await page.$eval('[data-testid^=whatif-list-]', (el) => el.dataset.testid);
  const noteOf = (p) => p.locator(`[data-testid="${withName}"]`);
  const outputOf = (p) => p.locator(`[data-testid="${withName.replace('whatif-list-', 'output-')}"]`);
  // "1 what-ifs: mask “chase” from step 1"
  assert.match(await noteOf(page).innerText(), /^1 what-if: mask “chase” from step 1$/);

  // the dashed "without what-ifs" pill broke onto two lines beside the model's name
  for (const tag of await boxes(page, '[data-testid^=whatif-tag-]')) {
    assert.equal(tag.lines, 1);
    assert.ok(tag.bottom - tag.top < 24, `a pill ${tag.bottom - tag.top} px high`);
  }

  // a name on two lines ("Transformer encoder · additive · Bahdanau") was centred in its card
  const align = await page.$$eval('section.model h3 button', (els) =>
    els.map((el) => getComputedStyle(el).textAlign),
  );
  assert.ok(align.length > 2 && align.every((a) => a === 'start'), align.join());

  // "Copy link" sat alone on a second line, under the tabs and the language switch
  const [tab] = await boxes(page, '[data-testid=view-decode]');
  const [langs] = await boxes(page, '[data-testid=lang-switch]');
  const [copy] = await boxes(page, '[data-testid=copy-link]');
  assert.ok(copy.top < tab.bottom && langs.top < tab.bottom, JSON.stringify({ tab, langs, copy }));
  // and "Link copied." appearing moved the nav
  const navBefore = await boxes(page, 'nav');
  await page.evaluate(() => {
    // no clipboard permission in headless Chromium: the failure's message shows in the same place
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.resolve() } });
  });
  await page.click('[data-testid=copy-link]');
  await page.locator('[data-testid=copied]').filter({ hasText: 'Link copied.' }).waitFor();
  assert.deepEqual(await boxes(page, 'nav'), navBefore);

  // The former link carried the Sandbox's untouched vectors, step=0 and k=3: the page writes
  // only what differs from its defaults (and the decoding views' task, model and input) ...
  await urlSettled(page);
  const written = new URLSearchParams(await page.evaluate(() => location.hash.slice(1)));
  assert.deepEqual(
    [...written.keys()].sort(),
    ['input', 'lang', 'model', 'task', 'view', 'wi'],
    String(written),
  );
  assert.equal(written.get('wi'), 'm1@0');
  // ... and the short link opens the same state
  const output = await outputOf(page).innerText();
  assert.equal(output, '汤姆 杰瑞 杰瑞');
  const again = await fx.page();
  await again.goto(`${fx.url}index.html#${written}`);
  assert.match(await noteOf(again).innerText(), /^1 what-if: mask “chase” from step 1$/);
  assert.equal(await outputOf(again).innerText(), output);
  await again.click('[data-testid=view-sandbox]');
  assert.equal(await again.locator('[data-testid=query]').inputValue(), '1, 0, 1, 0');

  // in Chinese: one what-if, and the tools still on the tabs' line
  await again.click('[data-testid=view-compare]');
  await again.click('[data-testid=lang-zh]');
  assert.match(await noteOf(again).innerText(), /^1 个假如：/);
  const [zhTab] = await boxes(again, '[data-testid=view-decode]');
  const [zhCopy] = await boxes(again, '[data-testid=copy-link]');
  assert.ok(zhCopy.top < zhTab.bottom);
});

test('the ranking on a phone: every model’s name whole on one line, the page no wider', async () => {
  const phone = await fx.open({ view: 'compare', task: 'zh', lang: 'en' }, PHONE);
  await phone.waitForFunction(
    // every row, the encoder–decoder Transformer's too: it decodes in a module loaded on first
    // use, so its row is the last to arrive, and reading before it counts rows twice apart
    () =>
      document.querySelectorAll('[data-testid=compare-ranking] li').length >= 10 &&
      document.querySelector('[data-testid=compare-ranking] li[data-name=zh-transformer]') !== null,
    null,
    {
      timeout: 30_000,
    },
  );
  const rows = await phone.$$eval('[data-testid=compare-ranking] li', (els) =>
    els.map((li) => {
      const code = /** @type {HTMLElement} */ (li.querySelector('code'));
      const pct = /** @type {HTMLElement} */ (li.querySelector('.pct'));
      const [name, share] = [code.getBoundingClientRect(), pct.getBoundingClientRect()];
      return {
        full: li.getAttribute('data-name'),
        title: code.title,
        shown: code.innerText,
        cut: code.scrollWidth > code.clientWidth,
        overlap: name.right > share.left,
        right: Math.round(li.getBoundingClientRect().right),
      };
    }),
  );
  // "zh-additive-bahdanau-transformer" broke after "additive-" and "bahdanau-"
  assert.deepEqual(
    await linesOf(phone, '[data-testid=compare-ranking] code'),
    rows.map(() => 1),
  );
  for (const row of rows) {
    // the task's prefix, the same for every row, is what a phone leaves out; the title keeps it
    assert.equal(row.title, row.full);
    assert.equal(`zh-${row.shown}`, row.full);
    assert.ok(!row.cut && !row.overlap, JSON.stringify(row));
    assert.ok(row.right <= 375, JSON.stringify(row));
  }
  assert.ok(rows.some((row) => row.full === 'zh-additive-bahdanau-transformer'));
  // the best model's row stays one line: its rank is marked instead of a badge beside the share
  // (the word kept for a screen reader)
  const best = await phone.$eval('[data-testid=compare-ranking] li.best', (li) => ({
    centres: ['.rank', 'code', '.pct'].map((s) => {
      const box = /** @type {Element} */ (li.querySelector(s)).getBoundingClientRect();
      return (box.top + box.bottom) / 2;
    }),
    rank: getComputedStyle(/** @type {Element} */ (li.querySelector('.rank'))).backgroundColor,
    word: li.querySelector('.badge')?.textContent,
  }));
  assert.deepEqual([lineCount(best.centres), best.rank, best.word], [1, 'rgb(31, 111, 58)', 'best']);
  assert.deepEqual(await pastTheEdge(phone), { scrollWidth: 375, width: 375, found: [] });

  // a laptop's card shows the whole name
  await page.goto(fx.link({ view: 'compare', task: 'zh', lang: 'en' }));
  await page.waitForSelector('[data-testid=compare-ranking] li[data-name=zh-dot-bahdanau]', {
    timeout: 30_000,
  });
  assert.equal(
    await page.locator('[data-testid=compare-ranking] li[data-name=zh-dot-bahdanau] code').innerText(),
    'zh-dot-bahdanau',
  );
});

test('from Bahdanau to the Transformer: each head’s cross-attention beside Bahdanau’s alignment, with the engine’s distance, in English and 中文, at 1440 and 375 px', async () => {
  // the Transformer decoder, decoded here by the trainer module (the module that holds it)
  const T = await loadTrainer();
  const transformer = T.Model.load(modelFile('dates-transformer'));
  const session = transformer.decode(DATE, { topK: 5 });
  const steps = session.run();
  const tokens = session.sourceTokens();
  session.delete();
  transformer.delete();
  const bahdanau = reference(DATES, DATE).steps.map((s) => s.weights);
  const [layers, heads, n] = steps[0].crossWeights.shape;
  const headRows = (l, h) =>
    steps.map((s) => Array.from(s.crossWeights.data.subarray((l * heads + h) * n, (l * heads + h) * n + n)));

  await page.goto(fx.link(compareHash({ task: 'dates', model: 'additive-bahdanau', input: DATE })));
  const bridge = page.locator('[data-testid=bahdanau-transformer]');
  await page.waitForSelector(`[data-testid="bridge-head-${layers - 1}-${heads - 1}"][data-distance]`, {
    timeout: 60_000,
  });
  assert.deepEqual(
    await heatmapValues(page, 'bridge-map-bahdanau', bahdanau.length, tokens.length),
    bahdanau.map((w) => Array.from(w)),
  );
  const distances = [];
  for (let l = 0; l < layers; l++)
    for (let h = 0; h < heads; h++) {
      const rows = headRows(l, h);
      assert.deepEqual(
        await heatmapValues(page, `bridge-map-${l}-${h}`, rows.length, n),
        rows,
        `layer ${l}, head ${h}: the record's crossWeights`,
      );
      const expected = ap.weightDifference(bahdanau, rows);
      const figure = page.locator(`[data-testid="bridge-head-${l}-${h}"]`);
      assert.equal(Number(await figure.getAttribute('data-distance')), expected.meanDistance);
      assert.match(await figure.textContent(), new RegExp(`distance ${formatNumber(expected.meanDistance)}`));
      assert.match(
        await page.textContent(`[data-testid="bridge-most-${l}-${h}"]`),
        new RegExp(
          `step ${expected.row + 1}, on “${tokens[expected.col]}”: ${formatNumber(expected.b)} here`,
        ),
      );
      distances.push({ l, h, d: expected.meanDistance });
    }
  // the head nearest Bahdanau's alignment is marked, and only it
  const nearest = distances.reduce((a, b) => (b.d < a.d ? b : a));
  assert.deepEqual(
    await bridge.locator('figure.nearest').evaluateAll((els) => els.map((el) => el.dataset.testid)),
    [`bridge-head-${nearest.l}-${nearest.h}`],
  );
  await shot(bridge, 'compare-bridge-1440');
  // in Chinese, and on a phone: the same numbers, nothing past the edge
  await page.click('[data-testid=lang-zh]');
  await page.setViewportSize(PHONE.viewport);
  await page.waitForFunction(() =>
    /从 Bahdanau 到 Transformer/.test(document.querySelector('#bridge-title')?.textContent ?? ''),
  );
  assert.match(
    await page.textContent(`[data-testid="bridge-head-${nearest.l}-${nearest.h}"]`),
    new RegExp(`距离 ${formatNumber(nearest.d)}.*最接近`),
  );
  assert.deepEqual((await pastTheEdge(page)).found, []);
  await shot(bridge, 'compare-bridge-375-zh');
});
