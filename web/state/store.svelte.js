// The page's one state store: what the person chose (view, score function, vectors, temperature),
// the engine's status, and the engine's last answer. Components read and write it; only the
// functions here talk to the engine. Every number shown comes from an engine answer.
import * as Comlink from 'comlink';
import { startEngine } from '../engine/client.js';
import { formatVector, parseVector } from '../lib/vectors.js';
import { exampleQuery, exampleTokens } from './example.js';
import { readDecodeUrl, readUrl, writeUrl } from './url.js';
import { checkpoints } from './checkpoints.js';
import { modelName, task as taskOf, SCORES, STYLES } from '../lib/tasks.js';

export const MIN_TOKENS = 3;
export const MAX_TOKENS = 8;

let nextTokenId = 0;
const token = ({ label, key, value, attend = true }) => ({
  id: nextTokenId++,
  label,
  key: Array.isArray(key) ? formatVector(key) : key,
  value: Array.isArray(value) ? formatVector(value) : value,
  attend,
});

export function exampleSandbox() {
  return {
    kind: 'dot',
    temperature: 1,
    query: formatVector(exampleQuery),
    tokens: exampleTokens.map(token),
  };
}

const fromUrl = readUrl(location.hash, exampleSandbox());

const decodeDefaults = {
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
  /** the self-attention view's [layer, head, token] */
  selfAttention: [0, 0, 0],
};
const decodeFromUrl = readDecodeUrl(location.hash, decodeDefaults);

export const store = $state({
  view: decodeFromUrl.view,
  engine: { status: 'loading', isa: '', kinds: [], error: '', models: false },
  /** what the person chose for decoding */
  choice: {
    task: decodeFromUrl.task,
    score: decodeFromUrl.score,
    style: decodeFromUrl.style,
    encoder: decodeFromUrl.encoder,
    input: decodeFromUrl.input,
    forces: decodeFromUrl.forces,
    beamWidth: decodeFromUrl.beamWidth,
  },
  step: decodeFromUrl.step,
  playing: false,
  /** ms per step while playing */
  speed: 700,
  /** model name → { status: 'loading' | 'ready' | 'failed', info, error } */
  models: {},
  /** the current decode: the engine's answer for `choice` */
  decode: {
    status: 'idle',
    error: '',
    /** the request the result belongs to */
    key: '',
    name: '',
    sourceTokens: [],
    /** @type {any[]} StepRecord per step */
    steps: [],
    output: [],
    outputText: '',
    /** @type {{data: Float32Array, rows: number, cols: number} | null} */
    encoderStates: null,
  },
  /** the same input through the other models: name → { status, error, sourceTokens, steps, outputText } */
  compare: {},
  /** name → { key, result }: where that model's weights differ most from the chosen model's (engine's answer) */
  compareDiff: {},
  beam: { status: 'idle', error: '', key: '', result: null, selected: 0 },
  /** the self-attention view: the transformer model's layers for the chosen input, and what is selected */
  selfAttention: {
    status: 'idle',
    error: '',
    key: '',
    name: '',
    sourceTokens: [],
    /** @type {import('../../wasm/playground').SelfAttentionRecord[]} */
    layers: [],
    /** @type {{token: string, weights: Float32Array}[]} the decoder's cross-attention, one row per step */
    cross: [],
    output: [],
    layer: decodeFromUrl.selfAttention[0],
    head: decodeFromUrl.selfAttention[1],
    /** the query token whose scores are spelled out */
    token: decodeFromUrl.selfAttention[2],
    showCross: true,
  },
  sandbox: {
    ...fromUrl,
    tokens: fromUrl.tokens.map(token),
    /** @type {import('../../wasm/playground').AttendResult | null} */
    result: null,
    error: '',
    /** @type {{kind: string, weights: Float32Array | null, error: string}[]} the weights of every score function */
    comparison: [],
    /** the inputs the result belongs to (they may have changed since): token labels, mask, values */
    shown: { labels: [], mask: [], values: [] },
  },
});

/** @type {ReturnType<typeof startEngine>['api'] | null} */
let engine = null;

export async function loadEngine() {
  if (engine) return;
  const started = startEngine();
  engine = started.api;
  try {
    const info = await Promise.race([engine.init(), started.failed]);
    store.engine.isa = info.isa;
    store.engine.kinds = info.kinds;
    store.engine.models = info.models;
    store.engine.status = 'ready';
  } catch (error) {
    store.engine.status = 'failed';
    store.engine.error = `The WebAssembly engine did not load: ${error?.message ?? error}`;
  }
}

