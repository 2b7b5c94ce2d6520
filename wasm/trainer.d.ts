// The trainer module (build/wasm/trainer.js, made by the `trainer` target): the page module's API
// (playground.d.ts: Model, Session, attend, limits, …) plus training over apg::train::Run
// (src/train/run.hpp). Written by hand; tests/js/trainer-api.test.mjs checks that it names every
// binding of the module and nothing else. Every error is an EngineError (playground.d.ts).
import type {
  AttentionStyle,
  Model,
  Playground,
  PlaygroundOptions,
  ScoreKind,
  Tokenizer,
} from './playground.js';

export type { EngineError, Model, Session } from './playground.js';

/** What a training run accepts, from src/core/limits.hpp. */
export interface TrainLimits {
  /** pairs in an own-pairs text */
  maxPairs: number;
  /** bytes of an own-pairs text (UTF-8) */
  maxBytes: number;
  /** tokens of one source / target of an own pair */
  maxSourceTokens: number;
  maxTargetTokens: number;
  /** UTF-8 bytes of one token (a word) */
  maxTokenBytes: number;
  /** tokens of one vocabulary, the 4 specials included */
  maxVocabTokens: number;
  /** steps of a run, and mini-batches one step(n) call may take */
  maxSteps: number;
  maxStepsPerCall: number;
  maxBatch: number;
  minLearningRate: number;
  /** high on purpose: a person may watch a run blow up (1e20 overflows the weights in two steps) */
  maxLearningRate: number;
  maxEmbed: number;
  maxHidden: number;
  /** held-out pairs one evaluate() decodes */
  maxEvalExamples: number;
  /** 2^53 − 1 */
  maxSeed: number;
  /** code points of the probe text */
  maxProbeChars: number;
  /**
   * bytes a run may allocate (its parameters with Adam's moments, a mini-batch's buffers, its
   * data, an evaluation), counted from its sizes and its data before the model is made (more:
   * limit_exceeded naming the product that is too large, e.g. target steps × batch × target tokens)
   */
  maxWorkBytes: number;
  /** the engine's memory ceiling: a module's heap stays under it doing one piece of work */
  maxHeapBytes: number;
}

export type EncoderKind = 'gru' | 'transformer';
export type DecoderKind = 'gru' | 'transformer';

/** A task's recipe (what `apg train` uses) and its probe; the defaults of a TrainConfig. */
export interface TaskRecipe {
  /** 'dates' | 'zh' | 'reverse' | 'scenes' (trainTasks), 'pairs' (pairsRecipe) */
  name: string;
  /** the input whose alignment evaluate() returns ('' for pairs: the first held-out source; scenes: a scene description, its columns the 64 cells a1 … h8, row by row) */
  probe: string;
  defaultSteps: number;
  batch: number;
  learningRate: number;
  /** embedding size (the transformer's model size) */
  embed: number;
  /** GRU: the encoder state per direction (decoder 2 · hidden, additive attention hidden); transformer: feed-forward size */
  hidden: number;
  sourceTokenizer: Tokenizer;
  targetTokenizer: Tokenizer;
  /**
   * The attention score functions this task trains (the content-based ones, then location), each
   * with the styles whose recipe model the engine's config check accepts; 'none' (no attention) is
   * not listed.
   */
  scores: TrainableScore[];
}

/** A score function a task trains, and the attention styles it takes there. */
export interface TrainableScore {
  name: ScoreKind | 'location';
  styles: AttentionStyle[];
}

/** 'auto': words when at least half of the sources and half of the targets hold a space, else characters. */
export type Tokenization = 'auto' | 'char' | 'word';

/** What parsePairs read: the data a run on these pairs trains on. */
export interface PairsSummary {
  count: number;
  /** the tokenization used (auto resolved) */
  tokenization: 'char' | 'word';
  /** vocabulary sizes, the 4 specials included */
  sourceVocab: number;
  targetVocab: number;
  trainCount: number;
  /** a tenth of the pairs, at most 1,000, none under 10 pairs; split by source text, from the seed */
  heldoutCount: number;
  /** [k] = pairs whose side has k tokens */
  sourceLengths: number[];
  targetLengths: number[];
  longestSource: number;
  longestTarget: number;
}

/**
 * A training run. Give `task` or `pairs` (not both). Every other field is optional: unset fields
 * take the task's recipe (trainTasks / pairsRecipe). Out-of-range or wrongly typed values and
 * unknown fields throw EngineError bad_argument with details.name = the field.
 */
