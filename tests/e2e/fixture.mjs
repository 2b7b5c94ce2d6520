// The browser tests' fixture. A test file calls useBrowser() once: one static server (build/web)
// and one Chromium headless shell (tests/e2e/browser.mjs) serve the whole file (node's runner
// gives each file a process of its own). Every test gets contexts of its own that start empty:
// when a test ends, its pages are closed and the context's storage (local and session storage,
// IndexedDB, the Cache API, cookies) is cleared, and the context waits for the next test asking
// for the same options; a context a test changed for good (a route, an init script, an exposed
// function, offline, a permission) is closed instead. The emptied page itself is the next test's
// first page (unless the test changed it for good: a route, a viewport, emulated media): in the
// renderer process that has already compiled the page's scripts and .wasm, a load takes less
// than half as long. The console errors and uncaught exceptions of a test's pages fail that test
// (in an afterEach), so a message is charged to the test whose page activity produced it and not
// to a last "no console errors" test.
import assert from 'node:assert/strict';
import { after, afterEach, before } from 'node:test';

import { launchBrowser, watchConsole } from './browser.mjs';
import { serveBuild } from './static-server.mjs';

export const DESKTOP = { viewport: { width: 1440, height: 1000 } };

/** What a context and a page both can be given for good: routes, scripts, functions, headers. */
const GIVEN = [
  'route',
  'routeFromHAR',
  'routeWebSocket',
  'addInitScript',
  'exposeFunction',
  'exposeBinding',
  'setExtraHTTPHeaders',
];
/** A context's methods whose effect outlives its pages: a context that used one is not reused. */
const LASTING = [...GIVEN, 'setOffline', 'grantPermissions', 'setGeolocation', 'setHTTPCredentials'];
/** A page's methods whose effect outlives its document: a page that used one is not handed on. */
const PAGE_LASTING = [
  ...GIVEN,
  'emulateMedia',
  'setViewportSize',
  'setDefaultTimeout',
  'setDefaultNavigationTimeout',
];
/** A same-origin address that serves an empty page, where a used context's storage is cleared. */
const EMPTY = '__empty';
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
   * @typedef {{ context: import('playwright-core').BrowserContext, key: string, errors: string[],
   *   expected: RegExp | undefined, keep: boolean, closed: boolean, dirty: boolean,
   *   sink: { push: (e: string) => void }, spare: import('playwright-core').Page | null,
   *   dirtyPages: WeakSet<import('playwright-core').Page> }} Entry
   * @type {Set<Entry>}
   */
  const open = new Set();
  /** Emptied contexts waiting for a test that asks for their options, by those options. @type {Map<string, Entry[]>} */
  const idle = new Map();

  // Started by the first hook or test that needs them: node 20 runs a file's top-level before()
  // hooks as they are declared, so another before() may ask for a page before this one is done.
  let starting;
  const start = () =>
    (starting ??= Promise.all([serveBuild(), launchBrowser({ shell: true })]).then((started) => {
      [server, browser] = started;
    }));
  before(start);
  /** Closes the context's pages and clears what the page stored, for the next test; or closes it. */
  async function release(entry) {
    // a test may have closed it already (one context after another in a loop)
    if (entry.closed) return;
    if (entry.dirty) return entry.context.close();
    // the test's own page goes to the empty page (the same origin, so the same renderer process):
    // a new page would start a process of its own, for each test
    const pages = entry.context.pages();
    const kept = pages.find((page) => !entry.dirtyPages.has(page));
    await Promise.all(pages.filter((page) => page !== kept).map((page) => page.close()));
    const page = kept ?? (await entry.context.newPage());
    try {
      await page.goto(`${server.url}${EMPTY}`, { timeout: 10_000 });
    } catch {
      // a page that will not leave (stalled): the context goes, and the next test gets a new one
      return entry.context.close();
    }
    await page.evaluate(async () => {
      localStorage.clear();
      sessionStorage.clear();
      for (const { name } of await indexedDB.databases())
        if (name)
          await new Promise((resolve, reject) => {
            const request = indexedDB.deleteDatabase(name);
            request.onsuccess = request.onblocked = resolve;
            request.onerror = () => reject(request.error);
          });
      for (const name of await caches.keys()) await caches.delete(name);
      for (const registration of await navigator.serviceWorker.getRegistrations())
        await registration.unregister();
    });
    // The emptied page is the next test's first page: a page of its own would start a renderer
    // process, which then compiles the page's scripts and .wasm again (about a second a load).
    // What the test attached to it goes; the mouse leaves whatever it hovered.
    await page.removeAllListeners();
    watchConsole(page, entry.sink);
    await page.mouse.move(0, 0);
    entry.spare = page;
    await entry.context.clearCookies();
    entry.errors.length = 0;
    idle.set(entry.key, [...(idle.get(entry.key) ?? []), entry]);
  }

  afterEach(async () => {
    const errors = [];
    for (const entry of open) {
      errors.push(...entry.errors.splice(0));
      if (!entry.keep) {
        open.delete(entry);
        await release(entry);
      }
    }
    assert.deepEqual(errors, [], 'console errors or uncaught exceptions in this test’s pages');
  });
  after(async () => {
    await starting;
    idle.clear();
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
      const key = JSON.stringify(options);
      let entry = idle.get(key)?.pop();
      if (!entry) {
        const context = await browser.newContext({ ...DESKTOP, acceptDownloads: true, ...options });
        const sink = { push: (e) => made.expected?.test(e) || made.errors.push(e) };
        /** @type {Entry} */
        const made = {
          context,
          key,
          errors: [],
          expected: undefined,
          keep,
          closed: false,
          dirty: false,
          sink,
          spare: null,
          dirtyPages: new WeakSet(),
        };
        context.on('close', () => (made.closed = true));
        context.on('page', (page) => {
          watchConsole(page, sink);
          for (const method of PAGE_LASTING) {
            const original = page[method].bind(page);
            page[method] = (...args) => (made.dirtyPages.add(page), original(...args));
          }
        });
        const newPage = context.newPage.bind(context);
        context.newPage = async () => {
          const spare = made.spare;
          made.spare = null;
          return spare && !spare.isClosed() ? spare : newPage();
        };
        // what cannot be undone for the next test marks the context to be closed after this one
        for (const method of LASTING) {
          const original = context[method].bind(context);
          context[method] = (...args) => ((made.dirty = true), original(...args));
        }
        entry = made;
      }
      entry.keep = keep;
      entry.expected = expected;
      open.add(entry);
      return entry.context;
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
