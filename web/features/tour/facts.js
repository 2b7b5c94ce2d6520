// The numbers a stop's text cites, read from the engine's answers the page already holds (the
// decode's step records, the compared decodes, the sandbox's result, the encoder's layers, the
// beams). Each returns the text's parameters, or null while the answer for the stop's own setup
// is not there (another model, another input, still computing): the text then cites nothing.
import { lengthSummary, percent } from '../../shared/lib/length-summary.js';
import { formatNumber, showToken } from '../../shared/lib/format.js';
import { extremeHeads } from '../../shared/lib/head-distances.js';
import { SCORES } from '../../shared/lib/score-functions.js';

const END = '</s>';

/** The index of the largest of `values` (the first one on a tie), -1 when empty. */
export function argmax(values) {
  let best = -1;
  for (let j = 0; j < values.length; j++) if (best < 0 || values[j] > values[best]) best = j;
  return best;
}

/** The first step that wrote `token`, -1 when none did. */
export const stepOf = (steps, token) => steps.findIndex((s) => s.token === token);

const readyDecode = (decode, name, input) =>
  decode.status === 'ready' && decode.name === name && decode.input === input ? decode : null;

/**
 * A decode's output and, at `step`, which source token has the largest weight and that weight.
 * @param {any} decode
 */
export function attentionAt(decode, step) {
  const record = decode.steps[step];
  if (!record?.weights) return null;
  const j = argmax(record.weights);
  return {
    step: step + 1,
    token: record.token,
    word: showToken(decode.sourceTokens[j]),
    weight: formatNumber(record.weights[j]),
  };
}

/** The words of a beam (node ids), without the end token. */
export function beamText(nodes, path, separator) {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  return path
    .map((id) => byId.get(id)?.token)
    .filter((t) => t !== undefined && t !== END)
    .join(separator);
}

/**
 * Whether a compared decode's key (web/features/compare/compare.svelte.js: [name, input] and what-ifs, if
 * any, after them) is the plain decode of `input` by `name`: what the compare stop's text is about.
 */
export function comparedAs(key, name, input) {
  try {
    const [keyName, keyInput, ...rest] = JSON.parse(key);
    return keyName === name && keyInput === input && rest.every((r) => Array.isArray(r) && r.length === 0);
  } catch {
    return false;
  }
}

/**
 * The accuracy-by-length view's counts on the reverse task: the baseline's exact match on the
 * shortest and the longest well-filled bucket (as the view's own summary picks them) and additive
 * attention's on the longest; null until both models' counts are there.
 * @param {any} lengthView
 */
export function lengthFacts(lengthView) {
  if (!lengthView || lengthView.task !== 'reverse') return null;
  const baseline = lengthView.results['reverse-none-bahdanau'];
  const additive = lengthView.results['reverse-additive-bahdanau'];
  if (!baseline || !additive) return null;
  const summary = lengthSummary(baseline, [{ score: 'additive', buckets: additive.buckets }]);
  if (!summary) return null;
  const { first, last } = summary;
  const range = (b) => (b.minLength === b.maxLength ? `${b.minLength}` : `${b.minLength}–${b.maxLength}`);
  const attended = additive.buckets.find((b) => b.minLength === last.minLength);
  return {
    first: percent(first.hits, first.pairs),
    firstRange: range(first),
    last: percent(last.hits, last.pairs),
    lastRange: range(last),
    additive: attended ? percent(attended.hits, attended.pairs) : '–',
  };
}

/**
 * The step a stop is about (the first that wrote its token, stops.js's findToken), from 0, with
 * that token; null for a stop about a whole answer, or while its decode is not there.
 * @param {import('./stops.js').Stop} stop
 * @param {any} live as for stopFacts
 */
export function stopStep(stop, live) {
  if (!stop.findToken || !stop.link.model) return null;
  const d = readyDecode(live.decode, `${stop.link.task}-${stop.link.model}`, live.input);
  const index = d ? stepOf(d.steps, stop.findToken) : -1;
  return index < 0 ? null : { index, token: stop.findToken };
}

