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

let parseTimer = 0;
let parseSerial = 0;
/** Sets the own pairs' text; the engine reads it a moment after the typing stops. */
export function setPairsText(text, fileName = '') {
  pairs.text = text;
  pairs.fileName = fileName;
  clearTimeout(parseTimer);
  parseTimer = /** @type {any} */ (setTimeout(readPairs, 300));
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
  const max = trainer.limits?.maxBytes;
  if (max && file.size > max) {
    Object.assign(pairs, {
      status: 'error',
      parsed: null,
      fileName: file.name,
      failure: {
        code: 'limit_exceeded',
        message: `${file.name} has ${file.size.toLocaleString('en')} bytes; the trainer takes at most ${max.toLocaleString('en')} bytes of pairs.`,
        details: { limit: max, length: file.size },
      },
    });
    return;
  }
  config.data = 'pairs';
  setPairsText(await file.text(), file.name);
}

// own pairs typed before the trainer answered are read once it has
onTrainerReady(() => {
  if (pairs.text) void readPairs();
});
