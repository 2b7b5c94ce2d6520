// What the modules the page loads lazily share (the image module, wasm/image/imaging.d.ts; the
// audio module, wasm/audio/audio.d.ts), as their bindings share wasm/lazy_bindings.hpp: a
// session's decoding options, its session (the page module's DecodingSession), the start and end
// of a model's info, and the module's factory options. Each module's declarations extend these.
import type { DecodingSession } from './playground';

/** A session's decoding options (ImageModel.caption, AudioModel.listen). */
export interface SessionOptions {
  /** how many next tokens each step reports, 1 to the vocabulary's size (default 5) */
  topK?: number;
  /** step limit, 0 (the model's own: max_target_len + 1) to the engine's maxSteps */
  maxSteps?: number;
  /** softmax temperature of the attention weights */
  temperature?: number;
}

/** A decoding session over the module's input: the page module's, over other positions. */
export type ModuleSession = DecodingSession;

/** What every module's model info holds: the model, its target vocabulary and training record. */
export interface ModuleModelInfo {
  score: string;
  style: 'bahdanau' | 'luong';
  tgtVocab: string[];
  /** from the training record, or null */
  heldoutExactMatch: number | null;
  training: Record<string, unknown>;
}

/** The module factory's options. */
export interface ModuleOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
}
