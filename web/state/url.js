// The sandbox in the URL's hash, so a reload or a shared link restores it:
//   #view=sandbox&kind=dot&t=1&q=1,0,1,0&tokens=[["Tom","0.6, 0.2, 0.5, 0.1","1, 0, 0, 1",1],…]
const KINDS = ['dot', 'scaled_dot', 'general', 'additive', 'cosine'];

/** The sandbox described by `hash`, field by field falling back to `defaults` when absent or malformed. */
export function readUrl(hash, defaults) {
  const params = new URLSearchParams(String(hash).replace(/^#/, ''));
  const out = {
    ...defaults,
    tokens: defaults.tokens.map(({ label, key, value, attend }) => ({ label, key, value, attend })),
  };
  if (KINDS.includes(params.get('kind'))) out.kind = params.get('kind');
  const temperature = Number(params.get('t'));
  if (params.has('t') && temperature > 0 && temperature <= 10) out.temperature = temperature;
  if (params.has('q')) out.query = params.get('q').slice(0, 500);
  try {
    const tokens = JSON.parse(params.get('tokens') ?? 'null');
    const valid =
      Array.isArray(tokens) &&
      tokens.length >= 1 &&
      tokens.length <= 8 &&
      tokens.every(
        (t) => Array.isArray(t) && t.length === 4 && t.slice(0, 3).every((s) => typeof s === 'string'),
      );
    if (valid)
      out.tokens = tokens.map(([label, key, value, attend]) => ({
        label,
        key,
        value,
        attend: Boolean(attend),
      }));
  } catch {
    // a hand-edited link with broken JSON: keep the defaults
  }
  return out;
}

export const VIEWS = ['decode', 'compare', 'beam', 'self', 'sandbox'];

/**
 * The decoding part of the hash:
 *   #view=decode&task=dates&model=additive-bahdanau&input=29+november+2026&step=3&force=2:17,5:4
 * Each field falls back to `defaults` when absent or malformed.
 */
export function readDecodeUrl(hash, defaults) {
  const params = new URLSearchParams(String(hash).replace(/^#/, ''));
  const out = { ...defaults, forces: [...defaults.forces] };
  if (VIEWS.includes(params.get('view'))) out.view = params.get('view');
  if (['dates', 'zh', 'reverse'].includes(params.get('task'))) out.task = params.get('task');
  const model = /^(dot|scaled_dot|general|additive|cosine)-(bahdanau|luong)$/.exec(params.get('model') ?? '');
  if (model) [out.score, out.style] = [model[1], model[2]];
  if (params.has('input')) out.input = params.get('input').slice(0, 300);
  const step = Number(params.get('step'));
  if (params.has('step') && Number.isInteger(step) && step >= 0 && step < 1000) out.step = step;
  if (params.has('force')) {
    const forces = params
      .get('force')
      .split(',')
      .map((pair) => pair.split(':').map(Number))
      .filter((p) => p.length === 2 && p.every((x) => Number.isInteger(x) && x >= 0));
    out.forces = forces.slice(0, 100);
  }
  const beam = Number(params.get('k'));
  if (params.has('k') && Number.isInteger(beam) && beam >= 1 && beam <= 8) out.beamWidth = beam;
  return out;
}

export function writeUrl({ view, kind, temperature, query, tokens }, decode) {
  const params = new URLSearchParams({ view });
  if (decode) {
    params.set('task', decode.task);
    params.set('model', `${decode.score}-${decode.style}`);
    params.set('input', decode.input);
    params.set('step', String(decode.step));
    if (decode.forces.length) params.set('force', decode.forces.map((f) => f.join(':')).join(','));
    params.set('k', String(decode.beamWidth));
  }
  params.set('kind', kind);
  params.set('t', String(temperature));
  params.set('q', query);
  params.set('tokens', JSON.stringify(tokens.map((t) => [t.label, t.key, t.value, t.attend ? 1 : 0])));
  scheduleHash(`#${params}`);
}

// history.replaceState costs Chromium ~10 ms (measured by tests/bench/bench_page.mjs and a
// profile of step clicks): a third of a step's budget. So the hash is written after the frame
// that shows the step has been painted, and a burst of steps (play, a held arrow key) writes
// only its last state.
let pendingHash = null;
function scheduleHash(hash) {
  const idle = pendingHash === null;
  pendingHash = hash;
  if (idle) requestAnimationFrame(() => setTimeout(flushUrl, 0));
}

/** Writes a pending hash now (before the address is read, e.g. by Copy link). */
export function flushUrl() {
  if (pendingHash === null) return;
  if (pendingHash !== location.hash) history.replaceState(null, '', pendingHash);
  pendingHash = null;
}
