// The encoder–decoder Transformer's heads ranked by how far each one's cross-attention is from
// Bahdanau's alignment (the engine's mean distance, one per layer and head; null where a head was
// not measured). Compare marks the nearest head, and the tour's bridge stop names it and the
// farthest; both take them from here, so the two never name different heads.

/**
 * The nearest and the farthest head, the first of equals in layer-then-head order; null when no
 * head was measured.
 * @param {ReadonlyArray<ReadonlyArray<{ meanDistance: number } | null | undefined>> | null | undefined} heads
 * @returns {{ nearest: HeadDistance, farthest: HeadDistance } | null}
 */
export function extremeHeads(heads) {
  /** @type {HeadDistance | null} */
  let nearest = null;
  /** @type {HeadDistance | null} */
  let farthest = null;
  for (const [l, row] of (heads ?? []).entries())
    for (const [h, d] of row.entries()) {
      if (!d) continue;
      const head = { l, h, d: d.meanDistance };
      if (!nearest || head.d < nearest.d) nearest = head;
      if (!farthest || head.d > farthest.d) farthest = head;
    }
  return nearest && farthest ? { nearest, farthest } : null;
}

/** @typedef {{ l: number, h: number, d: number }} HeadDistance a head (layer l, head h, from 0) and its distance */
