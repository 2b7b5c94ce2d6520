// The Listen view's texts write a subscript as TeX does (f_j, α_{i−1}): split into plain text
// and subscripts, for <sub> in the markup, so a learner reads fⱼ, not "f_j".

/**
 * @param {string} text
 * @returns {{ text: string, sub: boolean }[]}
 */
export function subscriptParts(text) {
  const parts = [];
  let at = 0;
  for (const m of text.matchAll(/(?<=[\p{L}′])_(?:\{([^}]*)\}|([\p{L}\p{N}]))/gu)) {
    const i = /** @type {number} */ (m.index);
    if (i > at) parts.push({ text: text.slice(at, i), sub: false });
    parts.push({ text: m[1] ?? m[2], sub: true });
    at = i + m[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), sub: false });
  return parts;
}
