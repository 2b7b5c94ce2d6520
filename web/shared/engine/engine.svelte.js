// The engine (a Web Worker running the wasm build) and the trained models loaded into it. Only
// the feature modules beside this one talk to the engine, through `engineApi()`.
import * as Comlink from 'comlink';
import { startEngine } from './client.js';
import { modelName, STYLES } from '../text/tasks.js';
import { SCORES } from '../lib/score-functions.js';
import { checkpoints } from './checkpoints.js';
import { translatorOf } from '../i18n/translate.js';
import { errorText, readError } from '../lib/errors.js';
import linksDict from '../link/strings.js';
import { platform } from '../platform.js';

const t = translatorOf(linksDict);

export const engine = $state({
  /** @type {'loading' | 'ready' | 'failed'} */
  status: 'loading',
  isa: '',
  /** @type {import('../../../wasm/playground').ScoreKind[]} */
  kinds: [],
  /** @type {import('../../../wasm/playground').EngineLimits | null} */
  limits: null,
  error: '',
});

/**
 * @typedef {{ status: 'loading' | 'ready' | 'failed', info: import('../../../wasm/playground').ModelInfo | null,
 *   error: string, promise?: Promise<void> }} LoadedModel
 */
/** @type {Record<string, LoadedModel>} model name → its checkpoint's state */
export const models = $state({});

/** @type {import('./client.js').EngineRemote | null} */
let remote = null;

/** The engine's API (call after `loadEngine`; the views only ask once the engine is ready). */
export function engineApi() {
  if (!remote) throw new Error('the engine has not been started');
  return remote;
}

/**
 * Starts the engine (once): its Worker, or under node the engine `start` gives.
 * @param {() => { api: any, failed: Promise<never> }} [start]
 */
export async function loadEngine(start = startEngine) {
  if (remote) return;
  const started = start();
  remote = started.api;
  try {
    const { isa, kinds, limits } = await Promise.race([started.api.init(), started.failed]);
    Object.assign(engine, { isa, kinds, limits, status: 'ready' });
  } catch (error) {
    engine.status = 'failed';
    engine.error = `The WebAssembly engine did not load: ${error?.message ?? error}`;
  }
}

/** The models shipped for a task (their checkpoints are in the build). */
export function availableModels(taskId) {
  const out = [];
  for (const style of STYLES)
    for (const score of SCORES) if (checkpoints[modelName(taskId, score, style)]) out.push({ score, style });
  return out;
}
export const hasModel = (name) => Boolean(checkpoints[name]);

/** Models that are not shipped (trained in the page, or a file the person loaded): name → their bytes. */
export const modelSources = new Map();

/** The transformer-encoder checkpoint of a task ("zh-additive-bahdanau-transformer"). */
export const selfAttentionModel = (taskId) => `${modelName(taskId, 'additive', 'bahdanau')}-transformer`;

/** Loads a model once (lazily: only when it is chosen); its info lands in models[name]. */
export async function loadModel(name) {
  if (!remote) await loadEngine();
  const api = engineApi();
  const known = models[name];
  if (known?.status === 'ready' || known?.status === 'loading') return known.promise;
  const source = modelSources.get(name);
  if (!checkpoints[name] && !source) {
    models[name] = {
      status: 'failed',
      info: null,
      error: t('noCheckpoint', { name }),
    };
    return;
  }
  const bytes = source
    ? Promise.resolve(source()).then((b) => b.slice().buffer)
    : platform.fetch(new URL(checkpoints[name], platform.baseURI)).then((response) => {
        if (!response.ok)
          throw new Error(`the server answered ${response.status} ${response.statusText}`.trim());
        return response.arrayBuffer();
      });
  const promise = bytes
    .then((bytes) => api.loadModel(name, Comlink.transfer(bytes, [bytes])))
    .then((info) => {
      models[name] = { status: 'ready', info, error: '' };
    })
    .catch((error) => {
      models[name] = {
        status: 'failed',
        info: null,
        error: t('modelFailed', { name, message: errorText(readError(error)) }),
      };
    });
  models[name] = { status: 'loading', info: null, error: '', promise };
  return promise;
}
