// The Listen view's state: the audio module's Worker (started only when the view first opens), the
// speech models, the utterance asked for (phrase, seed, speaking rate, noise) and the engine's
// transcript of it, the step shown and the sound playing. Every number shown comes from an engine
// answer; the page only keeps what was asked and draws.
import * as Comlink from 'comlink';
import { checkpoints } from './checkpoints.js';
import { hashParts } from './url.js';
import { readError } from '../lib/errors.js';

/** @typedef {import('../listen/listen').ListenApi} ListenApi */
/** @typedef {import('../listen/listen').Listened} Listened */

const TASK = 'speech';
const params = new URLSearchParams(typeof location === 'undefined' ? '' : location.hash.replace(/^#/, ''));

// content-based first, then location-aware, then any other score function a build ships
const ORDER = ['additive', 'location'];
const rank = (score) => (ORDER.includes(score) ? ORDER.indexOf(score) : ORDER.length);

/** The speech models this build ships, by score function: "speech-location-bahdanau" → "location". */
export const speechModels = Object.keys(checkpoints)
  .map((name) => ({ name, score: new RegExp(`^${TASK}-(\\w+)-bahdanau$`).exec(name)?.[1] ?? '' }))
  .filter((m) => m.score)
  .sort((a, b) => rank(a.score) - rank(b.score) || a.score.localeCompare(b.score));

export const WOODCHUCK = 'how much wood would a woodchuck chuck if a woodchuck could chuck wood';
const DEFAULT_PHRASE = 'how much wood would a woodchuck chuck';

const linkedScore = params.get('lsc') ?? '';
const DEFAULT_SCORE =
  (speechModels.find((m) => m.score === 'additive') ?? speechModels[0])?.score ?? 'additive';
const number = (key, fallback) => {
  const x = Number(params.get(key));
  return params.has(key) && Number.isFinite(x) ? x : fallback;
};
const linkedStep = number('lstep', 0);

export const listen = $state({
  /** @type {'closed' | 'loading' | 'ready' | 'failed'} the audio module's Worker */
  status: 'closed',
  error: '',
  /** @type {string[]} the words the synthesizer knows */
  lexicon: [],
  /** @type {import('../../wasm/audio/audio').AudioLimits | null} */
  limits: null,
  /** @type {Record<string, { status: 'loading' | 'ready' | 'failed', info: any, error: string }>} */
  models: {},
  /** a speech model trained in the Train view (its name), shown instead of a shipped one; '' for none */
  trained: '',
  score: speechModels.some((m) => m.score === linkedScore) ? linkedScore : DEFAULT_SCORE,
  /** whether every shipped speech model hears the utterance side by side */
  compare: params.has('lcmp') ? params.get('lcmp') === '1' : speechModels.length > 1,
  /** what to say: the phrase typed, and the synthesizer's seed, rate and noise */
  phrase: (params.get('say') ?? DEFAULT_PHRASE).slice(0, 300),
  seed: Math.max(0, Math.min(1e9, Math.round(number('lseed', 1)))),
  rate: number('lrate', 1),
  noise: number('lnoise', 0.1),
  /** @type {import('../listen/listen').UtteranceShown | null} the engine's utterance of the results */
  utterance: null,
  /** @type {Record<string, Listened>} model name → its transcript of the utterance */
  results: {},
  /** @type {'idle' | 'running' | 'ready' | 'error'} */
  run: 'idle',
  /** @type {import('../lib/errors.js').Failure | null} why the last request was refused */
  failure: null,
  /** what the results shown were asked for (phrase, seed, rate, noise) */
  shownKey: '',
  step: Number.isInteger(linkedStep) && linkedStep >= 0 ? Math.min(linkedStep, 1e4) : 0,
  playing: false,
  /** the sound: playing, and the frame under the playhead (−1 when none) */
  sound: false,
  playhead: -1,
  /** the last AudioBuffer's length and rate (samples; Hz), for the person and the browser test */
  bufferLength: 0,
  bufferRate: 0,
});

export const modelName = (score) => `${TASK}-${score}-bahdanau`;
export const currentName = () => listen.trained || modelName(listen.score);
export const currentResult = () => listen.results[currentName()] ?? null;

/** The bytes of the speech models the Train view opened here, by name (read by loadSpeechModel). */
const trainedBytes = new Map();

/**
 * Shows a speech model trained in the Train view (its .safetensors bytes) instead of a shipped one.
 * @param {string} name a name unique to this model
 * @param {string} score its score function
 * @param {Uint8Array} bytes
 */
export function openTrainedSpeech(name, score, bytes) {
  trainedBytes.set(name, bytes);
  listen.trained = name;
  listen.score = score;
  listen.compare = false;
  requestListen();
}

/** @type {Comlink.Remote<ListenApi> | null} */
let remote = null;

/** Starts the audio module's Worker (once): only the Listen view calls it, when it opens. */
export async function openListen() {
  if (remote) return;
  listen.status = 'loading';
  const worker = new Worker(new URL('../listen/worker.js', import.meta.url), {
    type: 'module',
    name: 'audio',
  });
  remote = Comlink.wrap(worker);
  /** @type {Promise<never>} */
  const failed = new Promise((_, reject) =>
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      reject(new Error(event.message || 'the audio worker failed to start'));
    }),
  );
  try {
    const info = await Promise.race([remote.init(), failed]);
    listen.lexicon = info.lexicon;
    listen.limits = info.limits;
    listen.status = 'ready';
  } catch (error) {
    listen.status = 'failed';
    listen.error = readError(error).message;
    return;
  }
  requestListen();
}

