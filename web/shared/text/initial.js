// What the page starts from: the defaults, overridden field by field by the address's hash (a
// reload or a shared link restores the view). Read once, when the page loads.
import { exampleSandbox } from '../../features/sandbox/example.js';
import { readDecodeUrl, readUrl } from '../link/url.js';

export const decodeDefaults = {
  view: 'decode',
  task: 'zh',
  score: 'additive',
  style: 'bahdanau',
  /** 'gru' (BiGRU) or 'transformer' (shipped for additive Bahdanau on zh and dates) */
  encoder: 'gru',
  input: 'tom chase jerry',
  step: 0,
  /** @type {[number, number][]} [step, tokenId]: the tokens forced (what-if) */
  forces: [],
  beamWidth: 3,
  /** the output after the current step shown (not decoded yet) */
  reveal: false,
  /** the self-attention view's [layer, head, token] */
  selfAttention: [0, 0, 0],
};

/** What the link asked for that the page could not show, each with what it shows instead. */
export const initialNotes = /** @type {(string | import('../i18n/translate.js').Text)[]} */ ([]);
export const initialDecode = readDecodeUrl(location.hash, decodeDefaults, initialNotes);
export const initialSandbox = readUrl(location.hash, exampleSandbox());
