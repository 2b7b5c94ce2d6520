// The Chinese interface in headless Chromium: every view switched to 中文 shows no English words
// outside an allow-list (formulas, the models' tokens and names, units, GRU, …); the switch is in
// the URL (lang=), survives a reload, sets <html lang>; the interface's Chinese is drawn with the
// shipped font; no console errors. Screenshots of every view in zh at 1440×1000 and 375×800 go to
// test-output/.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { after, before, test } from 'node:test';

import { launchBrowser, pageScreenshot, urlSettled, waitForStep } from './browser.mjs';
import { serveBuild } from './static-server.mjs';

const shots = new URL('../../test-output/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });

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
    'log exp max tanh cos nats dq dk da dh Softmax Home End chase RNN Adam English accuracyByLength'
  ).split(' '),
);
const SCORES = 'dot|scaled_dot|general|additive|cosine|scaled_cosine|none';
const MODEL_NAME = new RegExp(
  `\\b((dates|zh|reverse|scenes)-)?(${SCORES})(-(bahdanau|luong))?(-transformer)?\\b`,
  'g',
);

const WHATIF_INPUT = 'tom chased jerry in the kitchen';
const VIEWS = [
  { id: 'decode', hash: { task: 'zh', model: 'additive-bahdanau', input: 'tom chase jerry', step: '1' } },
  { id: 'compare', hash: { task: 'zh', input: 'tom chase jerry' }, ready: '[data-testid^=cmp-]' },
  { id: 'beam', hash: { task: 'zh', input: 'tom chase jerry' }, ready: '[data-testid=beam-0]' },
  { id: 'self', hash: { task: 'zh', input: 'tom chase jerry' }, ready: '[data-testid=sa-detail]' },
  { id: 'sandbox', hash: {}, ready: '[data-testid=stages]' },
  { id: 'train', hash: {}, ready: '[data-testid=train-start]:not([disabled])' },
  { id: 'caption', hash: {}, ready: '[data-testid=caption]' },
  // the what-ifs: a mask, a pin and a temperature, so the panel lists each, the stages carry their
  // mark and the formula view its note
  {
    id: 'decode',
    name: 'decode-whatif',
    hash: { task: 'zh', model: 'additive-bahdanau', input: WHATIF_INPUT, step: '3', wi: 'm2@1,p0@3,t0.5@2' },
    step: 3,
  },
  {
    id: 'compare',
    name: 'compare-whatif',
    hash: { task: 'zh', model: 'additive-bahdanau', input: WHATIF_INPUT, wi: 'm2@1' },
    ready: '[data-testid^=whatif-list-]',
  },
  // evaluated in its Worker; a hovered bucket shows its numbers
  {
    id: 'length',
    hash: { task: 'reverse' },
    ready: '[data-testid=length-summary]',
    then: (page) => page.hover('[data-testid=length-bucket-9]'),
  },
];

let server, browser;
const consoleErrors = [];

before(async () => {
  [server, browser] = await Promise.all([serveBuild(), launchBrowser()]);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function newPage(viewport = { width: 1440, height: 1000 }) {
  const page = await browser.newPage({ viewport });
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  return page;
}

async function open(page, view, lang = 'zh') {
  const hash = new URLSearchParams({ view: view.id, ...view.hash, ...(lang ? { lang } : {}) });
  await page.goto('about:blank');
  await page.goto(`${server.url}#${hash}`);
  if (view.id === 'decode') await waitForStep(page, 'zh-additive-bahdanau', view.step ?? 1, 30_000);
  else await page.waitForSelector(view.ready, { state: 'attached', timeout: 90_000 });
  await view.then?.(page);
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
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh', view.id);
    await pageScreenshot(page, `${shots}i18n-zh-${view.name ?? view.id}-1440.png`);
    const words = wordsOf(await englishLeft(page));
    if (words.length) left[view.name ?? view.id] = words;
  }
  await page.close();
  writeFileSync(`${shots}i18n-english-left.json`, JSON.stringify(left, null, 1));
  assert.deepEqual(left, {}, 'English words in the zh interface');
});

test('the phone width in Chinese, every view (screenshots)', async () => {
  const page = await newPage({ width: 375, height: 800 });
  for (const view of VIEWS) {
    await open(page, view);
    await pageScreenshot(page, `${shots}i18n-zh-${view.name ?? view.id}-375.png`);
    // nothing wider than the screen
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(overflow <= 1, `${view.name ?? view.id}: the page is ${overflow} px wider than the phone`);
  }
  await page.close();
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
  await page.close();
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
  await page.close();
});

test("the browser's language chooses when the link says nothing", async () => {
  const context = await browser.newContext({ locale: 'zh-CN' });
  const page = await context.newPage();
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  await page.goto(`${server.url}#view=sandbox`);
  await page.waitForSelector('[data-testid=stages]');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh');
  assert.equal(await page.locator('[data-testid=view-sandbox]').textContent(), '沙盒');
  await context.close();
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
  await page.close();
});

test('no console errors', () => {
  assert.deepEqual(consoleErrors, []);
});
