// Every view of the page in a state that shows its parts (a decode part-way, the what-ifs listed,
// a Why-attention bucket hovered), with how to tell it is ready: what the layout and language
// checks walk through.
import { waitForStep } from './browser.mjs';
import { showTrainSettings } from './train-page.mjs';

const ready =
  (selector, timeout = 90_000) =>
  (page) =>
    page.waitForSelector(selector, { state: 'attached', timeout });

const WHATIF_INPUT = 'tom chased jerry in the kitchen';

/**
 * @type {{ name: string, id: string, hash: Record<string, string>, plain?: boolean,
 *   ready: (page: import('playwright-core').Page) => Promise<unknown> }[]}
 * plain: opened with no link at all (a first visit), in the browser's language
 */
export const VIEW_STATES = [
  {
    name: 'decode',
    id: 'decode',
    hash: { task: 'zh', model: 'additive-bahdanau', input: 'tom chase jerry', step: '1' },
    ready: (page) => waitForStep(page, 'zh-additive-bahdanau', 1, 30_000),
  },
  {
    name: 'compare',
    id: 'compare',
    hash: { task: 'zh', input: 'tom chase jerry' },
    ready: ready('[data-testid^=cmp-]'),
  },
  {
    name: 'beam',
    id: 'beam',
    hash: { task: 'zh', input: 'tom chase jerry' },
    ready: ready('[data-testid=beam-0]'),
  },
  {
    name: 'self',
    id: 'self',
    hash: { task: 'zh', input: 'tom chase jerry' },
    ready: ready('[data-testid=sa-detail]'),
  },
  { name: 'sandbox', id: 'sandbox', hash: {}, ready: ready('[data-testid=stages]') },
  { name: 'train', id: 'train', hash: {}, ready: ready('[data-testid=train-start]:not([disabled])') },
  { name: 'caption', id: 'caption', hash: {}, ready: ready('[data-testid=caption][data-model]') },
  { name: 'listen', id: 'listen', hash: {}, ready: ready('[data-testid=listen][data-model]') },
  // the what-ifs: a mask, a pin and a temperature, so the panel lists each, the stages carry their
  // mark and the formula view its note
  {
    name: 'decode-whatif',
    id: 'decode',
    hash: { task: 'zh', model: 'additive-bahdanau', input: WHATIF_INPUT, step: '3', wi: 'm2@1,p0@3,t0.5@2' },
    ready: (page) => waitForStep(page, 'zh-additive-bahdanau', 3, 30_000),
  },
  {
    name: 'compare-whatif',
    id: 'compare',
    hash: { task: 'zh', model: 'additive-bahdanau', input: WHATIF_INPUT, wi: 'm2@1' },
    ready: ready('[data-testid^=whatif-list-]'),
  },
  // the encoder–decoder Transformer at its third step: the heads' grid, one head's three stages
  // and the causal triangle
  {
    name: 'decode-transformer',
    id: 'decode',
    hash: { task: 'dates', model: 'transformer', input: '29 november 2026', step: '3' },
    ready: ready('[data-testid=transformer-step][data-head]'),
  },
  // Train after two short runs: the curves, the predictions, the cards with their probes and the
  // kept models (the second call, after the switch of language, finds the runs done)
  {
    name: 'train-done',
    id: 'train',
    hash: { 'tr-task': 'dates', 'tr-scores': 'dot,additive', 'tr-steps': '25' },
    ready: async (page) => {
      if (!(await page.$('[data-testid=run-dot]'))) {
        await ready('[data-testid=train-start]:not([disabled])')(page);
        await showTrainSettings(page);
        await page.click('[data-testid=train-start]');
      }
      for (const score of ['dot', 'additive'])
        await ready(`[data-testid=run-${score}][data-status=done] [data-testid=run-${score}-kept]`)(page);
    },
  },
  // a first visit: the page opened with no link points to the tour above Decode
  { name: 'welcome', id: 'decode', hash: {}, plain: true, ready: ready('[data-testid=welcome]') },
  // the tour's bar at a stop that steps the decode
  {
    name: 'tour',
    id: 'decode',
    hash: { tour: '3' },
    ready: ready('[data-testid=tour] [data-testid=tour-leave]'),
  },
  // evaluated in its Worker; a hovered bucket shows its numbers
  {
    name: 'length',
    id: 'length',
    hash: { task: 'reverse' },
    ready: async (page) => {
      await ready('[data-testid=length-summary]')(page);
      await page.hover('[data-testid=length-bucket-9]');
    },
  },
];
