// The Listen view's state: the audio module's Worker (started only when the view first opens), the
// speech models, the utterance asked for (phrase, seed, speaking rate, noise) and the engine's
// transcript of it, the step shown and the sound playing. Every number shown comes from an engine
// answer; the page only keeps what was asked and draws.
import { declareLink } from '../../shared/link/link.svelte.js';
import {
  moduleEngine,
  moduleFields,
  moduleLinkFields,
  shippedModels,
} from '../../shared/stepping/module-engine.svelte.js';
import { Stepper } from '../../shared/stepping/stepper.svelte.js';

/** @typedef {import('./listen').ListenApi} ListenApi */
/** @typedef {import('./listen').Listened} Listened */

/** The speech models this build ships, by score function: "speech-location-bahdanau" → "location". */
// in the order of the score-function keys (Decode's: 1 dot … 7 location), so the pills read 1, 2, …
export const speechModels = shippedModels('speech');

export const WOODCHUCK = 'how much wood would a woodchuck chuck if a woodchuck could chuck wood';
const DEFAULT_PHRASE = 'how much wood would a woodchuck chuck';

const MAX_LINK_PHRASE = 300;
// every model side by side when there are several, unless the link says
const COMPARE = speechModels.length > 1;

export const listen = $state({
  .../** @type {import('../../shared/stepping/module-engine.svelte.js').ModuleState<Listened>} */ (
    moduleFields(speechModels, COMPARE)
  ),
  /** @type {string[]} the words the synthesizer knows */
  lexicon: [],
  /** @type {import('../../../wasm/audio/audio').AudioLimits | null} */
  limits: null,
  /** what to say: the phrase typed, and the synthesizer's seed, rate and noise */
  phrase: DEFAULT_PHRASE,
  seed: 1,
  rate: 1,
  noise: 0.1,
  /** @type {import('./listen').UtteranceShown | null} the engine's utterance of the results */
  utterance: null,
  /** @type {import('../../shared/lib/errors.js').Failure | null} why the last request was refused */
  failure: null,
  /** the sound: playing, and the frame under the playhead (−1 when none) */
  sound: false,
  playhead: -1,
  /** the last AudioBuffer's length and rate (samples; Hz), for the person and the browser test */
  bufferLength: 0,
  bufferRate: 0,
});

/** The letter shown of the current model's transcript (play writes one letter each 350 ms). */
export const stepper = new Stepper(() => currentResult()?.steps.length ?? 0, { speed: 350 });

const engine = moduleEngine(listen, stepper, {
  task: 'speech',
  models: speechModels,
  worker: () => new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'audio' }),
  workerFailed: 'the audio worker failed to start',
  init(info) {
    listen.lexicon = info.lexicon;
    listen.limits = info.limits;
  },
  // a trained model is heard alone
  compareWhileTrained: false,
  // without a model the utterance is still made, shown and played
  noModel: null,
  question: () => ({
    key: JSON.stringify([listen.phrase, listen.seed, listen.rate, listen.noise]),
    input: { phrase: listen.phrase, seed: listen.seed, rate: listen.rate, noise: listen.noise },
  }),
  ask: (remote, names, input) =>
    /** @type {import('comlink').Remote<ListenApi>} */ (remote).listen(names, input, { topK: 5 }),
  shown(answer, key) {
    if (key !== listen.shownKey) stopSound();
    listen.utterance = answer.utterance;
    listen.failure = null;
  },
  failed(failure) {
    listen.failure = failure;
  },
});

export const {
  modelName,
  currentName,
  currentResult,
  setScore,
  setCompare,
  request: requestListen,
  /** Starts the audio module's Worker (once): only the Listen view calls it, when it opens. */
  open: openListen,
  /** Shows a speech model trained in the Train view (its .safetensors bytes) instead of a shipped one. */
  openTrained: openTrainedSpeech,
  /** The step shown as the engine's Python file that recomputes it with NumPy. */
  stepPython,
} = engine;

/** Sets what to say (any of phrase, seed, rate, noise) and asks the engine again. */
export function say(change) {
  Object.assign(listen, change);
  requestListen();
}

/** @type {(() => void) | null} */
let stopper = null;
/** Registers how to stop the sound (the view's player), so a new utterance stops the old one. */
export function onStopSound(stop) {
  stopper = stop;
}
function stopSound() {
  stopper?.();
}

// A number of the link, or what the state holds without it.
const linkNumber = (text, fallback) => ({
  value: text !== '' && Number.isFinite(Number(text)) ? Number(text) : fallback,
});

// The synthesizer's seed, rate and noise: each a number of the link, read and written alike.
/**
 * @param {string} key
 * @param {'seed' | 'rate' | 'noise'} field
 * @param {number} fallback
 */
const linkedNumber = (key, field, fallback, parse = linkNumber) => ({
  key,
  get: () => listen[field],
  set: (value) => (listen[field] = value),
  parse,
  fallback: () => fallback,
});

// The view's part of the link: model, step, compare and what was said.
declareLink('listen', [
  ...moduleLinkFields(
    listen,
    stepper,
    { score: 'lsc', step: 'lstep', compare: 'lcmp' },
    speechModels,
    COMPARE,
  ),
  {
    key: 'say',
    get: () => listen.phrase,
    set: (phrase) => (listen.phrase = phrase),
    parse: (text) => ({ value: text.slice(0, MAX_LINK_PHRASE) }),
    fallback: () => DEFAULT_PHRASE,
  },
  linkedNumber('lseed', 'seed', 1, (text, fallback) => ({
    value: Math.max(0, Math.min(1e9, Math.round(linkNumber(text, fallback).value))),
  })),
  linkedNumber('lrate', 'rate', 1),
  linkedNumber('lnoise', 'noise', 0.1),
]);
