// The browser tests' fixture. A test file calls useBrowser() once: one static server (build/web)
// and one headless Chromium serve the whole file (node's runner gives each file a process of its
// own), and every test opens fresh browser contexts, closed when it ends. The console errors and
// uncaught exceptions of a test's pages fail that test (in an afterEach), so a message is charged
// to the test whose page activity produced it and not to a last "no console errors" test.
import assert from 'node:assert/strict';
import { after, afterEach, before } from 'node:test';

import { launchBrowser, watchConsole } from './browser.mjs';
import { serveBuild } from './static-server.mjs';

export const DESKTOP = { viewport: { width: 1440, height: 1000 } };
export const PHONE = { viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true };

/**
 * How a context is watched and kept.
 * @typedef {object} Watch
 * @property {boolean} [keep] stays open for the file's later tests (a run trained once and looked
 *   at by several tests); its errors are still checked after each test
 * @property {RegExp} [expected] console errors the test provokes on purpose (a 404 it routes);
 *   any other still fails it
 */

export function useBrowser() {
  /** @type {{ url: string, close: () => Promise<void> }} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /**
   * The contexts open for the running test and the kept ones.
   * @type {Set<{ context: import('playwright-core').BrowserContext, errors: string[], keep: boolean, closed: boolean }>}
   */
  const open = new Set();

  // Started by the first hook or test that needs them: node 20 runs a file's top-level before()
  // hooks as they are declared, so another before() may ask for a page before this one is done.
  let starting;
  const start = () =>
    (starting ??= Promise.all([serveBuild(), launchBrowser()]).then((started) => {
      [server, browser] = started;
    }));
  before(start);
  afterEach(async () => {
    const errors = [];
    for (const entry of open) {
      errors.push(...entry.errors.splice(0));
      if (!entry.keep) {
        open.delete(entry);
        // a test may have closed it already (one context after another in a loop)
        if (!entry.closed) await entry.context.close();
      }
    }
    assert.deepEqual(errors, [], 'console errors or uncaught exceptions in this test’s pages');
  });
  after(async () => {
    await starting;
    await browser?.close();
    await server?.close();
  });

  const fixture = {
    /** The server's root URL, ending in a slash. */
    get url() {
      return server.url;
    },
    /** The file's Chromium. */
    get browser() {
      return browser;
    },
    /**
     * A fresh context (1440 × 1000 unless `options` says otherwise) whose pages are watched.
     * @param {import('playwright-core').BrowserContextOptions} [options]
     * @param {Watch} [watch]
     */
    async context(options = {}, { keep = false, expected } = {}) {
      await start();
      const context = await browser.newContext({ ...DESKTOP, acceptDownloads: true, ...options });
      const entry = { context, errors: [], keep, closed: false };
      context.on('close', () => (entry.closed = true));
      const errors = expected ? { push: (e) => expected.test(e) || entry.errors.push(e) } : entry.errors;
      context.on('page', (page) => watchConsole(page, errors));
      open.add(entry);
      return context;
    },
    /**
     * A page in a fresh context.
     * @param {import('playwright-core').BrowserContextOptions} [options]
     * @param {Watch} [watch]
     */
    async page(options, watch) {
      return (await fixture.context(options, watch)).newPage();
    },
    /**
     * A page in a fresh context, at `hash` (a string starting with #, or link fields).
     * @param {string | Record<string, string>} hash
     * @param {import('playwright-core').BrowserContextOptions} [options]
     * @param {Watch} [watch]
     */
    async open(hash, options, watch) {
      const page = await fixture.page(options, watch);
      await page.goto(fixture.link(hash));
      return page;
    },
    /** The page's URL at `hash` (a string starting with #, or link fields). */
    link(hash) {
      return `${server.url}${typeof hash === 'string' ? hash : `#${new URLSearchParams(hash)}`}`;
    },
  };
  return fixture;
}
