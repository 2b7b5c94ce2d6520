// Hand-written declarations of the embind module built from wasm/*.cpp (Emscripten 3.1.6 has no
// --emit-tsd). Every array the engine returns is a copy; nothing here needs .delete().

/** Input vector: any array-like of numbers. Every element must be finite. */
export type VectorInput = ArrayLike<number>;
/** Input matrix: rows of numbers, or a row-major buffer with its shape. */
export type MatrixInput = ArrayLike<VectorInput> | { data: VectorInput; rows: number; cols: number };

/** Output matrix, row-major. */
export interface Matrix {
  data: Float32Array;
  rows: number;
  cols: number;
}

export type ScoreKind = 'dot' | 'scaled_dot' | 'general' | 'additive' | 'cosine';

/** The parameters of a score function; only the kind's own members are present. */
export interface ScoreParams {
  kind: ScoreKind;
  /** general: dq × dk */
  w?: Matrix;
  /** additive: da × dq */
  w_q?: Matrix;
  /** additive: da × dk */
  w_k?: Matrix;
  /** additive: da */
  v?: Float32Array;
}

export interface ScoreParamsInput {
  w?: MatrixInput;
  w_q?: MatrixInput;
  w_k?: MatrixInput;
  v?: VectorInput;
}

export interface AttendOptions {
  /** Softmax temperature τ > 0; weights = softmax(scores / τ). Default 1. */
  temperature?: number;
  /** One entry per key, truthy = attend. Default: attend to every key. */
  mask?: ArrayLike<number | boolean>;
  /** Score parameters (general, additive). Default: defaultParams(kind, dq, dk, hidden_size). */
  params?: ScoreParamsInput;
  /** da of the default additive parameters. Default: the query size. */
  hidden_size?: number;
}

/** The three stages of one attention step; names as in the C++ AttentionStep and the trace. */
export interface AttendResult {
  kind: ScoreKind;
  temperature: number;
  /** stage 1, n: e_j = score(q, k_j), before the temperature */
  scores: Float32Array;
  /** stage 2, n: softmax(e / τ) over the unmasked keys, 0 at masked ones */
  weights: Float32Array;
  /** stage 3, dv: Σ_j weights_j · values_j */
  context: Float32Array;
  /** additive: n × da, row j = tanh(W_q q + W_k k_j); otherwise null */
  hidden: Matrix | null;
  /** additive: W_q q (da); otherwise null */
  query_proj: Float32Array | null;
  /** cosine: ‖q‖; otherwise null */
  query_norm: number | null;
  /** the parameters used: the caller's, or the defaults */
  params: ScoreParams;
}

export interface Playground {
  /** The three stages on hand-made vectors. keys: n × dk, values: n × dv. Throws Error with the C++ message. */
  attend(
    kind: ScoreKind,
    query: VectorInput,
    keys: MatrixInput,
    values: MatrixInput,
    options?: AttendOptions,
  ): AttendResult;
  /** The deterministic parameters (fixed seed) used when attend() is given none. */
  defaultParams(kind: ScoreKind, dq: number, dk: number, da: number): ScoreParams;
  /** ['dot', 'scaled_dot', 'general', 'additive', 'cosine'] */
  scoreKinds(): ScoreKind[];
  /** 'wasm_simd128' or 'scalar': the ISA of the kernels in this build */
  simdIsa(): string;
  /** Live embind value handles, for leak checks. */
  count_emval_handles(): number;
  /** The wasm stack pointer (Emscripten runtime), for checking that errors give the stack back. */
  stackSave(): number;
}

export interface PlaygroundOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
}

export default function createPlayground(options?: PlaygroundOptions): Promise<Playground>;
