// Errors from the Worker to the page. Comlink's default transfer of a thrown Error keeps only its
// name, message and stack; the engine's errors also carry `code` and `details` (web/lib/errors.js),
// and the page decides by them. carryErrorCodes() makes Comlink carry both; the page's side needs
// nothing (Comlink rebuilds the Error with every field it was sent).
import * as Comlink from 'comlink';

/** Installs the error transfer that keeps `code` and `details` (call once, in the Worker). */
export function carryErrorCodes() {
  const base = Comlink.transferHandlers.get('throw');
  if (!base) throw new Error("Comlink has no 'throw' transfer handler to extend");
  Comlink.transferHandlers.set('throw', {
    canHandle: base.canHandle,
    serialize(thrown) {
      const [wire, transfer] = base.serialize(thrown);
      const error = /** @type {any} */ (thrown).value;
      if (/** @type {any} */ (wire).isError && error && typeof error === 'object') {
        const { code, details } = error.code ? error : legacyCode(String(error.message));
        if (code) Object.assign(/** @type {any} */ (wire).value, { code, details: cloneable(details) });
      }
      return [wire, transfer];
    },
    deserialize: base.deserialize,
  });
}

// Details are plain values (numbers, strings, lists of strings); anything else is dropped rather
// than let the transfer itself fail.
function cloneable(details) {
  try {
    return structuredClone(details ?? {});
  } catch {
    return {};
  }
}

/**
 * Engines built before errors had codes throw plain Errors; this reads their messages, in this
 * one place, so that the page decides by code alone. An error it does not recognise keeps no code.
 * @returns {{ code: string, details: Record<string, unknown> }}
 */
export function legacyCode(message) {
  const quoted = (text) => [...text.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
  const unknown = [
    ...message.matchAll(/unknown (?:word|character) ("[^"]*")(?: \(did you mean ([^)]*)\?\))?/g),
  ];
  if (unknown.length)
    return {
      code: 'unknown_token',
      details: {
        tokens: unknown.map((m) => quoted(m[1])[0]),
        // the first unknown token's: the suggestions are for the first few unknown tokens
        suggestions: quoted(unknown[0][2] ?? ''),
      },
    };
  if (/^empty input\b/.test(message)) return { code: 'empty_input', details: {} };
  const long = /^input has (\d+) tokens, this model accepts at most (\d+)/.exec(message);
  if (long) return { code: 'too_long', details: { length: Number(long[1]), limit: Number(long[2]) } };
  if (/^checkpoint\b/.test(message)) return { code: 'bad_checkpoint', details: {} };
  return { code: '', details: {} };
}
