// The Chinese side renders with the page's own font (web/fonts), not whatever CJK font the
// machine has: Chromium's record of the fonts it drew a node's text with (CDP
// CSS.getPlatformFontsForNode) names the shipped subset, for the decode view's tokens and the
// heatmap's SVG labels; the exported SVG carries that font's bytes; the PNG export draws with it;
// no console errors (the Content-Security-Policy allows all of it).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { before, test } from 'node:test';

import { pageScreenshot, shotPath, waitForStep } from './browser.mjs';
import { useBrowser } from './fixture.mjs';

const fx = useBrowser();
const fontBytes = readFileSync(new URL('../../web/fonts/noto-sans-sc-subset.woff2', import.meta.url));
const INPUT = 'tom chase jerry';

/** One page for the file: each test reads another part of the same zh decode. */
let page, cdp;

before(async () => {
  page = await fx.page({ viewport: { width: 1280, height: 900 } }, { keep: true });
  const hash = new URLSearchParams({
    view: 'decode',
    task: 'zh',
    model: 'additive-bahdanau',
    input: INPUT,
    step: '2',
  });
  await page.goto(fx.link(`#${hash}`));
  await waitForStep(page, 'zh-additive-bahdanau', 2);
  await page.evaluate(() => document.fonts.ready);
  cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
});

/** The fonts Chromium drew the text of the node at `selector` with: [{familyName, isCustomFont, glyphCount}]. */
async function fontsOf(selector) {
  const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  assert.ok(nodeId, `a node at ${selector}`);
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
  return fonts;
}

test('the page loads its Chinese font and draws the zh tokens with it', async () => {
  const status = await page.evaluate(() =>
    [...document.fonts].filter((f) => f.family.replace(/"/g, '') === 'APG Chinese').map((f) => f.status),
  );
  assert.deepEqual(status, ['loaded']);
  assert.ok(await page.evaluate(() => document.fonts.check('16px "APG Chinese"', '汤姆追逐杰瑞')));
  const tokens = await page.$$eval('[data-testid=decode] [lang=zh]', (els) => els.map((e) => e.textContent));
  assert.ok(tokens.length > 0, 'zh tokens on the page');
  const fonts = await fontsOf('[data-testid=decode] [lang=zh]');
  assert.deepEqual(
    fonts.map((f) => [f.familyName, f.isCustomFont]),
    [['Noto Sans CJK SC', true]],
    'every glyph of the token from the shipped font',
  );
  await pageScreenshot(page, 'font-zh-decode-1280');
});

test("the heatmap's SVG labels are drawn with it", async () => {
  const fonts = await fontsOf('[data-testid=heatmap] svg text[lang=zh]');
  assert.deepEqual(
    fonts.map((f) => [f.familyName, f.isCustomFont]),
    [['Noto Sans CJK SC', true]],
  );
});

test('the exported SVG embeds the font, and the PNG is drawn with it', async () => {
  const grab = async (what) => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click(`[data-testid=export-${what}]`),
    ]);
    return readFileSync(await download.path());
  };
  const svg = (await grab('svg')).toString();
  const data =
    /@font-face \{ font-family: 'APG Chinese'; src: url\(data:font\/woff2;base64,([A-Za-z0-9+/=]+)\)/.exec(
      svg,
    );
  assert.ok(data, 'an embedded @font-face');
  assert.ok(Buffer.from(data[1], 'base64').equals(fontBytes), 'the shipped font, byte for byte');
  assert.match(svg, /font-family="'APG Chinese', system-ui, sans-serif"/);
  assert.match(svg, /lang="zh"[^>]*>汤姆</);

  // The PNG is, pixel for pixel, the exported SVG (font inside) drawn at 2×, and differs from
  // the same SVG without its embedded font (the machine's own CJK font, or none, draws other glyphs).
  const png = await grab('png');
  const path = shotPath('font-zh-heatmap.png');
  if (path) writeFileSync(path, png);
  const diffs = await page.evaluate(
    async ({ svg, png }) => {
      const pixels = async (blob, scale, size) => {
        const image = new Image();
        image.src = URL.createObjectURL(blob);
        await image.decode();
        const [w, h] = size ?? [image.width, image.height];
        const canvas = Object.assign(document.createElement('canvas'), {
          width: w * scale,
          height: h * scale,
        });
        const c = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
        c.scale(scale, scale);
        c.drawImage(image, 0, 0, w, h);
        return c.getImageData(0, 0, canvas.width, canvas.height).data;
      };
      const size = /width="([\d.]+)" height="([\d.]+)"/.exec(svg);
      const wh = [Number(size?.[1]), Number(size?.[2])];
      const asSvg = (text) => new Blob([text], { type: 'image/svg+xml' });
      const shown = await pixels(new Blob([Uint8Array.from(atob(png), (ch) => ch.charCodeAt(0))]), 1);
      const count = (a) =>
        a.length !== shown.length ? -1 : a.reduce((n, x, i) => n + (x !== shown[i] ? 1 : 0), 0);
      return {
        withFont: count(await pixels(asSvg(svg), 2, wh)),
        without: count(await pixels(asSvg(svg.replace(/<style>[^<]*<\/style>/, '')), 2, wh)),
      };
    },
    { svg, png: png.toString('base64') },
  );
  assert.equal(diffs.withFont, 0, 'the PNG is the SVG with its font');
  assert.ok(diffs.without > 0, `the font changes the picture (${diffs.without} bytes differ without it)`);
});
