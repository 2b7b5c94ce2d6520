// What the page's canvases share: a backing store at the screen's pixel density, the pointer
// handlers that read the number under the pointer, and the theme's colours. Drawing only, no model
// math.
import { theme } from '../theme.svelte.js';

/**
 * Sizes `canvas`'s backing store to `width` × `height` CSS pixels at the device's pixel ratio
 * (resizing only when that changed, which also clears it), clears it and scales its context so
 * that drawing is in CSS pixels. Null when the canvas has no 2D context.
 * @param {HTMLCanvasElement} canvas
 * @param {number} width
 * @param {number} height
 */
export function hiDpiContext(canvas, width, height) {
  const ratio = window.devicePixelRatio || 1;
  const w = Math.round(width * ratio);
  const h = Math.round(height * ratio);
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, w, h);
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  return ctx;
}

/**
 * The handlers of a canvas read by pointing: `pick` on a move or a press (a touch has no hover,
 * so a tap reads too), `clear` when the pointer leaves — except a touch's, whose pointerleave
 * follows the tap at once and would take the reading away before it is seen.
 * @param {(event: PointerEvent) => void} pick
 * @param {() => void} clear
 */
export function pointerReading(pick, clear) {
  return {
    onpointermove: pick,
    onpointerdown: pick,
    /** @param {PointerEvent} event */
    onpointerleave: (event) => {
      if (event.pointerType !== 'touch') clear();
    },
  };
}

/**
 * The page's colours of the moment for drawing on `element`'s canvas (a canvas, uPlot's included,
 * takes no CSS variables): the theme's ink, rule, muted stroke, track and card (styles.css). Read
 * in a drawing effect, it draws again when the theme changes.
 * @param {Element} element
 */
export function inks(element) {
  void theme.dark;
  const style = getComputedStyle(element);
  const read = (name) => style.getPropertyValue(name).trim();
  return {
    ink: read('--ink'),
    line: read('--line'),
    mute: read('--mute'),
    track: read('--track'),
    paper: read('--paper'),
  };
}
