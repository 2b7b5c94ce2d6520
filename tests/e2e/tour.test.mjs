// The guided tour in the page: the whole path walked by keyboard only in English and by touch at
// 375 px in Chinese, each stop's view and state (read back from the link the page writes) and its
// text, whose numbers must equal the engine's own run in node; leaving and resuming; a stop's own
// link; the bar at 375 px.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import decodeDict from '../../web/features/decode/strings.js';
import dict from '../../web/features/tour/strings.js';
import { formatNumber } from '../../web/shared/lib/format.js';
import { exampleQuery, exampleTokens } from '../../web/features/sandbox/example.js';
import { STOPS } from '../../web/features/tour/stops.js';
import { urlSettled } from './browser.mjs';
import { ap, model, modelFile } from './engine.mjs';
import { loadTrainer } from '../js/trainer-fixture.mjs';
import { useBrowser } from './fixture.mjs';

const SENTENCE = 'tom chase jerry';
const fill = (text, params) => text.replace(/\{(\w+)\}/g, (_, name) => String(params[name]));

const fx = useBrowser();
/** What each stop's text must cite, from the engine in node: stop id → params. */
const expected = {};

function decodeWith(name, input) {
  const session = model(name).decode(input);
  const steps = session.run();
  return { steps, outputText: session.outputText(), session };
}
const close = ({ session }) => session.delete();
const largest = (weights) => weights.indexOf(Math.max(...weights));

/** The stop's text's numbers at the step that writes 汤姆 (`index`) and at the step after it (`next`). */
function attentionFacts(name) {
  const run = decodeWith(name, SENTENCE);
  const i = Math.max(
    0,
    run.steps.findIndex((s) => s.token === '汤姆'),
  );
  const at = (k) => {
    const weights = [...run.steps[k].weights];
    const j = largest(weights);
    return {
      step: k + 1,
      token: run.steps[k].token,
      word: SENTENCE.split(' ')[j],
      weight: formatNumber(weights[j]),
      output: run.outputText,
    };
  };
  const facts = at(i);
  const next = at(i + 1);
  close(run);
  return { facts, index: i, next };
}

before(async () => {
  const fixed = decodeWith('zh-none-bahdanau', SENTENCE);
  expected.fixed = { output: fixed.outputText };
  close(fixed);
  ({
    facts: expected.stages,
    index: expected.stagesStep,
    next: expected.stagesNext,
  } = attentionFacts('zh-additive-bahdanau'));
  ({ facts: expected.styles, index: expected.stylesStep } = attentionFacts('zh-additive-luong'));
  const outputs = ['dot', 'scaled_dot', 'general', 'additive', 'cosine', 'scaled_cosine'].map((score) => {
    const run = decodeWith(`zh-${score}-bahdanau`, SENTENCE);
    close(run);
    return run.outputText;
  });
  expected.compare = { output: outputs[3], same: outputs.filter((o) => o === outputs[3]).length, total: 6 };
  const attended = ap.attend(
    'dot',
    [...exampleQuery],
    exampleTokens.map((t) => [...t.key]),
    exampleTokens.map((t) => [...t.value]),
  );
  const w = [...attended.weights];
  expected.sandbox = (separator) => ({
    weights: exampleTokens.map((t, j) => `${t.label} ${formatNumber(w[j])}`).join(separator),
    top: exampleTokens[largest(w)].label,
  });
  const self = decodeWith('zh-additive-bahdanau-transformer', SENTENCE);
  const layers = self.session.selfAttention();
  const { data, shape } = layers[0].weights;
  const n = shape[1];
  const row = [...data.subarray(n, 2 * n)]; // head 0, the query of token 1 ("chase")
  expected.self = {
    token: 'chase',
    word: SENTENCE.split(' ')[largest(row)],
    weight: formatNumber(row[largest(row)]),
    layer: 1,
    head: 1,
  };
  close(self);
  // each Transformer head's cross-attention against Bahdanau's alignment, by the engine's measure
  const T = await loadTrainer();
  const transformer = T.Model.load(modelFile('zh-transformer'));
  const crossSession = transformer.decode(SENTENCE);
  const crossSteps = crossSession.run();
  crossSession.delete();
  transformer.delete();
  const bahdanau = decodeWith('zh-additive-bahdanau', SENTENCE);
  const alignment = bahdanau.steps.map((s) => s.weights);
  close(bahdanau);
  const [crossLayers, heads, sources] = crossSteps[0].crossWeights.shape;
  const distances = [];
  for (let l = 0; l < crossLayers; l++)
    for (let h = 0; h < heads; h++) {
      const at = (l * heads + h) * sources;
      const rows = crossSteps.map((s) => s.crossWeights.data.slice(at, at + sources));
      distances.push({ l, h, d: ap.weightDifference(alignment, rows).meanDistance });
    }
  const near = distances.reduce((x, y) => (y.d < x.d ? y : x));
  const far = distances.reduce((x, y) => (y.d > x.d ? y : x));
  expected.bridge = {
    layer: near.l + 1,
    head: near.h + 1,
    d: formatNumber(near.d),
    farLayer: far.l + 1,
    farHead: far.h + 1,
    far: formatNumber(far.d),
  };
  const greedy = decodeWith('zh-additive-bahdanau', SENTENCE);
  const beam = greedy.session.beam(3);
  const byId = new Map(beam.nodes.map((node) => [node.id, node.token]));
  expected.beam = {
    k: 3,
    best: beam.beams[0]
      .map((id) => byId.get(id))
      .filter((t) => t !== '</s>')
      .join(' '),
    score: formatNumber(beam.scores[0]),
    greedy: greedy.outputText,
  };
  close(greedy);
});
const newPage = (width = 1440, height = 1000) => fx.page({ viewport: { width, height } });
const hashFields = async (page) => {
  await urlSettled(page);
  return Object.fromEntries(new URLSearchParams(await page.evaluate(() => location.hash.slice(1))));
};
const activeTestid = (page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));

