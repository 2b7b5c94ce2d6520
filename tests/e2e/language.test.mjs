// The Chinese interface in headless Chromium: every view switched to 中文 shows no English words
// outside an allow-list (formulas, the models' tokens and names, units, GRU, …); the switch is in
// the URL (lang=), survives a reload, sets <html lang>; the browser's language chooses when the
// link does not; Chinese tokens carry lang="zh"; the interface's Chinese is drawn with the shipped
// font; nothing reaches past the screen's edge in Chinese (every view at 1440 and 375 px).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { pageScreenshot, shotPath, urlSettled, waitForStep } from './browser.mjs';
import { useBrowser } from './fixture.mjs';
import { edgeTests } from './layout.mjs';
import { VIEW_STATES as VIEWS } from './views.mjs';

const fx = useBrowser();

// Where English stays English: what the models read and write (tokens, examples, the input),
// formulas (KaTeX), the heatmaps' SVG labels, numbers in code, the scene's words.
const UNTRANSLATED = [
  'svg',
  '.katex',
  'code',
  'input',
  'textarea',
  'option',
  '.tokens',
  '.chip',
  '.mono',
  '.topk .tok',
  '.bars .label',
  'table th[scope=row]',
  'table thead th',
  '[data-testid=beams] .tokens',
  '.examples',
  'q',
  '[translate=no]',
].join(', ');

// Words that are the same in both interfaces: names, units, key names, the running example's
// tokens. Text in “quotes” is quoted material (an input, a token) and is not counted either.
const ALLOWED = new Set(
  (
    'Attention Playground WebAssembly C++ softmax GRU BiGRU Transformer Bahdanau Luong Tom Jerry ' +
    'Query Key Value JSON CSV SVG PNG ISO safetensors IndexedDB Worker Web Audio ' +
    'log exp max tanh cos nats Hz kHz dq dk da dh Softmax Home End chase RNN Adam English accuracyByLength'
  ).split(' '),
);
const SCORES = 'dot|scaled_dot|general|additive|cosine|scaled_cosine|location|none';
const MODEL_NAME = new RegExp(
  `\\b((dates|zh|reverse|scenes|speech)-)?(${SCORES})(-(bahdanau|luong))?(-transformer)?\\b`,
  'g',
);

const newPage = (viewport = { width: 1440, height: 1000 }) => fx.page({ viewport });

async function open(page, view, lang = 'zh') {
  const hash = new URLSearchParams({ view: view.id, ...view.hash, ...(lang ? { lang } : {}) });
  await page.goto('about:blank');
  await page.goto(fx.link(`#${hash}`));
  await view.ready(page);
  await page.evaluate(() => document.fonts.ready);
}

/** The English words the person sees (text and the labels read out), outside the allowed places. */
function englishLeft(page) {
  return page.evaluate((untranslated) => {
    const texts = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || el.closest(untranslated) || el.closest('[hidden], script, style')) continue;
      if (!el.checkVisibility?.() && !el.closest('.visually-hidden')) continue;
      texts.push(node.textContent ?? '');
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]'))
      if (!el.closest(untranslated))
        for (const name of ['aria-label', 'title', 'placeholder', 'alt'])
          if (el.hasAttribute(name)) texts.push(el.getAttribute(name) ?? '');
    return texts;
  }, UNTRANSLATED);
}

