// What the memory tests share: finding the largest request the engine's budget admits (a refusal
// allocates nothing, so the search is cheap), and the heap a module has grown to. The wasm heap
// never shrinks: its size after the work is the work's peak (with what the module held before).
import assert from 'node:assert/strict';

export const MiB = 2 ** 20;

/**
 * The largest k in [lo, hi] for which admitted(k) is true, given that admitted is monotone
 * (true up to some k, false after) and admitted(lo) holds. admitted(k) returns false when the
 * engine refuses with limit_exceeded and cleans up what it made when it does not.
 */
export function largestAdmitted(lo, hi, admitted) {
  assert.ok(admitted(lo), `${lo} is refused already`);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (admitted(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Runs f; true when it ran, false when the engine refused it with limit_exceeded. */
export function admits(f) {
  try {
    f();
    return true;
  } catch (error) {
    if (error.code === 'limit_exceeded') return false;
    throw error;
  }
}

/** The module's heap, and a check that it is within the engine's ceiling. */
export function heapWithin(module, limits, what) {
  const heap = module.HEAPU8.buffer.byteLength;
  assert.ok(
    heap <= limits.maxHeapBytes,
    `${what}: the heap grew to ${heap / MiB} MiB, past ${limits.maxHeapBytes / MiB}`,
  );
  return heap;
}
