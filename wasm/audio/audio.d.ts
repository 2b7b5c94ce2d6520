// The audio module (build/wasm/audio.js): the speech task's synthesizer, its sound, and listening
// sessions of speech models over an utterance's frames. Loaded lazily (only by the Listen view),
// apart from the page's first module (playground.js). Its errors and step records are the page
// module's: EngineError and StepRecord of playground.d.ts.
import type { EngineError, Matrix, StepRecord } from '../playground';
import type { ModuleModelInfo, ModuleOptions, ModuleSession, SessionOptions } from '../lazy_module';

export type { EngineError, StepRecord };

/** The frames [begin, end) one character of the transcript was made from (' ': a pause). */
export interface LetterSpan {
  letter: string;
  begin: number;
  end: number;
}

/** What to say: synthesize()'s argument. Any other key is refused (bad_argument naming it). */
export interface SpeechRequest {
  /** words of the lexicon separated by spaces (upper case is lowered) */
  phrase: string;
  /** the synthesizer's seed (letter durations, pitch, gain, noise draws): a whole number ≥ 0, default 1 */
  seed?: number;
  /** speaking rate, minRate to maxRate (default 1: the letters' own durations) */
  rate?: number;
  /** noise, 0 to maxNoise (default 0.1) */
  noise?: number;
}

export interface Utterance {
  /** the transcript: the words in lower case, one space between */
  text: string;
  /** T × bands: frame t's band energies in row t (what a speech model hears) */
  frames: Matrix;
  /** one per character of text, in order */
  spans: LetterSpan[];
  /** bands the letters' patterns were shifted by (−1, 0 or 1) */
  pitch: number;
}

export interface AudioLimits {
  /** features per frame (the models' input size) */
  bands: number;
  /** each band's centre frequency (Hz): the oscillator renderAudio plays its energy as */
  bandHz: Float32Array;
  /** the sound's sample rate renderAudio uses by default (Hz) */
  sampleRate: number;
  /** samples per frame at sampleRate (frames are 10 ms) */
  samplesPerFrame: number;
  /** the most frames an utterance may have (longer: too_long) */
  maxFrames: number;
  /** the largest magnitude of a frame value renderAudio, listen and encode accept (beyond: bad_argument) */
  maxFrameValue: number;
  minRate: number;
  maxRate: number;
  maxNoise: number;
  /** characters of a phrase (more: too_long) */
  maxPhraseChars: number;
  /** bytes of a checkpoint AudioModel.load accepts */
  maxFileBytes: number;
  /** bytes one listening may allocate, counted before it starts (more: limit_exceeded) */
  maxWorkBytes: number;
  /** the engine's memory ceiling: the module's heap stays under it */
  maxHeapBytes: number;
  /** "how much wood would a woodchuck chuck if a woodchuck could chuck wood" */
  woodchuck: string;
}

export interface AudioModelInfo extends ModuleModelInfo {
  task: 'speech';
  encoder: string;
  /** frames per encoder position: the encoder's time reduction */
  reduction: number;
  dims: Record<string, number>;
  /** from the training record, or null: character error rate, monotonicity */
  heldoutCer: number | null;
  monotonicity: number | null;
}

export type ListenOptions = SessionOptions;

/** A session over an utterance's frames: its tokens are letters. */
export interface AudioSession extends ModuleSession {
  /** frames per encoder position */
  reduction(): number;
}

export interface AudioModel {
  info(): AudioModelInfo;
  /**
   * A listening session over T × bands frames ({data, rows, cols}, or a Float32Array of whole
   * frames). EngineError bad_argument (details.name: frames, options.*), too_long over maxFrames.
   */
  listen(frames: Matrix | Float32Array, options?: ListenOptions): AudioSession;
  /** The encoder alone: H (L × dh). */
  encode(frames: Matrix | Float32Array): { states: Matrix; reduction: number };
  delete(): void;
}

export interface AudioModule {
  /** The words synthesize() knows, in the engine's order. */
  lexicon(): string[];
  /**
   * The utterance of a phrase. EngineError empty_input (no words), unknown_token (details.word:
   * the first word outside the lexicon), bad_argument (details.name: rate, noise, seed, or an
   * unknown key), too_long (the phrase over maxPhraseChars, or more than maxFrames frames).
   */
  synthesize(request: SpeechRequest): Utterance;
  /**
   * Sound to listen to: sampleRate / 100 samples per frame, in [−1, 1]. EngineError bad_argument
   * (details.name: frames, sampleRate), too_long over maxFrames.
   */
  renderAudio(frames: Matrix | Float32Array, sampleRate?: number): Float32Array;
  limits(): AudioLimits;
  AudioModel: {
    /** A .safetensors speech model; EngineError bad_checkpoint, or bad_argument for a model of another task. */
    load(bytes: Uint8Array): AudioModel;
  };
  /** Live embind value handles, for leak checks. */
  count_emval_handles(): number;
}

export default function createAudio(options?: ModuleOptions): Promise<AudioModule>;