/** Loads a speech model into the Worker once (its checkpoint fetched when first needed). */
async function loadSpeechModel(name) {
  if (listen.models[name]) return;
  listen.models[name] = { status: 'loading', info: null, error: '' };
  try {
    const held = trainedBytes.get(name);
    const url = checkpoints[name];
    if (!held && !url) throw new Error(`there is no checkpoint ${name}.safetensors in this build`);
    const response = held ? null : await fetch(new URL(url, document.baseURI));
    if (response && !response.ok)
      throw new Error(`the server answered ${response.status} ${response.statusText}`.trim());
    // a copy of a trained model's bytes: the transfer detaches what it sends
    const bytes = held ? held.slice().buffer : await /** @type {Response} */ (response).arrayBuffer();
    const info = await /** @type {Comlink.Remote<ListenApi>} */ (remote).loadModel(
      name,
      Comlink.transfer(bytes, [bytes]),
    );
    listen.models[name] = { status: 'ready', info, error: '' };
  } catch (error) {
    listen.models[name] = { status: 'failed', info: null, error: `${name}: ${readError(error).message}` };
  }
}

/** The models the view shows: the chosen one, and with compare every shipped one. */
const wanted = () => (listen.compare && !listen.trained ? speechModels.map((m) => m.name) : [currentName()]);

const keyOf = () => JSON.stringify([listen.phrase, listen.seed, listen.rate, listen.noise]);

// One request in flight at a time: while the engine answers one (a slider dragged), later changes
// collapse into one follow-up request of the newest values instead of queueing behind it.
let inFlight = false;
let again = false;

export function requestListen() {
  if (listen.status !== 'ready') return;
  if (inFlight) {
    again = true;
    return;
  }
  void askEngine();
}

async function askEngine() {
  inFlight = true;
  again = false;
  const names = wanted();
  const key = keyOf();
  const input = { phrase: listen.phrase, seed: listen.seed, rate: listen.rate, noise: listen.noise };
  listen.run = 'running';
  try {
    await Promise.all(names.map(loadSpeechModel));
    // without a model the utterance is still made, shown and played
    const ready = names.filter((n) => listen.models[n]?.status === 'ready');
    const answer = await /** @type {Comlink.Remote<ListenApi>} */ (remote).listen(ready, input, { topK: 5 });
    if (key !== listen.shownKey) stopSound();
    listen.utterance = answer.utterance;
    listen.results = answer.models;
    listen.run = 'ready';
    listen.failure = null;
    const steps = answer.models[currentName()]?.steps.length ?? 0;
    listen.step = Math.max(0, Math.min(listen.step, steps - 1));
    listen.shownKey = key;
  } catch (error) {
    listen.run = 'error';
    listen.failure = readError(error);
  } finally {
    inFlight = false;
    if (again) requestListen();
  }
}

/** Sets what to say (any of phrase, seed, rate, noise) and asks the engine again. */
export function say(change) {
  Object.assign(listen, change);
  requestListen();
}

export function setScore(score) {
  if (!speechModels.some((m) => m.score === score) || (listen.score === score && !listen.trained)) return;
  listen.trained = '';
  listen.score = score;
  if (!listen.results[currentName()]) requestListen();
}

export function setCompare(on) {
  listen.compare = on;
  if (on) requestListen();
}

export function goTo(step) {
  const last = (currentResult()?.steps.length ?? 1) - 1;
  listen.step = Math.max(0, Math.min(step, last));
}

export function togglePlay() {
  const last = (currentResult()?.steps.length ?? 1) - 1;
  if (!listen.playing && listen.step >= last) goTo(0);
  listen.playing = !listen.playing;
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

/** The view's part of the link: model, step, compare and what was said. */
function listenLink() {
  // each with what the state reads without it: a field at that value is left out of the link
  /** @type {import('./url.js').LinkField[]} */
  const out = [
    ['lsc', listen.score, DEFAULT_SCORE],
    ['lstep', String(listen.step), '0'],
    ['say', listen.phrase, DEFAULT_PHRASE],
    ['lseed', String(listen.seed), '1'],
    ['lrate', String(listen.rate), '1'],
    ['lnoise', String(listen.noise), '0.1'],
  ];
  if (listen.compare !== speechModels.length > 1) out.push(['lcmp', listen.compare ? '1' : '0']);
  return out;
}
hashParts.push(listenLink);
