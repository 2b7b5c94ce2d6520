// The sandbox: a hand-made query and 3–8 key/value vectors through any score function, every
// edit recomputed by the engine, with the weights every score function gives the same inputs.
import { FLOAT32_MAX, formatNumber } from '../../shared/lib/format.js';
import { parseVector } from '../../shared/lib/vectors.js';
import { attendable } from '../../shared/lib/score-functions.js';
import { engine, engineApi } from '../../shared/engine/engine.svelte.js';
import { exampleSandbox } from './example.js';
import { latest } from '../../shared/lib/latest.js';
import { declareLink } from '../../shared/link/link.svelte.js';
import { sandboxLinkFields } from './sandbox-link.js';

export const MIN_TOKENS = 3;
export const MAX_TOKENS = 8;

let nextTokenId = 0;
/** A key/value row of the editor, with an id that keys it in the list. */
const token = ({ label, key, value, attend = true }) => ({ id: nextTokenId++, label, key, value, attend });

const example = exampleSandbox();
export const sandbox = $state({
  ...example,
  tokens: example.tokens.map(token),
  /** @type {import('../../../wasm/playground').AttendResult | null} */
  result: null,
  error: '',
  /** @type {{kind: string, weights: Float32Array | null, error: string}[]} the weights of every score function */
  comparison: [],
  /** @type {{labels: string[], mask: number[], values: number[][]}} the inputs the result belongs to (they may have changed since) */
  shown: { labels: [], mask: [], values: [] },
});

declareLink(
  'sandbox',
  sandboxLinkFields(sandbox, (tokens) => (sandbox.tokens = tokens.map(token))),
);

/** The score functions attend() takes: the engine's list once it has answered (the same as the page's table). */
export const sandboxKinds = () => (engine.kinds.length ? engine.kinds : attendable);

/** The engine call for the current inputs: plain arrays (no state proxies) that can cross to the Worker. */
export function sandboxRequest(from = sandbox) {
  return {
    kind: from.kind,
    query: parseVector(from.query),
    keys: from.tokens.map((t) => parseVector(t.key)),
    values: from.tokens.map((t) => parseVector(t.value)),
    options: {
      temperature: Number(from.temperature),
      mask: from.tokens.map((t) => (t.attend ? 1 : 0)),
    },
    /** scaled cosine's g as chosen, or null: the engine's default √dk */
    scale: typeof from.scale === 'number' && Number.isFinite(from.scale) ? from.scale : null,
    labels: from.tokens.map((t) => t.label),
  };
}

/** The options for one score function: scaled cosine also gets the chosen g (the others have no g). */
export const optionsFor = (kind, { options, scale }) =>
  kind === 'scaled_cosine' && scale !== null ? { ...options, params: { scale } } : options;

const sandboxRuns = latest();

export async function computeSandbox(request) {
  if (engine.status !== 'ready') return;
  const api = engineApi();
  const current = sandboxRuns();
  const tooLarge = outOfRange(request);
  if (tooLarge) {
    sandbox.error = tooLarge;
    return;
  }
  try {
    const { kind, query, keys, values, options } = request;
    // The chosen function, and beside it the weights every function gives the same inputs.
    const [result, others] = await Promise.all([
      api.attend(kind, query, keys, values, optionsFor(kind, request)),
      Promise.allSettled(engine.kinds.map((k) => api.attend(k, query, keys, values, optionsFor(k, request)))),
    ]);
    if (!current()) return;
    sandbox.result = result;
    sandbox.comparison = others.map((answer, i) => ({
      kind: engine.kinds[i],
      weights: answer.status === 'fulfilled' ? answer.value.weights : null,
      error: answer.status === 'rejected' ? String(answer.reason?.message ?? answer.reason) : '',
    }));
    sandbox.shown = { labels: request.labels, mask: options.mask, values };
    sandbox.error = '';
  } catch (error) {
    if (!current()) return;
    sandbox.error = explain(String(error?.message ?? error), request.labels);
  }
}

/**
 * A number typed that the engine's 32-bit floats cannot hold (1e308 would become infinity there):
 * said with its place and the range, before the engine is asked. Smaller ones are taken as they are.
 */
export function outOfRange({ query, keys, values, labels }) {
  const fields = [
    ['query', query],
    ...keys.map((k, j) => [`keys[${j}]`, k]),
    ...values.map((v, j) => [`values[${j}]`, v]),
  ];
  for (const [field, numbers] of fields) {
    const d = numbers.findIndex((x) => Number.isFinite(x) && Math.abs(x) > FLOAT32_MAX);
    if (d >= 0)
      return explain(
        `${field}[${d}] = ${formatNumber(numbers[d])} is too large: the engine computes in 32-bit floats, which hold numbers between ${formatNumber(-FLOAT32_MAX)} and ${formatNumber(FLOAT32_MAX)}.`,
        labels,
      );
  }
  return '';
}

/** "keys[1][2] is not …" → "keys[1] (“chase”)[2] is not …": name the token the engine points at. */
export function explain(message, labels) {
  return message.replace(/\b(keys|values)\[(\d+)\]/g, (match, _field, j) =>
    labels[j] ? `${match} (“${labels[j]}”)` : match,
  );
}

export function addToken() {
  const tokens = sandbox.tokens;
  if (tokens.length >= MAX_TOKENS) return;
  const size = parseVector(tokens[tokens.length - 1]?.key ?? sandbox.query).length || 4;
  const zeros = Array(size).fill(0).join(', ');
  tokens.push(token({ label: `token ${tokens.length + 1}`, key: zeros, value: zeros }));
}

export function removeToken(id) {
  const tokens = sandbox.tokens;
  if (tokens.length <= MIN_TOKENS) return;
  sandbox.tokens = tokens.filter((t) => t.id !== id);
}

export function resetSandbox() {
  const fresh = exampleSandbox();
  sandbox.kind = fresh.kind;
  sandbox.temperature = fresh.temperature;
  sandbox.scale = fresh.scale;
  sandbox.query = fresh.query;
  sandbox.tokens = fresh.tokens.map(token);
}
