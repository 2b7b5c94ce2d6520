// Which of a Transformer decoder's heads Decode shows (its layer and head), and whether the
// alignment is the heads' average (the engine's record.weights, the last layer's heads averaged)
// or that one head's cross-attention. Link: head=1.2 (layer 1, head 2, from 0), align=head.
import { declareLink } from '../../../shared/link/link.svelte.js';
import { oneOf, quote } from '../../../shared/link/parse.js';
import { row } from '../../../shared/lib/tensor.js';
import { Text } from '../../../shared/i18n/translate.js';
import transformerDict from './strings.js';

/** The alignments a person may choose: the engine's average, or the head shown. */
export const ALIGNMENTS = /** @type {const} */ (['mean', 'head']);

export const heads = $state({
  layer: 0,
  head: 0,
  /** @type {'mean' | 'head'} */
  alignment: 'mean',
});

/** Layers and heads as large as a link may name; a model's own are fewer, and the view keeps within them. */
const MAX_INDEX = 63;

/** "1.2" → { layer: 1, head: 2 }. */
export function parseHead(
  /** @type {string} */ text,
  /** @type {{ layer: number, head: number }} */ fallback,
) {
  const match = /^(\d{1,2})\.(\d{1,2})$/.exec(text);
  if (match && Number(match[1]) <= MAX_INDEX && Number(match[2]) <= MAX_INDEX)
    return { value: { layer: Number(match[1]), head: Number(match[2]) } };
  return { value: fallback, note: new Text(transformerDict, 'badHead', { head: quote(text) }) };
}

/** Shows the head `head` of layer `layer` (from a picker, or a click on its small heatmap). */
export function pickHead(layer, head) {
  heads.layer = layer;
  heads.head = head;
}

/** Keeps the head shown within a model of `layers` × `perLayer` heads (a link may name more). */
export function keepHeadWithin(layers, perLayer) {
  if (heads.layer >= layers) heads.layer = layers - 1;
  if (heads.head >= perLayer) heads.head = perLayer - 1;
}

/**
 * The chosen head's score and weight of every source position at a step (its cross-attention),
 * for the figures that read the one head shown: the readout of the position pointed at.
 * @param {import('../../../../wasm/playground').StepRecord} s
 */
export function shownHeadRow(s) {
  if (!s.crossScores || !s.crossWeights) return { scores: null, weights: null };
  const [layers, perLayer] = s.crossWeights.shape;
  const [layer, head] = [Math.min(heads.layer, layers - 1), Math.min(heads.head, perLayer - 1)];
  return { scores: row(s.crossScores, layer, head), weights: row(s.crossWeights, layer, head) };
}

/**
 * A step's row of the alignment: the engine's weights (a Transformer's: its last layer's heads
 * averaged), or, when the person asks for it, the chosen head's cross-attention weights.
 * @param {import('../../../../wasm/playground').StepRecord} s
 */
export function alignmentRow(s) {
  if (s.decoder !== 'transformer' || heads.alignment !== 'head' || !s.crossWeights)
    return s.weights ?? new Float32Array(0);
  const [layers, perLayer] = s.crossWeights.shape;
  return row(s.crossWeights, Math.min(heads.layer, layers - 1), Math.min(heads.head, perLayer - 1));
}

declareLink('heads', [
  {
    key: 'head',
    get: () => ({ layer: heads.layer, head: heads.head }),
    set: (h) => pickHead(h.layer, h.head),
    parse: parseHead,
    format: (h) => `${h.layer}.${h.head}`,
    fallback: () => ({ layer: 0, head: 0 }),
  },
  {
    key: 'align',
    get: () => heads.alignment,
    set: (a) => (heads.alignment = a),
    parse: oneOf(ALIGNMENTS, (text) => new Text(transformerDict, 'badAlign', { align: quote(text) })),
    fallback: () => 'mean',
  },
]);
