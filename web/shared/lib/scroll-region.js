// A box that scrolls sideways (a wide table, a heatmap, a formula on a phone): while its content
// is wider (or taller) than it, a keyboard can reach it (a Tab stop that the arrow keys scroll), a
// screen reader hears its name (a named group: not a landmark, which the card around it may be
// under the same name), and data-scrolls tells the styles to draw the cue (styles.css:
// a shadow on the side with more, the focus ring). A box whose content fits is left alone, so it
// is no empty Tab stop.
//
// Sizes are read only in one shared ResizeObserver's callback, all of them before any box is
// marked: there the browser has just laid the page out, so the reads cost nothing, while a read
// anywhere else (or after a mark) forces a layout of its own, and a view mounting dozens of these
// boxes paid for dozens of layouts. An element is reported once when first laid out, and again
// when it is observed afresh: that is how a new box, and a box whose content changed, are checked.

/** @typedef {{ node: HTMLElement, label: string }} Region */

/** @type {Map<Element, Region>} the box each observed element (a box or one of its children) stands for */
const regionOf = new Map();

/** @param {ResizeObserverEntry[]} entries */
function checkAll(entries) {
  const regions = new Set();
  for (const entry of entries) {
    const region = regionOf.get(entry.target);
    if (region) regions.add(region);
  }
  const scrolling = [...regions].map(({ node }) => {
    return node.scrollWidth > node.clientWidth + 1 || node.scrollHeight > node.clientHeight + 1;
  });
  [...regions].forEach((region, i) => mark(region, scrolling[i]));
}

/** @param {Region} region @param {boolean} scrolls */
function mark({ node, label }, scrolls) {
  if (scrolls) {
    node.tabIndex = 0;
    node.setAttribute('role', 'group');
    node.setAttribute('aria-label', label);
    node.dataset.scrolls = '';
  } else if ('scrolls' in node.dataset) {
    node.removeAttribute('tabindex');
    node.removeAttribute('role');
    node.removeAttribute('aria-label');
    delete node.dataset.scrolls;
  }
}

/** @type {ResizeObserver | null} made on first use: node tests import this module without a DOM */
let observer = null;

/**
 * Svelte action: `<div use:scrollRegion={name}>`.
 * @param {HTMLElement} node
 * @param {string} name what the box holds ("Scores in numbers")
 */
export function scrollRegion(node, name) {
  observer ??= new ResizeObserver(checkAll);
  const resized = observer;
  /** @type {Region} */
  const region = { node, label: name };
  /** @type {Element[]} */
  let watched = [];
  // the box, and its children for its content's size (a longer input, another step); observed
  // afresh when the children change, so that the box is checked again even if no size changed
  const watch = () => {
    for (const el of watched) {
      resized.unobserve(el);
      regionOf.delete(el);
    }
    watched = [node, ...node.children];
    for (const el of watched) {
      regionOf.set(el, region);
      resized.observe(el);
    }
  };
  watch();
  const changed = new MutationObserver(watch);
  changed.observe(node, { childList: true });
  return {
    /** @param {string} next */
    update(next) {
      region.label = next;
      if ('scrolls' in node.dataset) node.setAttribute('aria-label', next);
    },
    destroy() {
      changed.disconnect();
      for (const el of watched) {
        resized.unobserve(el);
        regionOf.delete(el);
      }
    },
  };
}
