// The Listen view's browser tests share how a link asks for an utterance and which speech models
// are shipped.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The link's hash for the Listen view saying `say` ({ phrase, seed, rate, noise }), with `extra` fields. */
export const listenHash = (say, extra = {}) =>
  `#${new URLSearchParams({
    view: 'listen',
    say: say.phrase,
    lseed: String(say.seed),
    lrate: String(say.rate),
    lnoise: String(say.noise),
    ...extra,
  })}`;

/** Whether the speech model of `score` (Bahdanau style) is shipped in web/models. */
export const shippedSpeech = (score) =>
  existsSync(
    fileURLToPath(new URL(`../../web/models/speech-${score}-bahdanau.safetensors`, import.meta.url)),
  );
