// The Chinese interface in headless Chromium: the switch is in the URL (lang=), survives a reload,
// sets <html lang>; a note follows it; the browser's language chooses when the link does not;
// Chinese tokens carry lang="zh"; the interface's Chinese is drawn with the shipped font. (Every
// view in Chinese with no English left, nothing past the screen's edge and no axe violation:
// every-view.test.mjs.)
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { urlSettled, waitForStep } from './browser.mjs';
import { useBrowser } from './fixture.mjs';
import { VIEW_STATES as VIEWS } from './views.mjs';

const fx = useBrowser();

const newPage = (viewport = { width: 1440, height: 1000 }) => fx.page({ viewport });

async function open(page, view, lang = 'zh') {
  const hash = new URLSearchParams({ view: view.id, ...view.hash, ...(lang ? { lang } : {}) });
  await page.goto('about:blank');
  await page.goto(fx.link(`#${hash}`));
  await view.ready(page);
  await page.evaluate(() => document.fonts.ready);
}

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

// Issue 24's hand-edited links, in the browser: each bad value is named in the note, in the
// language the page then speaks, and the link keeps what is shown instead.
test('a hand-edited link: lang=xx, sa=9.9.9 and tr-steps=1e12 are named in the page’s notes, in English and in Chinese', async () => {
  const page = await newPage();
  const notes = page.locator('[data-testid=link-notes]');
  const cases = [
    ['#view=decode&lang=xx', "The link's lang=xx is not one of en, zh; using en."],
    [
      '#view=self&task=zh&input=tom+chase+jerry&sa=9.9.9&lang=en',
      'The link’s sa=9.9.9 asks for more than this model has (2 layers, 4 heads, 3 tokens, each from 0); showing 1.3.2.',
    ],
    [
      '#view=self&task=zh&input=tom+chase+jerry&sa=9.9.9&lang=zh',
      '链接中的 sa=9.9.9 超出了这个模型的范围（2 层、4 个头、3 个词元，都从 0 数起）；显示 1.3.2。',
    ],
    [
      '#view=train&tr-steps=1e12&lang=en',
      "The link's tr-steps=1e12 is not a usable number; using the recipe's value.",
    ],
    ['#view=train&tr-steps=1e12&lang=zh', '链接中的 tr-steps=1e12 不是可用的数字；使用配方的值。'],
  ];
  for (const [hash, want] of cases) {
    await page.goto('about:blank');
    await page.goto(fx.link(hash));
    await notes.waitFor({ timeout: 60_000 });
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=link-notes] li, [data-testid=link-notes] p').length > 0,
    );
    const items = await page.$$eval('[data-testid=link-notes] li', (els) =>
      els.map((e) => e.textContent?.trim()),
    );
    assert.ok(items.includes(want), `${hash}: ${JSON.stringify(items)}`);
    await urlSettled(page);
    const link = new URL(page.url()).hash;
    assert.doesNotMatch(link, /lang=xx|sa=9\.9\.9|tr-steps=1e12/, `${hash} → ${link}`);
  }
});