/** The engine call for the current inputs: plain arrays (no state proxies) that can cross to the Worker. */
export function sandboxRequest(sandbox = store.sandbox) {
  return {
    kind: sandbox.kind,
    query: parseVector(sandbox.query),
    keys: sandbox.tokens.map((t) => parseVector(t.key)),
    values: sandbox.tokens.map((t) => parseVector(t.value)),
    options: {
      temperature: Number(sandbox.temperature),
      mask: sandbox.tokens.map((t) => (t.attend ? 1 : 0)),
    },
    labels: sandbox.tokens.map((t) => t.label),
  };
}

// Answers can come back out of order while the person types; only the newest request counts.
let latestRequest = 0;

export async function computeSandbox(request) {
  if (!engine || store.engine.status !== 'ready') return;
  const id = ++latestRequest;
  try {
    const { kind, query, keys, values, options } = request;
    // The chosen function, and beside it the weights every function gives the same inputs.
    const [result, others] = await Promise.all([
      engine.attend(kind, query, keys, values, options),
      Promise.allSettled(store.engine.kinds.map((k) => engine.attend(k, query, keys, values, options))),
    ]);
    if (id !== latestRequest) return;
    store.sandbox.result = result;
    store.sandbox.comparison = others.map((answer, i) => ({
      kind: store.engine.kinds[i],
      weights: answer.status === 'fulfilled' ? answer.value.weights : null,
      error: answer.status === 'rejected' ? String(answer.reason?.message ?? answer.reason) : '',
    }));
    store.sandbox.shown = { labels: request.labels, mask: options.mask, values };
    store.sandbox.error = '';
  } catch (error) {
    if (id !== latestRequest) return;
    store.sandbox.error = explain(String(error?.message ?? error), request.labels);
  }
}

/** "keys[1][2] is not …" → "keys[1] (“chase”)[2] is not …": name the token the engine points at. */
export function explain(message, labels) {
  return message.replace(/\b(keys|values)\[(\d+)\]/g, (match, _field, j) =>
    labels[j] ? `${match} (“${labels[j]}”)` : match,
  );
}

export function syncUrl() {
  const { kind, temperature, query, tokens } = store.sandbox;
  const { layer, head, token } = store.selfAttention;
  writeUrl(
    { view: store.view, kind, temperature, query, tokens },
    { ...store.choice, step: store.step, selfAttention: [layer, head, token] },
  );
}

// ---- trained models -------------------------------------------------------------------------

export const currentModelName = () =>
  modelName(store.choice.task, store.choice.score, store.choice.style) +
  (store.choice.encoder === 'transformer' ? '-transformer' : '');

/** The models shipped for a task (their checkpoints are in the build). */
export function availableModels(taskId) {
  const out = [];
  for (const style of STYLES)
    for (const score of SCORES) if (checkpoints[modelName(taskId, score, style)]) out.push({ score, style });
  return out;
}
export const hasModel = (name) => Boolean(checkpoints[name]);

/** Loads a model once (lazily: only when it is chosen); its info lands in store.models[name]. */
export async function loadModel(name) {
  if (!engine) await loadEngine();
  const known = store.models[name];
  if (known?.status === 'ready' || known?.status === 'loading') return known.promise;
  if (!checkpoints[name]) {
    store.models[name] = {
      status: 'failed',
      info: null,
      error: `There is no checkpoint ${name}.safetensors in this build.`,
    };
    return;
  }
  const promise = fetch(new URL(checkpoints[name], document.baseURI))
    .then((response) => {
      if (!response.ok)
        throw new Error(`the server answered ${response.status} ${response.statusText}`.trim());
      return response.arrayBuffer();
    })
    .then((bytes) => engine.loadModel(name, Comlink.transfer(bytes, [bytes])))
    .then((info) => {
      store.models[name] = { status: 'ready', info, error: '' };
    })
    .catch((error) => {
      store.models[name] = {
        status: 'failed',
        info: null,
        error: `The model ${name} did not load: ${error?.message ?? error}`,
      };
    });
  store.models[name] = { status: 'loading', info: null, error: '', promise };
  return promise;
}

const decodeKey = (name, input, forces) => JSON.stringify([name, input, forces]);

function inputProblem(input) {
  if (input.trim() === '') return `Type ${taskOf(store.choice.task).what}, or pick an example.`;
  return '';
}

let latestDecode = 0;

