// The guided path through the page, in the articles' order, on the running example
// "tom chase jerry" (English → Chinese). Each stop is a link's fields (read by the page's link,
// web/shared/link/link.svelte.js, so a stop sets the page exactly as a link would), the element it
// talks about, and its texts' keys in strings.js. Plain data: the node tests read it as it is.

export const SENTENCE = 'tom chase jerry';

/**
 * @typedef {{
 *   id: string,
 *   link: Record<string, string>,
 *   spot?: string,
 *   sandbox?: boolean,
 *   findToken?: string,
 * }} Stop
 */
/** @type {Stop[]} */
export const STOPS = [
  {
    // one context for every step: the encoder–decoder before attention
    id: 'fixed',
    link: { view: 'decode', task: 'zh', model: 'none-bahdanau', input: SENTENCE, step: '0', reveal: '1' },
    spot: '[data-testid=fixed-context]',
  },
  {
    // where the fixed vector fails: the accuracy-by-length view on the reverse task
    id: 'length',
    link: { view: 'length', task: 'reverse' },
    // the chart itself: the view's top left it under the tour's panel
    spot: '[data-testid=length-chart]',
  },
  {
    // the three stages, on the step that writes 汤姆 (found in the decode, not assumed)
    id: 'stages',
    link: { view: 'decode', task: 'zh', model: 'additive-bahdanau', input: SENTENCE, step: '0' },
    spot: '[data-testid=formula-panel]',
    findToken: '汤姆',
  },
  {
    id: 'compare',
    link: { view: 'compare', task: 'zh', model: 'additive-bahdanau', input: SENTENCE },
    spot: '[data-testid=compare-zh-additive-bahdanau]',
  },
  {
    // Luong's query is the new state and its context goes into the attentional vector
    id: 'styles',
    link: { view: 'decode', task: 'zh', model: 'additive-luong', input: SENTENCE, step: '0' },
    spot: '[data-testid=state-panel]',
    findToken: '汤姆',
  },
  {
    // the sandbox's own example is Tom / chase / Jerry: the stop restores it
    id: 'sandbox',
    link: { view: 'sandbox', task: 'zh', input: SENTENCE },
    spot: '[data-testid=stages]',
    sandbox: true,
  },
  {
    // self-attention: layer 1, head 1, the query of "chase"
    id: 'self',
    link: { view: 'self', task: 'zh', model: 'additive-bahdanau-transformer', input: SENTENCE, sa: '0.0.1' },
    spot: '[data-testid=sa-lines]',
  },
  {
    // the Transformer decoder's cross-attention beside Bahdanau's alignment, head by head
    id: 'bridge',
    link: { view: 'compare', task: 'zh', model: 'additive-bahdanau', input: SENTENCE },
    spot: '[data-testid=bahdanau-transformer]',
  },
  {
    id: 'beam',
    link: { view: 'beam', task: 'zh', model: 'additive-bahdanau', input: SENTENCE, k: '3' },
    spot: '[data-testid=beam-tree]',
  },
];

/** The hash of a stop's own link: "#tour=3" (from 1). */
export const stopHash = (index) => `#tour=${index + 1}`;

/**
 * The stop a link's `tour=` asks for, from 0; null without one; NaN when it is not a stop.
 * @param {string} hash
 */
export function linkedStop(hash) {
  const params = new URLSearchParams(String(hash).replace(/^#/, ''));
  if (!params.has('tour')) return null;
  const asked = params.get('tour') ?? '';
  const n = /^\d{1,3}$/.test(asked) ? Number(asked) : NaN;
  return n >= 1 && n <= STOPS.length ? n - 1 : NaN;
}