export interface TrainConfig {
  task?: 'dates' | 'zh' | 'reverse';
  /** own data: source<TAB>target lines (see parsePairs) */
  pairs?: string;
  /** with pairs only; default 'auto' */
  tokenization?: Tokenization;
  score?: ScoreKind | 'location' | 'none';
  style?: AttentionStyle;
  /** 'bigru' is read as 'gru' */
  encoder?: EncoderKind | 'bigru';
  /** 'transformer': 2 layers × 4 heads of model size embed (score and style then default to
   *  'scaled_dot' and 'luong', the only ones it takes); default 'gru' */
  decoder?: DecoderKind;
  embed?: number;
  hidden?: number;
  learningRate?: number;
  batch?: number;
  steps?: number;
  /** data, initialisation and batch order, as `apg train --seed`; default 1 */
  seed?: number;
  /** held-out pairs evaluate() decodes when called without a limit; default 200 */
  evalExamples?: number;
  /** held-out exact match inside step() every this many steps (0, the default: never) */
  evalEvery?: number;
  /** the input of evaluate()'s alignment; default the task's probe */
  probe?: string;
  /** the transformer's feed-forward activation; default 'relu' */
  activation?: 'relu' | 'gelu';
}

export interface TrainProgress {
  step: number;
  totalSteps: number;
  /** sequences trained on so far */
  sequences: number;
  /** mean of the mini-batches' mean token cross-entropy over this step() call */
  loss: number;
  /** mean of the mini-batches' teacher-forced argmax accuracy over this step() call */
  tokenAccuracy: number;
  /** the last mini-batch's global gradient norm, before clipping */
  gradNorm: number;
  /** the last mini-batch's learning rate (cosine decay) */
  learningRate: number;
  /** training time so far (evaluations not counted) */
  elapsedSeconds: number;
  sequencesPerSecond: number;
  /** the last evaluation's held-out exact match (evaluate() or evalEvery), null before any */
  heldoutExactMatch: number | null;
  done: boolean;
  /**
   * a non-finite loss, gradient norm or parameter, or a mini-batch loss past ten times the first
   * one's: the parameters before the step that showed it were kept
   */
  diverged: boolean;
  /** the first mini-batch's loss (the untrained model's), 0 before it */
  firstLoss: number;
  /** with diverged: what happened, at which step (in English) */
  message?: string;
  /** with diverged: how */
  divergence?: 'loss_grew' | 'loss_not_finite' | 'gradient_not_finite' | 'parameters_not_finite';
  /** with diverged: the mini-batch loss that showed it (NaN or ±Infinity when not finite) */
  divergedLoss?: number;
  /** with diverged: the step that showed it */
  divergedStep?: number;
}

export interface ProbeAlignment {
  /** the probe as the run was given it (the task's, or the first held-out pair's for own pairs) */
  text: string;
  /** a name per source position: tokens, grid cells or frames */
  source: string[];
  /** one token per decoding step, the end token '</s>' included when it was taken */
  output: string[];
  rows: number;
  cols: number;
  /**
   * rows × cols, row-major: row i = step i's attention weights over the source (each row sums to 1).
   * Empty (rows and cols 0) for a run without attention (score 'none'): it weighs no source token.
   */
  weights: Float32Array;
}

/**
 * A held-out pair as the run's model answers it at this evaluation, written as text the way its
 * vocabularies write tokens (words with a space between them, characters together).
 */
export interface HeldoutPrediction {
  /** '' where the source is an image or a sound */
  source: string;
  target: string;
  /** the greedy decode's tokens before the end token */
  output: string;
  /** the output is the target and the decode ended */
  correct: boolean;
}

export interface Evaluation {
  step: number;
  /** of the first `examples` held-out pairs; null when the data has none held out */
  heldoutExactMatch: number | null;
  examples: number;
  /** the first held-out pairs (at most 8, the same ones at every evaluation), right or wrong */
  predictions: HeldoutPrediction[];
  probe: ProbeAlignment;
}

/** The run's configuration with the recipe's values filled in, and its data's sizes. */
export interface TrainSettings {
  task: string;
  score: string;
  style: AttentionStyle;
  encoder: EncoderKind;
  decoder: DecoderKind;
  embed: number;
  hidden: number;
  steps: number;
  batch: number;
  learningRate: number;
  seed: number;
  evalExamples: number;
  trainCount: number;
  heldoutCount: number;
  sourceVocab: number;
  targetVocab: number;
  sourceTokenizer: Tokenizer;
  targetTokenizer: Tokenizer;
}

