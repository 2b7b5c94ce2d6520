// The newest request wins. Engine answers can come back out of order (the person types on, or
// switches model while a decode runs); an answer may land only while it is still the newest of
// its slot, so a slow old answer never overwrites a newer one.
//
//   const decodeRuns = latest();
//   const current = decodeRuns();        // a new request: every older one is now stale
//   const result = await engine.decode(…);
//   if (!current()) return;              // a newer request was made meanwhile: drop this answer
//
// One runner serves independent slots too (Compare runs one request per model at once):
// `runs(name)` makes the request the newest of slot `name` only.

/** @returns {(slot?: string) => () => boolean} start a request; the returned check says whether it is still the newest */
export function latest() {
  /** @type {Map<string, object>} slot → the newest request's token */
  const newest = new Map();
  return (slot = '') => {
    const token = {};
    newest.set(slot, token);
    return () => newest.get(slot) === token;
  };
}
