// The trainer module's JS API as the Train view uses it (built by the wasm preset as
// build/wasm/trainer.js + trainer.wasm). The numbers are the C++ run's; the binding only converts.
declare module '@engine/trainer.js' {
  import type { Model } from '@engine/playground.js';

  export type Tokenization = 'auto' | 'char' | 'word';

  export interface TrainLimits {
    maxPairs: number;
    maxBytes: number;
    maxSourceTokens: number;
    maxTargetTokens: number;
    maxSteps: number;
    maxBatch: number;
    minLearningRate: number;
    maxLearningRate: number;
    maxEmbed: number;
    maxHidden: number;
    [name: string]: number;
  }

  /** A task's recipe (the command line's), or the recipe for own pairs. */
  export interface TrainTask {
    name: string;
    probe: string;
    defaultSteps: number;
    batch: number;
    learningRate: number;
    embed: number;
    hidden: number;
    sourceTokenizer: string;
    targetTokenizer: string;
  }

  export interface ParsedPairs {
    count: number;
    tokenization: 'char' | 'word';
    sourceVocab: number;
    targetVocab: number;
    trainCount: number;
    heldoutCount: number;
    sourceLengths: number[];
    targetLengths: number[];
    longestSource: number;
    longestTarget: number;
  }

  export interface RunConfig {
    task?: string;
    pairs?: string;
    tokenization?: Tokenization;
    score: string;
    style: string;
    encoder?: string;
    embed?: number;
    hidden?: number;
    learningRate?: number;
    batch?: number;
    steps?: number;
    seed?: number;
    evalExamples?: number;
    probe?: string;
  }

  export interface StepReport {
    step: number;
    totalSteps: number;
    sequences: number;
    loss: number;
    tokenAccuracy: number;
    gradNorm: number;
    learningRate: number;
    elapsedSeconds: number;
    sequencesPerSecond: number;
    done: boolean;
    diverged: boolean;
    message?: string;
  }

  export interface Evaluation {
    step: number;
    /** null when the data has no held-out pairs */
    heldoutExactMatch: number | null;
    examples: number;
    probe: { source: string[]; output: string[]; rows: number; cols: number; weights: Float32Array };
  }

  export interface TrainRun {
    step(n: number): StepReport;
    evaluate(limit: number): Evaluation;
    snapshot(): Model;
    save(): Uint8Array;
    cancel(): void;
    delete(): void;
  }

  export interface Trainer {
    trainLimits(): TrainLimits;
    trainTasks(encoder?: string): TrainTask[];
    pairsRecipe(encoder?: string): TrainTask;
    parsePairs(text: string, tokenization: Tokenization, seed?: number): ParsedPairs;
    TrainRun: new (config: RunConfig) => TrainRun;
  }

  const createTrainer: () => Promise<Trainer>;
  export default createTrainer;
}
