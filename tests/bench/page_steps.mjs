// How the page benchmarks time an interaction in headless Chromium, shared by them: from the
// input event's timeStamp (when the browser received the mouse-up) to the end of the first frame
// painted after the page shows the result. Once the result is in the DOM, a requestAnimationFrame
// callback posts a MessageChannel message, which runs when that frame's style, layout and paint
// are done. Split into
//   work = the event's handlers with Svelte's update (microtasks included) + that frame's rendering:
//          what the main thread spends (must fit a 16.7 ms frame to keep up at 60 Hz)
//   the rest, the wait for the frame's vsync, which no speed removes (0–16.7 ms).
// Playwright's click moves the mouse (which waits for a frame), then presses and releases at once,
// so every click lands at about the same point of a frame. The work misses the style and layout the
// browser may run between the handlers and that frame: they overlap the wait.
//
// The result is described by data, not a function (the page's Content-Security-Policy allows no
// eval): the element [data-testid=<testid>] exists and, when given, its `attribute` reads `value`
// and it has no class `notClass`.

/** The three stepping views, as the benchmarks open them. */
export const views = {
  decode: {
    hash: { view: 'decode', task: 'dates', model: 'additive-bahdanau', input: 'sunday, 29 nov. 2026' },
    shown: 'decode',
    step: 'step',
    // Back to step 0 when the decode has run to its end.
    rewind: (page) => page.locator('[data-testid=reset]').click(),
    ready: { testid: 'decode', attribute: 'data-step', notClass: 'stale' },
  },
  caption: {
    hash: { view: 'caption', cap: 'additive', scene: 'circle.red.small.16.7_square.blue.large.14.23' },
    shown: 'caption',
    step: 'caption-step',
    rewind: (page) => page.locator('body').press('Home'),
    ready: {
      testid: 'caption',
      attribute: 'data-scene',
      value: 'circle.red.small.16.7_square.blue.large.14.23',
    },
  },
  listen: {
    hash: {
      view: 'listen',
      lsc: 'additive',
      lcmp: '0',
      say: 'how much wood would a woodchuck chuck',
      lseed: '3',
      lrate: '1',
      lnoise: '0.1',
    },
    shown: 'listen',
    step: 'listen-step',
    rewind: (page) => page.locator('body').press('Home'),
    ready: { testid: 'listen', attribute: 'data-model', value: 'speech-additive-bahdanau' },
  },
};

export const viewUrl = (base, view) => `${base}#${new URLSearchParams(views[view].hash)}`;

/** In the page: whether the element described by `want` is shown (see the top of the file). */
export function isShown(want) {
  const el = document.querySelector(`[data-testid=${want.testid}]`);
  if (!el) return false;
  if (want.attribute && want.value !== undefined && el.getAttribute(want.attribute) !== want.value)
    return false;
  if (want.attribute && want.value === undefined && !el.hasAttribute(want.attribute)) return false;
  return !(want.notClass && el.classList.contains(want.notClass));
}

/** Waits until the view `view` is open and ready for its first step. */
export async function waitReady(page, view, timeout = 60_000) {
  await page.waitForFunction(isShown, views[view].ready, { timeout, polling: 50 });
}

// Installed in the page: window.__arm(type, want) times the next `type` event until `want` is
// shown and the frame after it painted; resolves to the marks of that interaction.
// `shown` is isShown, passed in as source text of the evaluated expression (instrumentPage).
function instrument(shown) {
  window.__arm = (type, want) =>
    new Promise((resolve) => {
      const m = {};
      document.addEventListener(
        type,
        (event) => {
          m.input = event.timeStamp;
          m.start = performance.now();
        },
        { capture: true, once: true },
      );
      // after every listener of the event and the microtasks (Svelte's flush) each one queued
      window.addEventListener(type, () => (m.handled = performance.now()), { once: true });
      const painted = () =>
        requestAnimationFrame(() => {
          m.frame = performance.now();
          const channel = new MessageChannel();
          channel.port1.onmessage = () => {
            m.painted = performance.now();
            resolve(m);
          };
          channel.port2.postMessage(0);
        });
      let done = false;
      const check = () => {
        if (done || m.input === undefined || !shown(want)) return;
        done = true;
        observer.disconnect();
        painted();
      };
      const observer = new MutationObserver(check);
      observer.observe(document.body, { attributes: true, childList: true, subtree: true });
      window.addEventListener(type, () => queueMicrotask(check), { once: true });
    });
}

/** Makes window.__arm available in the page (once per page load). */
export async function instrumentPage(page) {
  await page.evaluate(`(${instrument})(${isShown})`);
}

/**
 * Times one interaction: `act()` (a click, a key press) is the event of `type`; done when `want`
 * is shown. Returns { total, work } in ms.
 */
export async function timeInteraction(page, act, want, type = 'click') {
  const done = page.evaluate(([type, want]) => window.__arm(type, want), [type, want]);
  await act();
  const m = await done;
  return { total: m.painted - m.input, work: m.handled - m.start + (m.painted - m.frame) };
}

/**
 * `count` step clicks in the open view (after 3 warm-up clicks for the JIT and the fonts), each
 * timed to the next step painted; the view rewinds when it reaches its end. 50 ms pass between
 * clicks, so deferred work of one (the URL's update) does not fall on the next.
 */
export async function stepClicks(page, view, count) {
  const v = views[view];
  const shown = `[data-testid=${v.shown}]`;
  const totals = [];
  const work = [];
  for (let i = 0; i < count + 3; i++) {
    if (await page.locator(`[data-testid=${v.step}]`).isDisabled()) {
      await v.rewind(page);
      await page.waitForFunction((s) => document.querySelector(s)?.getAttribute('data-step') === '0', shown);
    }
    const next = String(Number(await page.locator(shown).getAttribute('data-step')) + 1);
    const want = { testid: v.shown, attribute: 'data-step', value: next, notClass: 'stale' };
    const m = await timeInteraction(page, () => page.locator(`[data-testid=${v.step}]`).click(), want);
    if (i >= 3) {
      totals.push(m.total);
      work.push(m.work);
    }
    await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
  }
  return { totals, work };
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const worst = (xs) => Math.max(...xs);
