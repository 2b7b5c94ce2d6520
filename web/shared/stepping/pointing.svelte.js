// Linked pointing in a stepping view: the source position (a token, a grid cell, a frame) the
// reader points at in one figure is lit up in every other that shows it for the current step —
// the source line, the scores' and the weights' bars, the current row of the heatmap and the
// rows of the formulas — so one token's score, weight and share of the context are read together.
// Only a pointer sets it (and leaving, or a second tap, clears it): nothing is pointed at when a
// view opens.

export const pointing = $state({
  /** @type {number | null} the source position pointed at, or none */
  j: null,
});

/**
 * The pointer events that make position `j` the one pointed at: while a mouse or pen is over it,
 * and on a touch screen (where a finger leaves as soon as it lifts) from one tap to the next.
 * @param {number} j
 */
export function pointAt(j) {
  return {
    /** @param {PointerEvent} event */
    onpointerenter: (event) => {
      if (event.pointerType !== 'touch') pointing.j = j;
    },
    /** @param {PointerEvent} event */
    onpointerleave: (event) => {
      if (event.pointerType !== 'touch' && pointing.j === j) pointing.j = null;
    },
    /** @param {PointerEvent} event */
    onpointerdown: (event) => {
      if (event.pointerType === 'touch') pointing.j = pointing.j === j ? null : j;
    },
  };
}

/** For a figure that names the position itself: `j`, or null to clear. @param {number | null} j */
export function point(j) {
  pointing.j = j;
}
