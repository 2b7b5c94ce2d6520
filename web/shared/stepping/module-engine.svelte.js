// What the stepping views over an engine module of their own share (Caption: the image module,
// Listen: the audio module): the module's Worker, started when the view first opens, the models'
// checkpoints loaded once into it, one engine request in flight at a time, the choice of model and
// the link's fields for it. The view keeps one $state made from `moduleFields` plus its own
// fields and a Stepper over the answer's steps; what to ask the engine and what to keep of its
// answer stay with the view.
import * as Comlink from 'comlink';
import { checkpoints } from '../engine/checkpoints.js';
import { readError } from '../lib/errors.js';
import { SCORES } from '../lib/score-functions.js';
import { flag, formatFlag } from '../link/parse.js';
import { platform } from '../platform.js';

/**
 * The models of `task` this build ships, by score function ("speech-location-bahdanau" →
 * "location"), in the keys' order (Decode's: 1 dot … 7 location), any other after by name.
 * @param {string} task
 * @returns {{ name: string, score: string }[]}
 */
export function shippedModels(task) {
  const rank = (score) => (SCORES.includes(score) ? SCORES.indexOf(score) : SCORES.length);
  return Object.keys(checkpoints)
    .map((name) => ({ name, score: new RegExp(`^${task}-(\\w+)-bahdanau$`).exec(name)?.[1] ?? '' }))
    .filter((m) => m.score)
    .sort((a, b) => rank(a.score) - rank(b.score) || a.score.localeCompare(b.score));
}

/**
 * What every such view's state holds.
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
 * }} ModuleState
 */

/** The largest step a link may ask for (the engine's answers are shorter; the step is then the last). */
const MAX_STEP = 1e4;

/**
 * The score shown without a link's (or with one not shipped): additive, else the first shipped.
 * @param {{ score: string }[]} models
 */
const defaultScore = (models) =>
  (models.find((m) => m.score === 'additive') ?? models[0])?.score ?? 'additive';

/**
 * The fields every such state has, to spread into the view's $state.
 * @template R
 * @param {{ name: string, score: string }[]} models the shipped ones
 * @param {boolean} compare whether every shipped model's answer is shown side by side at first
 * @returns {ModuleState<R>}
 */
export function moduleFields(models, compare) {
  return {
    // the module's Worker
    status: 'closed',
    error: '',
    models: {},
    // a model trained in the Train view (its name), shown instead of a shipped one; '' for none
    trained: '',
    // the score function of the model shown
    score: defaultScore(models),
    compare,
    // model name → the engine's answer
    results: {},
    run: 'idle',
    // what the results shown were asked for
    shownKey: '',
  };
}

/**
 * The link's fields of the model, the step and compare (a model this build does not ship, or a
 * step that is not a whole number, reads as the default; the step is kept within the answer once
 * the engine has answered).
 * @param {ModuleState<unknown>} state
 * @param {{ step: number }} stepper
 * @param {{ score: string, step: string, compare: string }} keys the fields' names in the link
 * @param {{ name: string, score: string }[]} models the shipped ones
 * @param {boolean} compare compare's value without the field
 * @returns {import('../link/link.svelte.js').LinkField<any>[]}
 */
export function moduleLinkFields(state, stepper, keys, models, compare) {
  return [
    {
      key: keys.score,
      get: () => state.score,
      set: (score) => (state.score = score),
      parse: (text, fallback) => ({ value: models.some((m) => m.score === text) ? text : fallback }),
      fallback: () => defaultScore(models),
    },
    {
      key: keys.step,
      get: () => stepper.step,
      set: (step) => (stepper.step = step),
      parse: (text, fallback) => {
        const step = Number(text);
        return { value: Number.isInteger(step) && step >= 0 ? Math.min(step, MAX_STEP) : fallback };
      },
      fallback: () => 0,
    },
    {
      key: keys.compare,
      get: () => state.compare,
      set: (on) => (state.compare = on),
      parse: flag,
      format: formatFlag,
      fallback: () => compare,
    },
  ];
}

/**
 * The engine's side of a view over `state` (a $state made with moduleFields).
 * @template {{ steps: unknown[] }} R the engine's answer for one model
 * @template Q what one request asks (the view's input)
 * @template {{ models: Record<string, R> }} A the engine's answer to one request
 * @param {ModuleState<R>} state
 * @param {import('./stepper.svelte.js').Stepper} stepper
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
export function moduleEngine(state, stepper, view) {
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
      const response = held ? null : await platform.fetch(new URL(url, platform.baseURI));
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
      stepper.clamp();
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
   * @param {{ name: string, score: string, bytes: Uint8Array }} model a name unique to this
   *   model, its score function (the formulas and labels are its own) and its bytes
   */
  function openTrained({ name, score, bytes }) {
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

  /**
   * The step shown of the model shown as the engine's Python file that recomputes it with NumPy:
   * the Worker's `reproduce(name, input, step)` decodes the input shown again up to that step.
   */
  async function stepPython() {
    const result = currentResult();
    if (!remote || state.run !== 'ready' || !result?.steps.length)
      throw new Error('there is no step to export');
    const step = Math.min(stepper.step, result.steps.length - 1);
    return /** @type {Promise<string>} */ (remote.reproduce(currentName(), view.question().input, step));
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
    stepPython,
  };
}
