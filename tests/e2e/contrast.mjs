// WCAG 2 contrast measured on the page's computed colours: every visible piece of text against
// the background it is drawn on (the nearest opaque background, through the opacities above it),
// and the SVG heatmap's cell numbers against their cells.

/** In the page: the text that falls short of `min` : 1, as "text (ratio)" strings. */
export function lowContrast(page, root = 'body', min = 4.5) {
  return page.evaluate(
    ([root, min]) => {
      const parse = (c) => {
        const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(c);
        return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])] : null;
      };
      const lum = ([r, g, b]) => {
        const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
      };
      const ratio = (a, b) => {
        const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
        return (x + 0.05) / (y + 0.05);
      };
      const over = (fg, bg, alpha) => fg.slice(0, 3).map((v, i) => v * alpha + bg[i] * (1 - alpha));
      const background = (el) => {
        for (let e = el; e; e = e.parentElement) {
          const c = parse(getComputedStyle(e).backgroundColor);
          if (c && c[3] > 0.5) return c;
        }
        return [255, 255, 255, 1];
      };
      const opacity = (el) => {
        let o = 1;
        for (let e = el; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity);
        return o;
      };
      const out = [];
      const seen = new Set();
      const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement;
        if (!el || seen.has(el) || !node.textContent.trim()) continue;
        seen.add(el);
        if (
          el.closest('.visually-hidden, .katex-mathml, [aria-hidden=true], :disabled, .stale, title, option')
        )
          continue;
        const box = el.getBoundingClientRect();
        if (box.width === 0 || box.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
        let fg, bg;
        if (el instanceof SVGTextElement) {
          fg = parse(getComputedStyle(el).fill);
          // a cell's number: the cell under it
          const x = box.left + box.width / 2;
          const y = box.top + box.height / 2;
          // the topmost filled rect under the text's middle (a cell, a chosen token's pill)
          const under = [...(el.ownerSVGElement?.querySelectorAll('rect') ?? [])].findLast((r) => {
            const b = r.getBoundingClientRect();
            const filled = parse(getComputedStyle(r).fill);
            return filled && filled[3] > 0.5 && b.left <= x && x <= b.right && b.top <= y && y <= b.bottom;
          });
          // or, where none is, what the picture sits on
          bg = under
            ? parse(getComputedStyle(under).fill)
            : background(el.ownerSVGElement ?? el.parentElement);
        } else {
          fg = parse(getComputedStyle(el).color);
          bg = background(el);
        }
        if (!fg || !bg) continue;
        const r = ratio(over(fg, bg, fg[3] * opacity(el)), bg);
        if (r < min) out.push(`${node.textContent.trim().slice(0, 30)} (${r.toFixed(2)})`);
      }
      return out;
    },
    [root, min],
  );
}

/** WCAG contrast of two CSS colours (in the page, so any CSS colour is read). */
export function contrastOf(page, a, b) {
  return page.evaluate(
    ([a, b]) => {
      const probe = (c) => {
        const el = document.createElement('span');
        el.style.color = c;
        document.body.append(el);
        const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)/.exec(getComputedStyle(el).color);
        el.remove();
        return m ? [1, 2, 3].map((i) => Number(m[i])) : [0, 0, 0];
      };
      const lum = ([r, g, b]) => {
        const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
      };
      const [x, y] = [lum(probe(a)), lum(probe(b))].sort((p, q) => q - p);
      return (x + 0.05) / (y + 0.05);
    },
    [a, b],
  );
}
