// The person's own pairs for the Train view: the text (never in the link) and the engine's reading
// of it (counts, vocabularies, lengths, or its coded message), read by the trainer's helper Worker.
import { readError } from '../../shared/lib/errors.js';
import { config, loadTrainer, onTrainerReady, trainer, trainerHelper } from './train.svelte.js';

/** The person's own pairs: the text (never in the URL) and the engine's reading of it. */
export const pairs = $state({
  text: '',
  fileName: '',
  /** @type {'empty' | 'reading' | 'ok' | 'error'} */
  status: 'empty',
  /** @type {import('@engine/trainer.js').PairsSummary | null} */
  parsed: null,
  /** @type {import('../../shared/lib/errors.js').Failure | null} */
  failure: null,
});

/**
 * A text (or file) over the trainer's byte limit, as the refusal the page shows; null within it.
 * Only its size is looked at, so a text of megabytes is refused at once, with no per-line work
 * and no trip to the engine (which would refuse it the same way, by the same limit).
 * @param {number} bytes the UTF-8 bytes it has
 * @param {string} what how the message names it
 * @param {boolean} [pasted] a paste, not yet in the box
 * @returns {import('../../shared/lib/errors.js').Failure | null}
 */
export function oversize(bytes, what, pasted = false) {
  const max = trainer.limits?.maxBytes;
  if (!max || bytes <= max) return null;
  return {
    code: 'limit_exceeded',
    message: `${what} has ${bytes.toLocaleString('en')} bytes; the trainer takes at most ${max.toLocaleString('en')} bytes of pairs.`,
    // pasted: the words of another language name a paste apart from a file or the box's text
    details: { name: 'pairs', limit: max, length: bytes, pasted },
  };
}

/**
 * UTF-8 bytes of a text, counted without encoding it: a unit below U+0080 is one byte, below
 * U+0800 two, a surrogate two (a pair is four), any other three.
 */
export function utf8Bytes(/** @type {string} */ text) {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) bytes += c < 0x800 || (c >= 0xd800 && c < 0xe000) ? 1 : 2;
  }
  return bytes;
}

/** Shows a refusal of the pairs at once (the text kept is the one before it). */
function refuse(failure, fileName = '') {
  clearTimeout(parseTimer);
  ++parseSerial;
  Object.assign(pairs, { status: 'error', parsed: null, fileName, failure });
}

let parseTimer = 0;
let parseSerial = 0;
/** Sets the own pairs' text; the engine reads it a moment after the typing stops. */
export function setPairsText(text, fileName = '') {
  const tooBig = oversize(utf8Bytes(text), fileName || 'The text');
  if (tooBig) return refuse(tooBig, fileName);
  pairs.text = text;
  pairs.fileName = fileName;
  clearTimeout(parseTimer);
  parseTimer = /** @type {any} */ (setTimeout(readPairs, 300));
}

/**
 * A paste into the pairs' box: one over the byte limit is refused before it reaches the box (a
 * textarea laying out megabytes holds the page for seconds), with the limit as the message.
 * @returns {boolean} whether the paste was refused
 */
export function refusePaste(/** @type {string} */ pasted) {
  const tooBig = oversize(utf8Bytes(pasted), 'The pasted text', true);
  if (tooBig) refuse(tooBig);
  return tooBig !== null;
}

/** The engine's reading of the pairs (counts, vocabularies, lengths) or its message. */
export async function readPairs() {
  const serial = ++parseSerial;
  if (pairs.text === '') {
    Object.assign(pairs, { status: 'empty', parsed: null, failure: null });
    return;
  }
  const api = trainerHelper();
  if (!api) return void loadTrainer();
  pairs.status = 'reading';
  try {
    const parsed = await api.parsePairs(
      pairs.text,
      /** @type {import('@engine/trainer.js').Tokenization} */ (config.tokenization),
      config.seed,
    );
    if (serial !== parseSerial) return;
    Object.assign(pairs, { status: 'ok', parsed, failure: null });
  } catch (error) {
    if (serial !== parseSerial) return;
    Object.assign(pairs, { status: 'error', parsed: null, failure: readError(error) });
  }
}

/**
 * A dropped or picked file of pairs: read as text unless it is over the trainer's byte limit
 * (then the limit is the message; the file is not read).
 * @param {File} file
 */
export async function loadPairsFile(file) {
  const tooBig = oversize(file.size, file.name);
  if (tooBig) return refuse(tooBig, file.name);
  config.data = 'pairs';
  setPairsText(await file.text(), file.name);
}

// own pairs typed before the trainer answered are read once it has
onTrainerReady(() => {
  if (pairs.text) void readPairs();
});
