// What the Listen view's Worker exposes (web/features/listen/worker.js implements it over the audio module,
// wasm/audio/audio.d.ts). The step records are the page module's: the speech model's decoder is the
// same GRU decoder, attending over the L positions of the audio encoder (each `reduction` frames of
// the utterance) instead of source tokens.
import type { Matrix, StepRecord } from '../../../wasm/playground';
import type { AudioLimits, AudioModelInfo, LetterSpan } from '../../../wasm/audio/audio';

/** What to say: a phrase of the lexicon's words, and how (the synthesizer's seed, rate and noise). */
export interface UtteranceInput {
  phrase: string;
  seed: number;
  rate: number;
  noise: number;
}

/** The engine's utterance: its frames, which frames each letter came from, and its sound. */
export interface UtteranceShown {
  text: string;
  /** T × bands: the frames the model hears, frame by frame */
  frames: Matrix;
  spans: LetterSpan[];
  /** the sound the engine rendered from the frames, samplesPerFrame samples a frame */
  pcm: Float32Array;
  sampleRate: number;
  samplesPerFrame: number;
}

export interface Listened {
  /** L × d: the audio encoder's states, one per `reduction` frames */
  annotations: Matrix;
  reduction: number;
  /** one per letter written (the end token last); a step's scores and weights have L entries */
  steps: StepRecord[];
  output: string[];
  outputText: string;
}

export interface Listening {
  utterance: UtteranceShown;
  /** model name → what it wrote */
  models: Record<string, Listened>;
}

export interface ListenInfo {
  lexicon: string[];
  limits: AudioLimits;
}

export interface ListenApi {
  init(): Promise<ListenInfo>;
  loadModel(name: string, bytes: ArrayBuffer): Promise<AudioModelInfo>;
  /** The utterance of `input` through each named model (loaded before). */
  listen(names: string[], input: UtteranceInput, options?: { topK?: number }): Promise<Listening>;
  /** Step `step` of `input` through the model `name` as a Python file that recomputes it with NumPy. */
  reproduce(name: string, input: UtteranceInput, step: number): Promise<string>;
}