/** The stop shown is stop `index`: its view, the state it set (from the link) and its text in `lang`. */
async function checkStop(page, index, lang) {
  const stop = STOPS[index];
  const { link } = stop;
  const panel = page.locator('[data-testid=tour]');
  await page.waitForSelector(`[data-testid=tour][data-stop="${index + 1}"]`);
  assert.equal(await panel.getAttribute('data-id'), stop.id);
  const text = dict[lang];
  assert.equal(await page.locator('[data-testid=tour-title]').innerText(), text[`${stop.id}.title`]);
  assert.equal(await page.locator('[data-testid=tour-lead]').innerText(), text[`${stop.id}.lead`]);
  assert.equal(
    (await page.locator('[data-testid=tour-counter]').textContent())?.trim(),
    `${text.region} · ${fill(text.counter, { n: index + 1, total: STOPS.length })}`,
  );
  // the view the stop opened
  assert.equal(await page.locator(`[data-testid=view-${link.view}]`).getAttribute('aria-current'), 'page');
  // its numbers, as the engine gives them
  const want = stop.id === 'sandbox' ? expected.sandbox(text.listSeparator) : expected[stop.id];
  if (stop.id !== 'length') {
    const fact = page.locator('[data-testid=tour-fact]');
    await fact.waitFor({ timeout: 30_000 });
    assert.equal(await fact.innerText(), fill(text[`${stop.id}.fact`], want), `${lang} stop ${index + 1}`);
  } else {
    // the length chart's stop: its numbers are the chart's table cells (the engine's counts)
    const fact = page.locator('[data-testid=tour-fact]');
    await fact.waitFor({ timeout: 60_000 });
    const params = JSON.parse((await fact.getAttribute('data-params')) ?? '{}');
    const cell = async (score, range) =>
      (await page.locator(`[data-testid=length-cell-${score}-${parseInt(range, 10)}]`).innerText()).split(
        '\n',
      )[0];
    assert.equal(await cell('none', params.firstRange), params.first);
    assert.equal(await cell('none', params.lastRange), params.last);
    assert.equal(await cell('additive', params.lastRange), params.additive);
    assert.equal(await fact.innerText(), fill(text['length.fact'], params));
  }

  if (stop.id === 'fixed') {
    // its right output is one the model was unsure of (the engine's confidence is low at step 2):
    // the note says unsure, not wrong (it read “more likely wrong than right”, in red)
    const low = page.locator('[data-testid=confidence-low]');
    assert.ok((await low.innerText()).startsWith(decodeDict[lang].lowTitle));
    assert.doesNotMatch(await low.innerText(), /more likely wrong|错的可能比对的大/);
  }
  // the state it set, as the page writes it into its link (a field left out is the page's default)
  const fields = { task: 'zh', input: SENTENCE, step: '0', ...(await hashFields(page)) };
  assert.equal(fields.tour, String(index + 1));
  assert.equal(fields.lang, lang);
  assert.equal(fields.view, link.view);
  assert.equal(fields.task, link.task);
  if (link.model) assert.equal(fields.model, link.model);
  if (link.input) assert.equal(fields.input, link.input);
  if (link.k) assert.equal(fields.k, link.k);
  if (link.sa) assert.equal(fields.sa, link.sa);
  if (link.reveal) assert.equal(fields.reveal, link.reveal);
  if (stop.id === 'stages') assert.equal(fields.step, String(expected.stagesStep));
  if (stop.id === 'styles') assert.equal(fields.step, String(expected.stylesStep));
  if (stop.id === 'sandbox') {
    // the Sandbox's own example: the link leaves it out
    assert.equal(fields.kind, undefined);
    assert.equal(fields.tokens, undefined);
  }
  // what it talks about is marked and above the bar
  if (stop.spot) {
    await page.waitForSelector(`${stop.spot}.tour-spot`, { timeout: 20_000 });
    const [spot, bar] = await Promise.all([
      page.locator(`${stop.spot}.tour-spot`).first().boundingBox(),
      panel.boundingBox(),
    ]);
    assert.ok(spot && bar && spot.y < bar.y, `stop ${index + 1}: its element starts above the bar`);
  }
}

