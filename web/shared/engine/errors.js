// Errors from the Worker to the page. Comlink's default transfer of a thrown Error keeps only its
// name, message and stack; the engine's errors also carry `code` and `details` (web/shared/lib/errors.js),
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
        const { code, details } = error;
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