/** An embind object: call delete() when done. */
export interface TrainRun {
  /** Trains up to n mini-batches (1..maxStepsPerCall), fewer at the end. Throws bad_state after divergence or cancel. */
  step(n: number): TrainProgress;
  /** limit: held-out pairs to decode (0 or left out: evalExamples; at most maxEvalExamples) */
  evaluate(limit?: number): Evaluation;
  /** the model as trained so far: a Model of this module, decoded like a loaded one */
  snapshot(): Model;
  /** .safetensors bytes in the CLI's format (vocabularies, config, training record with held-out exact match over every held-out pair) */
  save(): Uint8Array;
  /**
   * the snapshot's .safetensors bytes: the training record's held-out figure is the last
   * evaluation's (heldout_examples pairs), so saving costs no decoding
   */
  snapshotBytes(): Uint8Array;
  /** save()'s bytes with the figure their training record holds (over every held-out pair) */
  saveScored(): { bytes: Uint8Array; heldoutExactMatch: number | null; examples: number };
  /** stops the run for good and frees its training buffers; the model stays for snapshot/save */
  cancel(): void;
  settings(): TrainSettings;
  /** the progress after the last step() (step 0 before any) */
  progress(): TrainProgress;
  delete(): void;
  isDeleted(): boolean;
}

export interface TrainRunClass {
  /** EngineError bad_argument naming the field; parsePairs' errors for own pairs; the probe's vocabulary errors */
  new (config: TrainConfig): TrainRun;
}

/** Sources of minLength to maxLength tokens (both included). */
export interface LengthBucket {
  minLength: number;
  maxLength: number;
  pairs: number;
  /** of them, greedy output equal to the target token for token */
  hits: number;
  /** hits / pairs (0 for an empty bucket) */
  exactMatch: number;
}

/** Model.accuracyByLength's answer (decode::accuracy_by_length). */
export interface LengthAccuracy {
  bucketWidth: number;
  pairs: number;
  hits: number;
  /** consecutive, from the shortest source's bucket to the longest's (an empty one between kept) */
  buckets: LengthBucket[];
  /** [k] = 1 when pair k matched */
  matches: Uint8Array;
  /** [k] = pair k's source length in tokens */
  sourceLengths: Int32Array;
}

/** A Model of this module: it also evaluates by source length (the page module has no room for it). */
export interface TrainerModel extends Model {
  /**
   * Greedy exact match of [source text, target text] pairs (at most 10,000) per bucket of
   * bucketWidth (1..the engine's maxInputTokens, default 4) source tokens. Throws EngineError
   * bad_argument (options, a pair that is not two strings), limit_exceeded (too many pairs), and
   * the model's errors for a source or target it cannot read.
   */
  accuracyByLength(pairs: [string, string][], options?: { bucketWidth?: number }): LengthAccuracy;
}

export interface Trainer extends Playground {
  trainLimits(): TrainLimits;
  /** the three tasks' recipes for an encoder and a decoder (default 'gru' both) */
  trainTasks(encoder?: EncoderKind, decoder?: DecoderKind): TaskRecipe[];
  /** the defaults for own pairs (name 'pairs') */
  pairsRecipe(encoder?: EncoderKind, decoder?: DecoderKind): TaskRecipe;
  /**
   * Reads own pairs as a run would (seed: the held-out split's, default 1). Throws EngineError
   * naming the line ("line N: …", details.line): empty_input, bad_argument (an empty line, no or
   * two tabs, an empty side, a control character, bad UTF-8), too_long (a side or a word), limit_exceeded
   * (bytes, pairs, a vocabulary).
   */
  parsePairs(text: string, tokenization?: Tokenization, seed?: number): PairsSummary;
  /**
   * A task's 1,000 held-out [source text, target text] pairs for a data seed (default 1): the ones
   * `apg eval` decodes for a model whose training record has that data_seed. Throws EngineError
   * bad_argument (details.name 'task' or 'seed').
   */
  heldoutPairs(task: 'dates' | 'zh' | 'reverse', seed?: number): [string, string][];
  TrainRun: TrainRunClass;
}

export default function createTrainer(options?: PlaygroundOptions): Promise<Trainer>;
