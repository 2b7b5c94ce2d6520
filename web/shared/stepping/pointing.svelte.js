// Linked pointing in a stepping view: the source position (a token, a grid cell, a frame) the
// reader points at in one figure is lit up in every other that shows it for the current step —
// the source line, the scores' and the weights' bars, the current row of the heatmap and the
// rows of the formulas — so one token's score, weight and share of the context are read together.
// Only a pointer sets it (and leaving, or a second tap, clears it): nothing is pointed at when a
// view opens.
import { pointerEvents } from '../lib/pointer.js';

export const pointing = $state({
  /** @type {number | null} the source position pointed at, or none */
  j: null,
});

/**
 * The pointer events that make position `j` the one pointed at (web/shared/lib/pointer.js).
 * @param {number} j
 */
export const pointAt = (j) => pointerEvents(j, () => pointing.j === j, point);

/** For a figure that names the position itself: `j`, or null to clear. @param {number | null} j */
export function point(j) {
  pointing.j = j;
}