describe('the guided tour', () => {
  test('a first visit points to the tour above Decode; starting it answers the welcome for good', async () => {
    const page = await newPage();
    await page.goto(`${fx.url}`);
    const welcome = page.locator('[data-testid=welcome]');
    await welcome.waitFor();
    assert.match(await welcome.innerText(), new RegExp(`${STOPS.length} stops on “tom chase jerry”`));
    await page.click('[data-testid=welcome-start]');
    await checkStop(page, 0, 'en');
    assert.equal(await welcome.count(), 0);
    // a plain address again, in the same browser: no welcome, the masthead resumes instead
    await page.goto('about:blank');
    await page.goto(`${fx.url}`);
    await page.locator('[data-testid=engine-status] [data-testid=isa]').waitFor();
    assert.equal(await welcome.count(), 0);
    assert.equal(await page.locator('[data-testid=tour-start]').innerText(), 'Resume the tour at stop 1');
  });

  test('leaving keeps the stop’s state to explore; the masthead resumes there, after a reload too', async () => {
    const page = await newPage();
    await page.goto(`${fx.url}#tour=3&lang=en`);
    await checkStop(page, 2, 'en');
    await page.click('[data-testid=tour-leave]');
    await page.waitForSelector('[data-testid=tour]', { state: 'detached' });
    assert.equal(await activeTestid(page), 'tour-start', 'the focus goes back to the masthead');
    const kept = { step: '0', ...(await hashFields(page)) };
    assert.equal(kept.model, 'additive-bahdanau');
    assert.equal(kept.step, String(expected.stagesStep));
    assert.equal(kept.tour, undefined);
    // exploring: another step and another score function
    await page.locator('h1').click();
    await page.keyboard.press('End');
    await page.keyboard.press('1');
    await urlSettled(page);
    const explored = await hashFields(page);
    assert.equal(explored.model, 'dot-bahdanau');
    assert.notEqual(explored.step, kept.step);
    const start = page.locator('[data-testid=tour-start]');
    assert.equal(await start.innerText(), 'Resume the tour at stop 3');
    await page.reload();
    assert.equal(await start.innerText(), 'Resume the tour at stop 3');
    await start.click();
    await checkStop(page, 2, 'en');
    // changing the stop's setup inside the tour: its numbers are no longer cited, and it can be set up again
    await page.locator('h1').click();
    await page.keyboard.press('2');
    await page.locator('[data-testid=tour-moved]').waitFor();
    assert.equal(await page.locator('[data-testid=tour-fact]').count(), 0);
    await page.click('[data-testid=tour-again]');
    await checkStop(page, 2, 'en');
    await page.click('[data-testid=tour-leave]');
  });

  test('switching the language redraws the stop and the bad-stop note in the other language', async () => {
    const page = await newPage();
    await page.goto(`${fx.url}#tour=3&lang=en`);
    await checkStop(page, 2, 'en');
    await page.click('[data-testid=lang-zh]');
    await checkStop(page, 2, 'zh');
    const bad = await newPage();
    await bad.goto(`${fx.url}#tour=99&lang=en`);
    const notes = bad.locator('[data-testid=link-notes]');
    await notes.waitFor();
    assert.match(await notes.innerText(), /There is no tour stop “99”/);
    await bad.click('[data-testid=lang-zh]');
    await bad.waitForFunction(() =>
      document.querySelector('[data-testid=link-notes]')?.textContent?.includes('导览没有第 “99” 站'),
    );
  });

  test('a stop drops the what-ifs the page had, so its numbers are the trained model’s', async () => {
    const page = await newPage();
    // step 1's attention pinned on “jerry”: 汤姆's weights are no longer the model's own
    await page.goto(
      `${fx.url}#view=decode&task=zh&model=additive-bahdanau&input=tom+chase+jerry&step=0&wi=p2@0&lang=en`,
    );
    await page.locator('[data-testid=decode]').waitFor();
    assert.equal((await hashFields(page)).wi, 'p2@0');
    await page.click('[data-testid=tour-start]');
    await page.click('[data-testid=tour-next]');
    await page.click('[data-testid=tour-next]');
    await checkStop(page, 2, 'en');
    assert.equal((await hashFields(page)).wi, undefined);
  });

  test('a stop’s own link opens that stop; a stop that is not there gives a link note', async () => {
    // the first and the last stop from a cold start (the walks read every stop's fields from its
    // link, and stop 3 is opened by its link in the tests above)
    for (const i of [0, STOPS.length - 1]) {
      const page = await newPage();
      await page.goto(`${fx.url}#tour=${i + 1}&lang=zh`);
      await checkStop(page, i, 'zh');
      const link = page.locator('[data-testid=tour-link]');
      assert.equal(await link.getAttribute('href'), `#tour=${i + 1}`);
      await page.context().close();
    }
    for (const bad of [String(STOPS.length + 1), 'three']) {
      const page = await newPage();
      await page.goto(`${fx.url}#tour=${bad}&lang=en`);
      const notes = page.locator('[data-testid=link-notes]');
      await notes.waitFor();
      assert.match(
        await notes.innerText(),
        new RegExp(`There is no tour stop “${bad}” \\(the stops are 1 to ${STOPS.length}\\)`),
      );
      assert.equal(await page.locator('[data-testid=tour]').count(), 0);
      await page.context().close();
    }
  });

  test('can be walked by keyboard only, and leaves the stepping keys to the page', async () => {
    const page = await newPage();
    await page.goto(`${fx.url}#lang=en`);
    await page.locator('[data-testid=engine-status] [data-testid=isa]').waitFor();
    for (let tabs = 0; tabs < 10 && (await activeTestid(page)) !== 'tour-start'; tabs++)
      await page.keyboard.press('Tab');
    assert.equal(await activeTestid(page), 'tour-start', 'the masthead button is among the first tab stops');
    assert.equal(await page.locator('[data-testid=tour-start]').innerText(), 'Guided tour');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=tour][data-stop="1"]');
    assert.equal(await activeTestid(page), 'tour-title', 'opening the tour moves the focus to its stop');
    await page.keyboard.press('Tab'); // Back is disabled on the first stop
    assert.equal(await activeTestid(page), 'tour-next');
    for (let i = 1; i < STOPS.length; i++) {
      await page.keyboard.press('Enter');
      await checkStop(page, i, 'en');
      assert.equal(await activeTestid(page), 'tour-next', 'Next keeps the focus');
      if (STOPS[i].id === 'stages') {
        // the arrows still step the decoder from the tour's buttons
        await page.keyboard.press('ArrowRight');
        await urlSettled(page);
        assert.equal((await hashFields(page)).step, String(expected.stagesStep + 1));
        // the text follows the step shown (it read "At step 1 … 汤姆" at step 2) and says which
        // step the stop is about, with a way back to it
        const fact = page.locator('[data-testid=tour-fact]');
        assert.equal(await fact.innerText(), fill(dict.en['stages.fact'], expected.stagesNext));
        const elsewhere = page.locator('[data-testid=tour-elsewhere]');
        assert.match(await elsewhere.innerText(), new RegExp(`about step ${expected.stages.step}, where`));
        await page.click('[data-testid=tour-to-step]');
        await elsewhere.waitFor({ state: 'detached' });
        assert.equal(await fact.innerText(), fill(dict.en['stages.fact'], expected.stages));
        await page.focus('[data-testid=tour-next]');
      }
    }
    // back to the first stop: the focus moves from the disabled Back to Next
    await page.keyboard.press('Shift+Tab');
    assert.equal(await activeTestid(page), 'tour-back');
    await page.keyboard.press('Enter');
    await checkStop(page, STOPS.length - 2, 'en');
    // Escape leaves from inside the bar
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=tour]', { state: 'detached' });
    assert.equal(await activeTestid(page), 'tour-start');
    assert.equal(
      await page.locator('[data-testid=tour-start]').innerText(),
      `Resume the tour at stop ${STOPS.length - 1}`,
    );
    await page.keyboard.press('Enter');
    await checkStop(page, STOPS.length - 2, 'en');
  });

  test('walks the whole path in Chinese at 375 px, the bar docked at the bottom, inside the width, under what it talks about', async () => {
    const page = await newPage(375, 800);
    await page.goto(`${fx.url}#lang=zh`);
    const start = page.locator('[data-testid=tour-start]');
    assert.equal(await start.innerText(), '导览');
    await start.click();
    for (let i = 0; i < STOPS.length; i++) {
      await checkStop(page, i, 'zh');
      if (STOPS[i].id === 'stages') {
        // a tap on the stepper's next step: the text follows the step shown and says which step
        // the stop is about, in Chinese, with a way back to it
        await page.click('[data-testid=step]');
        const fact = page.locator('[data-testid=tour-fact]');
        await page.waitForFunction(
          (want) => document.querySelector('[data-testid=tour-fact]')?.textContent?.trim() === want,
          fill(dict.zh['stages.fact'], expected.stagesNext),
        );
        const elsewhere = page.locator('[data-testid=tour-elsewhere]');
        assert.match(await elsewhere.innerText(), new RegExp(`本站讲的是第 ${expected.stages.step} 步`));
        await page.click('[data-testid=tour-to-step]');
        await elsewhere.waitFor({ state: 'detached' });
        assert.equal(await fact.innerText(), fill(dict.zh['stages.fact'], expected.stages));
      }
      const bar = await page.locator('[data-testid=tour]').boundingBox();
      assert.ok(bar, 'the bar is shown');
      assert.ok(Math.abs(bar.y + bar.height - 800) < 1, 'docked at the bottom');
      assert.ok(bar.height <= 0.45 * 800 + 1, `stop ${i + 1}: at most 45 % of the height (${bar.height})`);
      assert.ok(bar.x >= 0 && bar.x + bar.width <= 375 + 0.5, 'inside the width');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      assert.ok(overflow <= 0, `no sideways scrolling (${overflow} px)`);
      await page.click('[data-testid=tour-next]');
    }
    // Next on the last stop finishes
    await page.waitForSelector('[data-testid=tour]', { state: 'detached' });
    assert.equal(await start.innerText(), dict.zh.start);
    assert.equal((await hashFields(page)).tour, undefined);
  });
});
