// A box that scrolls sideways (a wide table, a heatmap, a formula on a phone): while its content
// is wider (or taller) than it, a keyboard can reach it (a Tab stop that the arrow keys scroll), a
// screen reader hears its name (a named group: not a landmark, which the card around it may be
// under the same name), and data-scrolls tells the styles to draw the cue (styles.css:
// a shadow on the side with more, the focus ring). A box whose content fits is left alone, so it
// is no empty Tab stop.

/**
 * Svelte action: `<div use:scrollRegion={name}>`.
 * @param {HTMLElement} node
 * @param {string} name what the box holds ("Scores in numbers")
 */
export function scrollRegion(node, name) {
  let label = name;
  const check = () => {
    const scrolls = node.scrollWidth > node.clientWidth + 1 || node.scrollHeight > node.clientHeight + 1;
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
  };
  const resized = new ResizeObserver(check);
  resized.observe(node);
  // the content's size changes too (a longer input, another step): its first child stands for it
  for (const child of node.children) resized.observe(child);
  const changed = new MutationObserver(check);
  changed.observe(node, { childList: true });
  check();
  return {
    /** @param {string} next */
    update(next) {
      label = next;
      if ('scrolls' in node.dataset) node.setAttribute('aria-label', label);
      check();
    },
    destroy() {
      resized.disconnect();
      changed.disconnect();
    },
  };
}
