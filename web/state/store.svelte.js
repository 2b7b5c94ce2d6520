// The page's one state store: what the person chose (view, score function, vectors, temperature),
// the engine's status, and the engine's last answer. Components read and write it; only the
// functions here talk to the engine. Every number shown comes from an engine answer.
import { startEngine } from '../engine/client.js';
import { formatVector, parseVector } from '../lib/vectors.js';
import { exampleQuery, exampleTokens } from './example.js';
import { readUrl, writeUrl } from './url.js';

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

export const store = $state({
  view: 'sandbox',
  engine: { status: 'loading', isa: '', kinds: [], error: '' },
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
  writeUrl({ view: store.view, kind, temperature, query, tokens });
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
