// The sandbox in the link, so a reload or a shared link restores it:
//   #view=sandbox&kind=dot&t=1&g=2&q=1,0,1,0&tokens=[["Tom","0.6, 0.2, 0.5, 0.1","1, 0, 0, 1",1],…]
// Each field is written only when it differs from the running example (example.js); a malformed
// one keeps the example's value.
import { attendable } from '../../shared/lib/score-functions.js';
import { exampleSandbox } from './example.js';

const MAX_QUERY = 500;
const MAX_LINK_TOKENS = 8;

/** @typedef {{ label: string, key: string, value: string, attend: boolean }} TokenText */

/** The tokens as the link writes them: [label, key, value, attend 0/1] each. */
export const tokensText = (/** @type {TokenText[]} */ list) =>
  JSON.stringify(list.map((t) => [t.label, t.key, t.value, t.attend ? 1 : 0]));

/** @param {string} text @param {TokenText[]} fallback */
export function parseTokens(text, fallback) {
  try {
    const tokens = JSON.parse(text);
    const valid =
      Array.isArray(tokens) &&
      tokens.length >= 1 &&
      tokens.length <= MAX_LINK_TOKENS &&
      tokens.every(
        (t) => Array.isArray(t) && t.length === 4 && t.slice(0, 3).every((s) => typeof s === 'string'),
      );
    if (valid)
      return {
        value: tokens.map(([label, key, value, attend]) => ({ label, key, value, attend: Boolean(attend) })),
      };
  } catch {
    // a hand-edited link with broken JSON: the example's tokens
  }
  return { value: fallback };
}

/**
 * The fields, over the sandbox's state.
 * @param {{ kind: string, temperature: number, scale: number | null, query: string, tokens: TokenText[] }} sandbox
 * @param {(tokens: TokenText[]) => void} setTokens
 * @returns {import('../../shared/link/link.svelte.js').LinkField<any>[]}
 */
export function sandboxLinkFields(sandbox, setTokens) {
  const example = exampleSandbox();
  return [
    {
      key: 'kind',
      get: () => sandbox.kind,
      set: (kind) => (sandbox.kind = kind),
      parse: (text, fallback) => ({ value: attendable.includes(text) ? text : fallback }),
      fallback: () => example.kind,
    },
    {
      key: 't',
      get: () => sandbox.temperature,
      set: (t) => (sandbox.temperature = t),
      parse: (text, fallback) => {
        const t = Number(text);
        return { value: t > 0 && t <= 10 ? t : fallback };
      },
      fallback: () => example.temperature,
    },
    {
      // scaled cosine's g; the engine says so when it is out of its range
      key: 'g',
      get: () => sandbox.scale,
      set: (g) => (sandbox.scale = g),
      parse: (text, fallback) => ({
        value: text !== '' && Number.isFinite(Number(text)) ? Number(text) : fallback,
      }),
      fallback: () => example.scale,
    },
    {
      key: 'q',
      get: () => sandbox.query,
      set: (q) => (sandbox.query = q),
      parse: (text) => ({ value: text.slice(0, MAX_QUERY) }),
      fallback: () => example.query,
    },
    {
      key: 'tokens',
      get: () => sandbox.tokens,
      set: setTokens,
      parse: parseTokens,
      format: tokensText,
      fallback: () => example.tokens,
    },
  ];
}