function wordsOf(texts) {
  const left = new Set();
  for (const text of texts)
    for (const word of text
      .replace(/“[^”]*”/g, ' ')
      .replace(MODEL_NAME, ' ')
      .match(/[A-Za-z][A-Za-z']+/g) ?? [])
      if (!ALLOWED.has(word) && !/^[a-z]$/i.test(word)) left.add(word);
  return [...left];
}

test('every view in Chinese: no English words left outside the allow-list', async () => {
  const page = await newPage();
  const left = {};
  for (const view of VIEWS) {
    await open(page, view);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh', view.name);
    await pageScreenshot(page, `language-zh-${view.name}-1440`);
    const words = wordsOf(await englishLeft(page));
    if (words.length) left[view.name] = words;
  }
  const path = shotPath('language-english-left.json');
  if (path) writeFileSync(path, JSON.stringify(left, null, 1));
  assert.deepEqual(left, {}, 'English words in the zh interface');
});

test('the switch: keyboard reachable, in the URL, through a reload, <html lang> follows', async () => {
  const page = await newPage();
  await open(page, VIEWS[0], '');
  // Chromium's default language is English, and the link says nothing
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  assert.equal(await page.locator('[data-testid=view-decode]').textContent(), 'Decode step by step');
  await page.locator('[data-testid=lang-zh]').focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('[data-testid=view-decode]').textContent(), '逐步解码');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh');
  assert.equal(await page.locator('[data-testid=lang-zh]').getAttribute('aria-pressed'), 'true');
  await urlSettled(page);
  assert.equal(new URL(page.url()).hash.includes('lang=zh'), true, page.url());
  await page.reload();
  await waitForStep(page, 'zh-additive-bahdanau', 1, 30_000);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh');
  assert.equal(await page.locator('[data-testid=view-beam]').textContent(), '束搜索');
  // and back: the step and the model are kept
  await page.locator('[data-testid=lang-en]').click();
  await urlSettled(page);
  assert.match(page.url(), /lang=en/);
  assert.match(page.url(), /step=1/);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  assert.equal(await page.locator('[data-testid=view-beam]').textContent(), 'Beam search');
});

test("a what-if link's note follows a switch of language while it is shown", async () => {
  const page = await newPage();
  const view = { ...VIEWS[0], hash: { ...VIEWS[0].hash, wi: 'm2@1,zz' } };
  await open(page, view);
  const notes = page.locator('[data-testid=link-notes]');
  assert.match(await notes.textContent(), /链接里有些假如不是 .*（“zz”）；其余的保留。/);
  await page.locator('[data-testid=lang-en]').click();
  assert.match(
    await notes.textContent(),
    /Some what-ifs in the link are not .* \(“zz”\); the others are kept\./,
  );
});

test("the browser's language chooses when the link says nothing", async () => {
  const page = await fx.page({ locale: 'zh-CN' });
  await page.goto(fx.link('#view=sandbox'));
  await page.waitForSelector('[data-testid=stages]');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh');
  assert.equal(await page.locator('[data-testid=view-sandbox]').textContent(), '沙盒');
});

test("the interface's Chinese is drawn with the shipped font", async () => {
  const page = await newPage();
  await open(page, VIEWS[0]);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
  // texts all in Chinese (punctuation included): every glyph from the shipped subset
  for (const selector of ['[data-testid=view-decode]', '[data-testid=view-compare]', 'footer']) {
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    assert.ok(nodeId, selector);
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    assert.deepEqual(
      fonts.map((f) => [f.familyName, f.isCustomFont]),
      [['Noto Sans CJK SC', true]],
      selector,
    );
  }
});

test('Chinese tokens carry lang="zh" in every view that shows them', async () => {
  const page = await newPage();
  const unmarked = () =>
    page.evaluate(() => {
      const out = [];
      const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode())
        if (/[\u3400-\u9fff]/.test(n.textContent) && !n.parentElement?.closest('[lang|=zh], title'))
          out.push(`${n.parentElement?.tagName}: ${n.textContent.trim().slice(0, 20)}`);
      return out;
    });
  await page.goto(
    fx.link({
      view: 'decode',
      task: 'zh',
      model: 'additive-bahdanau',
      input: 'tom chase jerry',
      step: '1',
      reveal: '1',
    }),
  );
  await waitForStep(page, 'zh-additive-bahdanau', 1);
  await page.locator('[data-testid=heatmap]').scrollIntoViewIfNeeded();
  await waitForStep(page, 'zh-additive-bahdanau', 1);
  assert.deepEqual(await unmarked(), [], 'Decode');
  await page.click('[data-testid=view-beam]');
  await page.waitForSelector('[data-testid=beam-heatmap] svg', { timeout: 30_000 });
  assert.deepEqual(await unmarked(), [], 'Beam');
  await page.click('[data-testid=view-compare]');
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid^="output-zh-"]').length >= 6,
    null,
    {
      timeout: 30_000,
    },
  );
  assert.deepEqual(await unmarked(), [], 'Compare');
});

describe('nothing reaches past the screen’s edge, in Chinese', () => edgeTests(fx, 'zh'));
