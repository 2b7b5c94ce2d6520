// The head what-ifs as changes to the decode's list of what-ifs (whatif-link.js has their form):
// each takes the list and gives the new one, so whatif.svelte.js's editWhatIfs applies them and
// node tests read them without a page. Setting what is already set at that step takes it back.

/** @typedef {import('../../../shared/text/whatif-link.js').WhatIf} WhatIf */

const onHead = (w, step, layer, head) =>
  'layer' in w && w.step === step && w.layer === layer && w.head === head;

/**
 * Masks source token `j` for one head from `step` on, or (when it is masked there for that head)
 * unmasks it.
 * @param {WhatIf[]} items
 */
export function toggleHeadMask(items, step, layer, head, j, maskedNow) {
  const [same, opposite] = maskedNow ? ['headMask', 'headUnmask'] : ['headUnmask', 'headMask'];
  const here = items.findIndex(
    (w) => w.kind === same && onHead(w, step, layer, head) && 'token' in w && w.token === j,
  );
  if (here >= 0) return items.filter((_, k) => k !== here);
  return [...items, /** @type {WhatIf} */ ({ kind: opposite, step, layer, head, token: j })];
}

/**
 * Pins one head's weights one-hot on source token `j` at `step` (again: the pin is taken back).
 * @param {WhatIf[]} items
 */
export function pinHead(items, step, layer, head, j) {
  const isPin = (w) => w.kind === 'headPin' && onHead(w, step, layer, head);
  const again = items.some((w) => isPin(w) && 'token' in w && w.token === j);
  const rest = items.filter((w) => !isPin(w));
  return again ? rest : [...rest, /** @type {WhatIf} */ ({ kind: 'headPin', step, layer, head, token: j })];
}

/**
 * Switches one head off from `step` on, or (when it is off there) back on.
 * @param {WhatIf[]} items
 */
export function toggleHeadOff(items, step, layer, head, offNow) {
  const [same, opposite] = offNow ? ['headOff', 'headOn'] : ['headOn', 'headOff'];
  const here = items.findIndex((w) => w.kind === same && onHead(w, step, layer, head));
  if (here >= 0) return items.filter((_, k) => k !== here);
  return [...items, /** @type {WhatIf} */ ({ kind: opposite, step, layer, head })];
}
