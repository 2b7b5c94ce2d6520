// The built page under its Content-Security-Policy (web/csp.js): every view works with no console
// message and no violation, the engine's Worker is held to the policy too, and what the policy
// forbids (inline script, eval, inline style attributes, remote origins) is refused and reported.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';

import { directives } from '../../web/csp.js';
import { useBrowser } from './fixture.mjs';

const fx = useBrowser();
const built = new URL('../../build/web/index.html', import.meta.url);
/**
 * One page for the file, every message of which (not only errors, and its Workers' too) is kept:
 * the views load in it one after another, then its Worker and its document are tried against the
 * policy. The fixture lets through only the refusals the last test provokes (and counts itself).
 */
let page;
const messages = [];

before(async () => {
  page = await fx.page({}, { keep: true, expected: /Content Security Policy/ });
  page.on('console', (m) => messages.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => messages.push(`pageerror: ${e}`));
  page.on('worker', (w) => w.on('console', (m) => messages.push(`worker ${m.type()}: ${m.text()}`)));
  // Every violation the page sees, from its first script on.
  await page.addInitScript(() => {
    /** @type {any} */ (window).violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      /** @type {any} */ (window).violations.push({ directive: e.violatedDirective, blocked: e.blockedURI }),
    );
  });
});

const violations = () => page.evaluate(() => /** @type {any} */ (window).violations.splice(0));

test('the built page carries the policy: no inline script, no eval, nothing from another origin', () => {
  const html = readFileSync(built, 'utf8');
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html);
  assert.ok(meta, 'a CSP meta tag in build/web/index.html');
  const policy = meta[1].replaceAll('&#39;', "'");
  assert.match(policy, /(^|; )script-src 'self' 'wasm-unsafe-eval'(;|$)/);
  assert.match(policy, /(^|; )default-src 'self'(;|$)/);
  assert.match(policy, /(^|; )worker-src 'self'(;|$)/);
  assert.doesNotMatch(policy, /'unsafe-inline'|'unsafe-eval'|https?:|\*/);
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script in the page');
  assert.deepEqual(directives['style-src'], ["'self'"]);
});

test('every view works under it with no console message and no violation', async () => {
  const hash = (view) => `#view=${view}&task=dates&model=additive-bahdanau&input=29+november+2026`;
  const ready = {
    decode: '[data-testid=decode]',
    compare: '[data-testid^="diff-dates-"]',
    beam: '[data-testid=beam-0]',
    self: '[data-testid=sa-detail]',
    sandbox: '[data-testid=weight-0]',
  };
  for (const [view, selector] of Object.entries(ready)) {
    await page.goto('about:blank');
    const response = await page.goto(fx.link(hash(view)));
    assert.match(
      response?.headers()['content-security-policy'] ?? '',
      /script-src 'self' 'wasm-unsafe-eval'/,
    );
    await page.locator(selector).first().waitFor({ timeout: 30_000 });
    // the formulas and heatmaps below the fold too
    await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForTimeout(400);
    assert.equal(await page.textContent('[data-testid=isa]'), 'wasm_simd128', `${view}: the engine runs`);
    assert.deepEqual(await violations(), [], `${view}: no violation`);
  }
  assert.ok((await page.locator('.katex').count()) > 0, 'typeset formulas on the sandbox');
  // each formula is written twice: MathML for a screen reader (with its TeX), the HTML the eye sees
  // hidden from it, so a reader hears the formula once and not as loose glyphs
  const spoken = await page.locator('.katex').evaluateAll((all) =>
    all.map((k) => ({
      math: Boolean(k.querySelector('.katex-mathml math annotation[encoding="application/x-tex"]')),
      html: k.querySelector('.katex-html')?.getAttribute('aria-hidden') ?? null,
    })),
  );
  assert.deepEqual(
    spoken.filter((f) => !f.math || f.html !== 'true'),
    [],
    `${spoken.length} formulas: MathML beside aria-hidden HTML`,
  );
  assert.deepEqual(messages, []);
});

test('the engine Worker is held to the policy too: it may compile WebAssembly, not evaluate strings', async () => {
  const worker = page.workers().find((w) => w.url().includes('worker'));
  assert.ok(worker, 'the engine Worker is running');
  // Later, from a timer: code evaluated by the test tool itself may always evaluate strings.
  assert.equal(
    await worker.evaluate(
      () =>
        new Promise((resolve) =>
          setTimeout(() => {
            try {
              resolve(String((0, eval)('1 + 1')));
            } catch (error) {
              resolve(error.name);
            }
          }),
        ),
    ),
    'EvalError',
  );
});

test('what the policy forbids is refused and reported', async () => {
  const outcome = await page.evaluate(async () => {
    const w = /** @type {any} */ (window);
    const script = document.createElement('script');
    script.textContent = 'window.inlineRan = true';
    document.body.append(script);
    // from a timer: code evaluated by the test tool itself may always evaluate strings
    const evalRan = await new Promise((resolve) =>
      setTimeout(() => {
        try {
          (0, eval)('1');
          resolve(true);
        } catch {
          resolve(false);
        }
      }),
    );
    const div = document.createElement('div');
    div.innerHTML = '<span style="color: red">styled</span>';
    document.body.append(div);
    const remote = await fetch('https://example.org/').then(
      () => 'fetched',
      () => 'refused',
    );
    await new Promise((resolve) => setTimeout(resolve, 100)); // violation events are queued
    return {
      inlineRan: Boolean(w.inlineRan),
      evalRan,
      // a refused style attribute leaves the span the colour it inherits
      red: getComputedStyle(/** @type {Element} */ (div.firstChild)).color === 'rgb(255, 0, 0)',
      remote,
    };
  });
  assert.deepEqual(outcome, {
    inlineRan: false,
    evalRan: false,
    red: false,
    remote: 'refused',
  });
  // each once per policy in force: the meta tag's and the header's
  const reported = [...new Set((await violations()).map((v) => v.directive))].sort();
  assert.deepEqual(reported, ['connect-src', 'script-src', 'script-src-elem', 'style-src-attr']);
  // the console says so as well; nothing else was logged
  assert.ok(
    messages.length >= 4 && messages.every((m) => /Content Security Policy/.test(m)),
    messages.join('\n'),
  );
});