/**
 * The parameters of stop `id`'s text, or null.
 * @param {string} id
 * @param {any} live {decode, compare, headDiffs, sandbox, selfAttention, beam, lengthView, input, beamWidth,
 *   listSeparator, step (the decode's step shown, from 0)}
 */
export function stopFacts(id, live) {
  const { decode, input } = live;
  if (id === 'fixed') {
    const d = readyDecode(decode, 'zh-none-bahdanau', input);
    return d && { output: d.outputText, steps: d.steps.length };
  }
  if (id === 'length') return lengthFacts(live.lengthView);
  if (id === 'stages' || id === 'styles') {
    const name = id === 'stages' ? 'zh-additive-bahdanau' : 'zh-additive-luong';
    const d = readyDecode(decode, name, input);
    if (!d) return null;
    // the step shown: a learner who steps on reads that step's numbers, not the stop's
    const at = attentionAt(d, live.step ?? Math.max(stepOf(d.steps, '汤姆'), 0));
    return at && { ...at, output: d.outputText };
  }
  if (id === 'compare') {
    const names = SCORES.map((score) => `zh-${score}-bahdanau`).filter((n) => live.compare[n]);
    const chosen = live.compare['zh-additive-bahdanau'];
    const current = (n) => comparedAs(live.compare[n].key, n, input);
    if (!chosen || names.some((n) => !current(n) || live.compare[n].status === 'running')) return null;
    const rows = names.map((n) => live.compare[n]);
    const ready = rows.filter((r) => r.status === 'ready');
    return {
      output: chosen.outputText ?? '',
      same: ready.filter((r) => r.outputText === chosen.outputText).length,
      total: ready.length,
    };
  }
  if (id === 'sandbox') {
    const { result, shown } = live.sandbox;
    if (!result || live.sandbox.kind !== 'dot' || result.kind !== 'dot') return null;
    const weights = [...result.weights];
    const top = argmax(weights);
    return {
      weights: shown.labels
        .map((label, j) => `${label} ${formatNumber(weights[j])}`)
        .join(live.listSeparator),
      top: shown.labels[top],
    };
  }
  if (id === 'self') {
    const sa = live.selfAttention;
    if (sa.status !== 'ready' || sa.input !== input) return null;
    const record = sa.layers[sa.layer];
    if (!record) return null;
    const [, n] = record.weights.shape;
    const row = record.weights.data.subarray((sa.head * n + sa.token) * n, (sa.head * n + sa.token + 1) * n);
    const j = argmax(row);
    return {
      token: showToken(sa.sourceTokens[sa.token]),
      word: showToken(sa.sourceTokens[j]),
      weight: formatNumber(row[j]),
      layer: sa.layer + 1,
      head: sa.head + 1,
    };
  }
  if (id === 'bridge') {
    // the heads' distances from Bahdanau's alignment, as Compare holds them for this input
    const [reference, name] = ['zh-additive-bahdanau', 'zh-transformer'];
    const [a, b] = [live.compare[reference], live.compare[name]];
    const known = live.headDiffs?.[name];
    if (!a || !b || !comparedAs(a.key, reference, input) || !comparedAs(b.key, name, input)) return null;
    if (!known?.heads || known.key !== `${a.key}|${b.key}`) return null;
    const extremes = extremeHeads(known.heads);
    if (!extremes) return null;
    const { nearest: near, farthest: far } = extremes;
    return {
      layer: near.l + 1,
      head: near.h + 1,
      d: formatNumber(near.d),
      farLayer: far.l + 1,
      farHead: far.h + 1,
      far: formatNumber(far.d),
    };
  }
  if (id === 'beam') {
    const d = readyDecode(decode, 'zh-additive-bahdanau', input);
    const result = live.beam.status === 'ready' ? live.beam.result : null;
    if (!d || !result || live.beam.key !== `${d.session}|${live.beamWidth}`) return null;
    return {
      k: live.beamWidth,
      best: beamText(result.nodes, result.beams[0], ' '),
      score: formatNumber(result.scores[0]),
      greedy: d.outputText,
    };
  }
  return null;
}