/** Decodes the chosen input with the chosen model (greedy, with the forced tokens). */
export async function runDecode() {
  const name = currentModelName();
  const { input, forces } = store.choice;
  const key = decodeKey(name, input, forces);
  if (store.decode.key === key) return;
  const id = ++latestDecode;
  store.decode.key = key;
  const problem = inputProblem(input);
  if (problem) {
    Object.assign(store.decode, { status: 'error', error: problem, kindOfError: 'input' });
    return;
  }
  store.decode.status = 'running';
  await loadModel(name);
  if (id !== latestDecode) return;
  const loaded = store.models[name];
  if (loaded?.status !== 'ready') {
    Object.assign(store.decode, {
      status: 'error',
      error: loaded?.error ?? 'the model did not load',
      kindOfError: 'model',
    });
    return;
  }
  try {
    const result = await engine.decode(name, input, {
      topK: 5,
      forces: $state.snapshot(forces),
    });
    if (id !== latestDecode) return;
    Object.assign(store.decode, { status: 'ready', error: '', kindOfError: '', name, ...result });
    store.step = Math.max(0, Math.min(store.step, result.steps.length - 1));
    store.beam.key = '';
  } catch (error) {
    if (id !== latestDecode) return;
    Object.assign(store.decode, {
      status: 'error',
      error: String(error?.message ?? error),
      kindOfError: 'input',
    });
  }
}

/** What-if: take `tokenId` at step `index`; the forced tokens after it are dropped. */
export function forceToken(index, tokenId) {
  store.choice.forces = [...store.choice.forces.filter(([i]) => i < index), [index, tokenId]];
  store.step = index;
}

export function clearForces() {
  store.choice.forces = [];
}

export function setInput(text) {
  store.choice.input = text;
  store.choice.forces = [];
  store.step = 0;
}

// Typing: the input is taken once the keys pause for 250 ms (Enter takes it at once).
let typing;
export function setInputSoon(text) {
  clearTimeout(typing);
  typing = setTimeout(() => setInput(text), 250);
}
export function setInputNow(text) {
  clearTimeout(typing);
  setInput(text);
}

export function setTask(taskId) {
  if (store.choice.task === taskId) return;
  store.choice.task = taskId;
  const models = availableModels(taskId);
  if (models.length && !models.some((m) => m.score === store.choice.score && m.style === store.choice.style))
    Object.assign(store.choice, models.find((m) => m.score === store.choice.score) ?? models[0]);
  keepEncoderShipped();
  setInput(taskOf(taskId).examples[0]);
}

export function setModel(score, style = store.choice.style) {
  store.choice.score = score;
  store.choice.style = style;
  store.choice.forces = [];
  keepEncoderShipped();
}

/** Whether the chosen task, score function and style are shipped with a Transformer encoder too. */
export const hasTransformer = () =>
  hasModel(`${modelName(store.choice.task, store.choice.score, store.choice.style)}-transformer`);

// Back to the BiGRU encoder when the choice has no Transformer-encoder checkpoint.
function keepEncoderShipped() {
  if (store.choice.encoder === 'transformer' && !hasTransformer()) store.choice.encoder = 'gru';
}

/** 'gru' or 'transformer'; choosing the Transformer moves to the score and style it is shipped with. */
export function setEncoder(encoder) {
  if (encoder === 'transformer' && !hasTransformer()) {
    if (!hasModel(selfAttentionModel(store.choice.task))) return;
    store.choice.score = 'additive';
    store.choice.style = 'bahdanau';
  }
  store.choice.encoder = encoder;
  store.choice.forces = [];
}

export function goTo(step) {
  const last = store.decode.steps.length - 1;
  store.step = Math.max(0, Math.min(step, last));
}

/** The same input through `names`: each model's decode (greedy) lands in store.compare[name]. */
export async function runCompare(names) {
  const input = store.choice.input;
  await Promise.all(
    names.map(async (name) => {
      const key = JSON.stringify([name, input]);
      if (store.compare[name]?.key === key) return;
      store.compare[name] = {
        key,
        status: 'running',
        error: '',
        steps: [],
        sourceTokens: [],
        outputText: '',
      };
      const problem = inputProblem(input);
      if (problem) {
        store.compare[name] = { key, status: 'error', error: problem, steps: [], sourceTokens: [] };
        return;
      }
      await loadModel(name);
      if (store.models[name]?.status !== 'ready') {
        store.compare[name] = {
          key,
          status: 'error',
          error: store.models[name]?.error,
          steps: [],
          sourceTokens: [],
        };
        return;
      }
      try {
        const result = await engine.decode(name, input, {
          topK: 5,
        });
        if (store.compare[name]?.key !== key) return;
        store.compare[name] = { key, status: 'ready', error: '', ...result };
      } catch (error) {
        if (store.compare[name]?.key !== key) return;
        store.compare[name] = {
          key,
          status: 'error',
          error: String(error?.message ?? error),
          steps: [],
          sourceTokens: [],
        };
      }
    }),
  );
  // The decodes above replaced the sessions the current model's beam/export use: decode it again.
  store.decode.key = '';
  return runDecode();
}

