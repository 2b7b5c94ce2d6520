// The pointer events of one item of a figure that lights up the position it shows (a bar, a
// source token, a formula row): it is the one pointed at while a mouse or pen is over it, and on
// a touch screen (where a finger leaves as soon as it lifts) from one tap on it to the next.

/**
 * @param {number} j the item's position
 * @param {() => boolean} isPointed whether `j` is the position pointed at now
 * @param {(j: number | null) => void} onpoint told the position pointed at, or null for none
 */
export function pointerEvents(j, isPointed, onpoint) {
  return {
    /** @param {PointerEvent} event */
    onpointerenter: (event) => {
      if (event.pointerType !== 'touch') onpoint(j);
    },
    /** @param {PointerEvent} event */
    onpointerleave: (event) => {
      if (event.pointerType !== 'touch' && isPointed()) onpoint(null);
    },
    /** @param {PointerEvent} event */
    onpointerdown: (event) => {
      if (event.pointerType === 'touch') onpoint(isPointed() ? null : j);
    },
  };
}
