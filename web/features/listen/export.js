// The Listen view's downloads, made from what the view passes (the engine's records as they reached
// the page, never recomputed): the utterance's trace as JSON, the letters × encoder positions
// alignment as CSV, and the spectrogram with the current letter's weights as PNG (its two canvases
// as the page drew them, one over the other).
import { inks } from '../../shared/lib/canvas.js';
import { recordsJson } from '../../shared/lib/export.js';

/**
 * @typedef {{ model: string, score: string, style: string,
 *   input: import('./listen').UtteranceInput,
 *   utterance: import('./listen').UtteranceShown, result: import('./listen').Listened }} ListenShown
 */

/**
 * The trace of the utterance through the model: the model's name, what was said and how, the
 * frames (T × bands) and the letters' frame spans, the encoder's reduction, and every step record
 * the view steps through (typed arrays written as plain arrays of the engine's float32 values).
 * The sound (pcm) is left out: it is rendered from the frames.
 * @param {ListenShown} shown
 */
export function listenTraceJson({ model, score, style, input, utterance, result }) {
  return recordsJson({
    model,
    score,
    style,
    input,
    text: utterance.text,
    frames: utterance.frames,
    spans: utterance.spans,
    reduction: result.reduction,
    output: result.output,
    outputText: result.outputText,
    steps: result.steps,
  });
}

const csvField = (x) => {
  const text = String(x);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/**
 * One row per (letter written, encoder position): the letter, the frames the position covers
 * (`reduction` each, the last one cut at the utterance's end) and the weight the engine gave it.
 * @param {import('./listen').Listened} result
 * @param {number} frames the utterance's T
 */
export function alignmentCsv(result, frames) {
  const lines = [['step', 'letter', 'position', 'first_frame', 'last_frame', 'weight'].join(',')];
  const r = result.reduction;
  for (const s of result.steps) {
    const weights = s.weights ?? [];
    for (let j = 0; j < weights.length; j++)
      lines.push(
        [s.index, s.token, j, j * r, Math.min(frames, (j + 1) * r) - 1, weights[j]].map(csvField).join(','),
      );
  }
  return lines.join('\n') + '\n';
}

/**
 * The canvases inside `element` (the spectrogram and the weights over it) drawn one over the other
 * on a white ground, at the size they have on the page, as a PNG.
 * @param {Element} element
 * @returns {Promise<Blob>}
 */
export function canvasesToPng(element) {
  const layers = /** @type {HTMLCanvasElement[]} */ ([...element.querySelectorAll('canvas')]);
  if (!layers.length || !layers[0].width) return Promise.reject(new Error('the picture is not drawn yet'));
  const out = Object.assign(document.createElement('canvas'), {
    width: layers[0].width,
    height: layers[0].height,
  });
  const context = out.getContext('2d');
  if (!context) return Promise.reject(new Error('this browser cannot draw on a canvas'));
  // the card's colour in the theme of the moment: the canvases are drawn in its inks
  context.fillStyle = inks(element).paper;
  context.fillRect(0, 0, out.width, out.height);
  for (const layer of layers) context.drawImage(layer, 0, 0);
  return new Promise((resolve, reject) =>
    out.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('the PNG could not be made'))),
      'image/png',
    ),
  );
}