/** The key of the comparison of `name` against `reference` (both decodes as they are now). */
export function compareDiffKey(reference, name) {
  const a = store.compare[reference];
  const b = store.compare[name];
  return a?.status === 'ready' && b?.status === 'ready' ? `${a.key}|${b.key}` : '';
}

/**
 * Where each of `names` has its weights most unlike the `reference` model's, over the steps both
 * took: the engine computes it (trace::largest_weight_difference); the answer lands in
 * store.compareDiff[name].
 */
export async function runCompareDifferences(reference, names) {
  const weights = (name) => store.compare[name].steps.map((s) => s.weights);
  await Promise.all(
    names
      .filter((name) => name !== reference)
      .map(async (name) => {
        const key = compareDiffKey(reference, name);
        if (!key || store.compareDiff[name]?.key === key) return;
        store.compareDiff[name] = { key, result: null };
        let result = null;
        try {
          result = await engine.weightDifference(weights(reference), weights(name));
        } catch {
          result = null; // no step in common: nothing to mark
        }
        if (store.compareDiff[name]?.key === key) store.compareDiff[name] = { key, result };
      }),
  );
}

export async function runBeam() {
  if (store.decode.status !== 'ready') return;
  const key = `${store.decode.key}|${store.choice.beamWidth}`;
  if (store.beam.key === key) return;
  store.beam.key = key;
  store.beam.status = 'running';
  try {
    const result = await engine.beam(store.decode.name, store.choice.beamWidth);
    if (store.beam.key !== key) return;
    Object.assign(store.beam, { status: 'ready', error: '', result, selected: 0 });
  } catch (error) {
    if (store.beam.key !== key) return;
    Object.assign(store.beam, { status: 'error', error: String(error?.message ?? error), result: null });
  }
}

export async function exportTraceJson() {
  return engine.exportJson(store.decode.name);
}

export function addToken() {
  const tokens = store.sandbox.tokens;
  if (tokens.length >= MAX_TOKENS) return;
  const size = parseVector(tokens[tokens.length - 1]?.key ?? store.sandbox.query).length || 4;
  const zeros = Array(size).fill(0);
  tokens.push(token({ label: `token ${tokens.length + 1}`, key: zeros, value: zeros }));
}

export function removeToken(id) {
  const tokens = store.sandbox.tokens;
  if (tokens.length <= MIN_TOKENS) return;
  store.sandbox.tokens = tokens.filter((t) => t.id !== id);
}

export function resetSandbox() {
  const fresh = exampleSandbox();
  store.sandbox.kind = fresh.kind;
  store.sandbox.temperature = fresh.temperature;
  store.sandbox.query = fresh.query;
  store.sandbox.tokens = fresh.tokens;
}

/** Play/pause; play from the start when the last step is showing. */
export function togglePlay() {
  if (!store.playing && store.step >= store.decode.steps.length - 1) goTo(0);
  store.playing = !store.playing;
}

// ---- self-attention (the transformer-encoder models) -------------------------------------------

/** The transformer-encoder checkpoint of a task ("zh-additive-bahdanau-transformer"). */
export const selfAttentionModel = (taskId) => `${modelName(taskId, 'additive', 'bahdanau')}-transformer`;

let latestSelfAttention = 0;

/** Runs the chosen input through the task's transformer-encoder model: its layers and its decoder's alignment. */
export async function runSelfAttention() {
  const view = store.selfAttention;
  const name = selfAttentionModel(store.choice.task);
  const { input } = store.choice;
  const key = JSON.stringify([name, input]);
  if (view.key === key) return;
  const id = ++latestSelfAttention;
  view.key = key;
  const fail = (error) => Object.assign(view, { status: 'error', error, layers: [], cross: [] });
  if (!hasModel(name))
    return fail(
      `There is no transformer-encoder model for “${taskOf(store.choice.task).label}”: choose English → Chinese or Dates.`,
    );
  const problem = inputProblem(input);
  if (problem) return fail(problem);
  view.status = 'running';
  await loadModel(name);
  if (id !== latestSelfAttention) return;
  const loaded = store.models[name];
  if (loaded?.status !== 'ready') return fail(loaded?.error ?? 'the model did not load');
  try {
    const result = await engine.selfAttention(name, input);
    if (id !== latestSelfAttention) return;
    const n = result.sourceTokens.length;
    const layers = result.layers.length;
    Object.assign(view, {
      status: 'ready',
      error: '',
      name,
      ...result,
      layer: Math.min(view.layer, layers - 1),
      head: Math.min(view.head, (result.layers[0]?.heads ?? 1) - 1),
      token: Math.min(view.token, n - 1),
    });
  } catch (error) {
    if (id !== latestSelfAttention) return;
    fail(String(error?.message ?? error));
  }
}
