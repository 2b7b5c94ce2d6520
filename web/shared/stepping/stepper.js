// What the Caption and Listen views' states share: a view that steps through the answers of an
// engine module loaded lazily in its own Worker (the image module, the audio module). The view
// keeps one $state object made from `stepperFields` plus its own fields, and `createStepper` gives
// it the Worker's start, the models' checkpoints loaded once into the Worker, one engine request in
// flight at a time, and the choice of model and step. What to ask the engine and what to keep of
// its answer stay with the view.
import * as Comlink from 'comlink';
import { checkpoints } from '../engine/checkpoints.js';
import { readError } from '../lib/errors.js';
import { SCORES } from '../text/tasks.js';

/** The link's fields when the page loaded (the views read their own from it). */
export const linkParams = () =>
  new URLSearchParams(typeof location === 'undefined' ? '' : location.hash.replace(/^#/, ''));

/**
 * The models of `task` this build ships, by score function ("speech-location-bahdanau" →
 * "location"): the score functions of `order` first in its order, any other after by name.
 * @param {string} task
 * @param {string[]} order
 * @returns {{ name: string, score: string }[]}
 */
export function shippedModels(task, order) {
  const rank = (score) => (order.includes(score) ? order.indexOf(score) : order.length);
  return Object.keys(checkpoints)
    .map((name) => ({ name, score: new RegExp(`^${task}-(\\w+)-bahdanau$`).exec(name)?.[1] ?? '' }))
    .filter((m) => m.score)
    .sort((a, b) => rank(a.score) - rank(b.score) || a.score.localeCompare(b.score));
}

/**
 * What every stepper state holds.
 * @template R the engine's answer for one model
 * @typedef {{
 *   status: 'closed' | 'loading' | 'ready' | 'failed',
 *   error: string,
 *   models: Record<string, { status: 'loading' | 'ready' | 'failed', info: any, error: string }>,
 *   trained: string,
 *   score: string,
 *   compare: boolean,
 *   results: Record<string, R>,
 *   run: 'idle' | 'running' | 'ready' | 'error',
 *   shownKey: string,
 *   step: number,
 *   playing: boolean,
 * }} StepperState
 */

/**
 * The names of a stepper's fields in the link.
 * @typedef {{ score: string, step: string, compare: string }} StepperLink
 */

/**
 * The score shown when the link names none (or one not shipped): additive, else the first shipped.
 * @param {{ score: string }[]} models
 */
const defaultScore = (models) =>
  (models.find((m) => m.score === 'additive') ?? models[0])?.score ?? 'additive';

/**
 * The fields every stepper state has, to spread into the view's $state: the model, step and
 * compare the link asks for (a model this build does not ship, or a step that is not a whole
 * number, falls back to additive and 0; the step is clamped once the engine has answered).
 * @template R
 * @param {{ name: string, score: string }[]} models the shipped ones
 * @param {StepperLink} link
 * @param {boolean} compareDefault compare when the link does not say
 * @returns {StepperState<R>}
 */
export function stepperFields(models, link, compareDefault) {
  const params = linkParams();
  const score = params.get(link.score) ?? '';
  const step = Number(params.get(link.step));
  return {
    // the module's Worker
    status: 'closed',
    error: '',
    models: {},
    // a model trained in the Train view (its name), shown instead of a shipped one; '' for none
    trained: '',
    // the score function of the model shown
    score: models.some((m) => m.score === score) ? score : defaultScore(models),
    // whether every shipped model's answer is shown side by side
    compare: params.has(link.compare) ? params.get(link.compare) === '1' : compareDefault,
    // model name → the engine's answer
    results: {},
    run: 'idle',
    // what the results shown were asked for
    shownKey: '',
    // the step shown
    step: Number.isInteger(step) && step >= 0 ? Math.min(step, 1e4) : 0,
    playing: false,
  };
}

/**
 * The stepper's part of the link: model, step, and compare when it is not the default.
 * @param {StepperState<unknown>} state
 * @param {StepperLink} link
 * @param {boolean} compareDefault
 * @param {{ score: string }[]} models the shipped models (the score a link without one shows)
 * @returns {import('../link/url.js').LinkField[]}
 */
export function stepperLink(state, link, compareDefault, models) {
  // each with what the state reads without it: a field at that value is left out of the link
  /** @type {import('../link/url.js').LinkField[]} */
  const out = [
    [link.score, state.score, defaultScore(models)],
    [link.step, String(state.step), '0'],
  ];
  if (state.compare !== compareDefault) out.push([link.compare, state.compare ? '1' : '0']);
  return out;
}

/**
 * The stepper's functions over `state` (a $state made with stepperFields).
 * @template {{ steps: unknown[] }} R the engine's answer for one model
 * @template Q what one request asks (the view's input)
 * @template {{ models: Record<string, R> }} A the engine's answer to one request
 * @param {StepperState<R>} state
 * @param {{
 *   task: string,
 *   models: { name: string, score: string }[],
 *   worker: () => Worker,
 *   workerFailed: string,
 *   init: (info: any) => void,
 *   compareWhileTrained: boolean,
 *   noModel: string | null,
 *   question: () => { key: string, input: Q },
 *   ask: (remote: any, names: string[], input: Q) => Promise<A>,
 *   shown: (answer: A, key: string) => void,
 *   failed: (failure: import('../lib/errors.js').Failure) => void,
 * }} view
 *   worker starts the module's Worker (a `new Worker(new URL(…))` in the view's file, so the
 *   bundler finds it) and workerFailed is its message when it cannot start; init keeps what the
 *   module's init answered; compareWhileTrained: compare shows the shipped models also while a
 *   trained one is shown; noModel: the message when none of the models asked for loaded (null:
 *   the request is made without them); question: what to ask the engine (input) and the same as
 *   a string (key), read when the request starts; ask makes the request (remote: the Worker);
 *   shown keeps the view's part of an answer; failed keeps why a request failed.
 */
export function createStepper(state, view) {
  const modelName = (score) => `${view.task}-${score}-bahdanau`;
  const currentName = () => state.trained || modelName(state.score);
  const currentResult = () => state.results[currentName()] ?? null;

  /** The bytes of the models the Train view opened here, by name (read by loadModel). */
  const trainedBytes = new Map();

  /** @type {Comlink.Remote<any> | null} */
  let remote = null;

  /** Starts the module's Worker (once): only the view calls it, when it opens. */
  async function open() {
    if (remote) return;
    state.status = 'loading';
    const worker = view.worker();
    remote = Comlink.wrap(worker);
    /** @type {Promise<never>} */
    const failed = new Promise((_, reject) =>
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        reject(new Error(event.message || view.workerFailed));
      }),
    );
    try {
      view.init(await Promise.race([remote.init(), failed]));
      state.status = 'ready';
    } catch (error) {
      state.status = 'failed';
      state.error = readError(error).message;
      return;
    }
    request();
  }

  /** Loads a model into the Worker once (its checkpoint fetched when first needed). */
  async function loadModel(name) {
    if (state.models[name]) return;
    state.models[name] = { status: 'loading', info: null, error: '' };
    try {
      const held = trainedBytes.get(name);
      const url = checkpoints[name];
      if (!held && !url) throw new Error(`there is no checkpoint ${name}.safetensors in this build`);
      const response = held ? null : await fetch(new URL(url, document.baseURI));
      if (response && !response.ok)
        throw new Error(`the server answered ${response.status} ${response.statusText}`.trim());
      // a copy of a trained model's bytes: the transfer detaches what it sends
      const bytes = held ? held.slice().buffer : await /** @type {Response} */ (response).arrayBuffer();
      const info = await /** @type {Comlink.Remote<any>} */ (remote).loadModel(
        name,
        Comlink.transfer(bytes, [bytes]),
      );
      state.models[name] = { status: 'ready', info, error: '' };
    } catch (error) {
      state.models[name] = { status: 'failed', info: null, error: `${name}: ${readError(error).message}` };
    }
  }

  /** The models the view shows: the chosen one (a trained one too), and with compare every shipped one. */
  const wanted = () =>
    state.compare && (view.compareWhileTrained || !state.trained)
      ? [...new Set([currentName(), ...view.models.map((m) => m.name)])]
      : [currentName()];

  // One request in flight at a time: while the engine answers one (a drag, a slider), later
  // changes collapse into one follow-up request of the newest values, so the answers keep up with
  // the pointer instead of queueing behind it.
  let inFlight = false;
  let again = false;

  function request() {
    if (state.status !== 'ready') return;
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
    const { key, input } = view.question();
    state.run = 'running';
    try {
      await Promise.all(names.map(loadModel));
      const ready = names.filter((n) => state.models[n]?.status === 'ready');
      if (!ready.length && view.noModel !== null)
        throw new Error(state.models[names[0]]?.error || view.noModel);
      const answer = await view.ask(remote, ready, input);
      view.shown(answer, key);
      state.results = answer.models;
      state.run = 'ready';
      const steps = answer.models[currentName()]?.steps.length ?? 0;
      state.step = Math.max(0, Math.min(state.step, steps - 1));
      state.shownKey = key;
    } catch (error) {
      state.run = 'error';
      view.failed(readError(error));
    } finally {
      inFlight = false;
      if (again) request();
    }
  }

  /**
   * Shows a model trained in the Train view (its .safetensors bytes) instead of a shipped one.
   * @param {string} name a name unique to this model
   * @param {string} score its score function (the formulas and labels are its own)
   * @param {Uint8Array} bytes
   */
  function openTrained(name, score, bytes) {
    trainedBytes.set(name, bytes);
    state.trained = name;
    if (SCORES.includes(score)) state.score = score;
    state.compare = false;
    request();
  }

  function setScore(score) {
    if (!view.models.some((m) => m.score === score) || (state.score === score && !state.trained)) return;
    state.trained = '';
    state.score = score;
    if (!state.results[currentName()]) request();
  }

  function setCompare(on) {
    state.compare = on;
    if (on) request();
  }

  function goTo(step) {
    const last = (currentResult()?.steps.length ?? 1) - 1;
    state.step = Math.max(0, Math.min(step, last));
  }

  function togglePlay() {
    const last = (currentResult()?.steps.length ?? 1) - 1;
    if (!state.playing && state.step >= last) goTo(0);
    state.playing = !state.playing;
  }

  return {
    modelName,
    currentName,
    currentResult,
    open,
    request,
    openTrained,
    setScore,
    setCompare,
    goTo,
    togglePlay,
  };
}
