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

export function writeUrl({ view, kind, temperature, query, tokens }) {
  const params = new URLSearchParams({
    view,
    kind,
    t: String(temperature),
    q: query,
    tokens: JSON.stringify(tokens.map((t) => [t.label, t.key, t.value, t.attend ? 1 : 0])),
  });
  history.replaceState(null, '', `#${params}`);
}
