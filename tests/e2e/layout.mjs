// Geometry the layout checks share: how many lines a text or a row of boxes takes, and what
// reaches past the screen's right edge (every-view.test.mjs checks it in every view state).
/**
 * The lines a text takes: its text nodes' line boxes, told apart by their tops (an element's own
 * box is one rectangle however many lines its text wraps onto).
 */
export const linesOf = (page, selector) =>
  page.$$eval(selector, (els) =>
    els.map((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const tops = new Set(
        [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
      );
      return tops.size;
    }),
  );

/** How many lines the centres `ys` lie on (centres less than 12 px apart share one). */
export const lineCount = (ys) =>
  [...ys].sort((a, b) => a - b).filter((y, i, sorted) => i === 0 || y - sorted[i - 1] > 12).length;

/**
 * The page's width, the viewport's, and (the first five of) the elements that reach past the
 * viewport's right edge outside a box that scrolls or clips them: { scrollWidth, width, found }.
 */
export const pastTheEdge = (page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found = [];
    for (const el of document.querySelectorAll('body *')) {
      const box = el.getBoundingClientRect();
      if (!box.width || box.right <= width + 0.5) continue;
      // inside a box that scrolls or clips within the screen it does not widen the page
      let clipped = false;
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        const { overflowX } = getComputedStyle(up);
        if (overflowX !== 'visible' && up.getBoundingClientRect().right <= width + 0.5) {
          clipped = true;
          break;
        }
      }
      if (!clipped)
        found.push(`${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''} ${Math.round(box.right)}`);
    }
    return { scrollWidth: document.documentElement.scrollWidth, width, found: found.slice(0, 5) };
  });
