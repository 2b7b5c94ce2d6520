// Declarations of the embind module built from wasm/*.cpp, written by hand (Emscripten 3.1.6 has
// no --emit-tsd) except the records marked as generated from the C++ field tables. Every array
// the engine returns is a copy; nothing here needs .delete().

// ---- Errors ----

/** The code of every error the engine throws (the names of apg::ErrorCode in src/core/error.hpp). */
export type ErrorCode =
  | 'empty_input'
  | 'unknown_token'
  | 'too_long'
  | 'bad_checkpoint'
  | 'bad_argument'
  | 'bad_state'
  | 'limit_exceeded';

/**
 * Every call of this module throws only EngineError: an Error whose message is the engine's whole
 * message, with a code to decide on (never match the message) and the facts behind it.
 * - empty_input: the text has no tokens.
 * - unknown_token: details.tokens (the unknown ones), details.suggestions (known near ones), details.count.
 * - too_long: details.length, details.limit, details.unit ('characters' or 'tokens'); a string
 *   argument longer than limits().maxArgumentChars is too_long with details.argument.
 * - bad_checkpoint: a file the loader rejects; details.field where one is to blame.
 * - bad_argument: a value passed in is of the wrong kind or out of range; details.name (the
 *   argument or option, e.g. 'options.topK'), details.limit (the largest accepted) where there is
 *   one; details.argument (its position, from 1) when the value could not even be read (a getter
 *   or proxy that throws, a detached buffer, nesting too deep, a value that holds itself); the
 *   error's cause is then the error that reading it raised.
 * - bad_state: a call out of order (a step after the end; any call on a deleted object, delete()
 *   of one included).
 * - limit_exceeded: a piece of work past the memory budget (limits().maxWorkBytes: details.name
 *   the product too large, e.g. 'steps × source positions × attention_dim', details.bytes,
 *   details.limit), or memory or the stack ran out.
 */
export interface EngineError extends Error {
  code: ErrorCode;
  details: {
    tokens?: string[];
    suggestions?: string[];
    count?: number;
    length?: number;
    limit?: number;
    unit?: string;
    field?: string;
    name?: string;
    argument?: number;
    [key: string]: unknown;
  };
}

// ---- Values ----
// Every argument is copied into plain values before the engine runs (so page code a getter or a
// proxy runs cannot interfere with a call); strings are made well-formed (a lone surrogate
// becomes U+FFFD); objects are read by their own enumerable properties only. A value held twice
// is copied once, so the copy is linear in the value's size.

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

export type ScoreKind = 'dot' | 'scaled_dot' | 'general' | 'additive' | 'cosine' | 'scaled_cosine';

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
  /** scaled_cosine: the scale g of scores = g · cos(q, k_j) (default √dk) */
  scale?: number;
}

export interface ScoreParamsInput {
  w?: MatrixInput;
  w_q?: MatrixInput;
  w_k?: MatrixInput;
  v?: VectorInput;
  /** scaled_cosine: g, from −1000 to 1000 */
  scale?: number;
}

export interface AttendOptions {
  /** Softmax temperature τ > 0; weights = softmax(scores / τ). Default 1. */
  temperature?: number;
  /** One entry per key, truthy = attend. Default: attend to every key. */
  mask?: ArrayLike<number | boolean>;
  /** Score parameters (general, additive, scaled_cosine). Default: defaultParams(kind, dq, dk, hidden_size). */
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
  /** cosine, scaled_cosine: ‖q‖; otherwise null */
  query_norm: number | null;
  /** scaled_cosine: the g the cosines were multiplied by; otherwise null */
  scale: number | null;
  /** the parameters used: the caller's, or the defaults */
  params: ScoreParams;
  /** stage 2 spelled out: exp((e_j − maxScore)/τ), 0 at masked keys */
  exps: Float32Array;
  maxScore: number;
  /** Σ_j exps_j; weights_j = exps_j / expSum */
  expSum: number;
  /** −Σ α_j ln α_j of the weights, in nats */
  entropy: number;
  /** ln(number of unmasked keys): the entropy of uniform weights */
  maxEntropy: number;
}

// ---- Trained models and step-by-step decoding (wasm/model_bindings.cpp) ----

export type AttentionStyle = 'bahdanau' | 'luong';
export type Tokenizer = 'characters' | 'words';

export interface TopToken {
  id: number;
  token: string;
  prob: number;
}

// ---- generated from decode/record_schema.hpp by wasm/generate-types.mjs; do not edit ----
/**
 * One decoding step, every stage with the engine’s numbers. Shape letters: n source tokens,
 * da additive attention size, dh encoder state size, Hd decoder state size, Vt target
 * vocabulary, k top-k tokens (DecodeOptions.topK); the Transformer decoder’s: L layers,
 * h heads, dk = d / h, d model size, f feed-forward size, t tokens fed so far (index + 1).
 */
export interface StepRecord {
  /** the step's position in the session, from 0 */
  index: number;
  /** what produced the record */
  kind: 'decoder';
  /** the token taken at this step ('</s>' ends the output) */
  tokenId: number;
  /** the token taken, as text */
  token: string;
  /** how the token was chosen */
  choice: 'greedy' | 'forced';
  /** log p(token) */
  logProb: number;
  /** y_{i-1}: the token fed in ('<s>' at the first step) */
  prevTokenId: number;
  /** the token fed in, as text */
  prevToken: string;
  /** k: the top-k next tokens, most probable first */
  top: TopToken[];
  /** Hd: s_{i-1} */
  prevState: Float32Array;
  /** Hd: s_{i-1} (Bahdanau) or s_i (Luong) */
  query: Float32Array;
  /** 'weights': context = Σ_j weights_j h_j; 'fixed_vector': no attention, context = the encoder's final states, the same at every step (scores, weights and exps null, the softmax numbers 0) */
  contextFrom: 'weights' | 'fixed_vector';
  /** n: stage 1: e_j = score(query, h_j); null without attention */
  scores: Float32Array | null;
  /** scaled_cosine: the learned g of scores = g · cos(query, h_j); 1 otherwise */
  scale: number;
  /** n × da: additive: row j = tanh(W_q query + W_k h_j); otherwise null */
  hidden: Matrix | null;
  /** n: location: α_{i-1}, read by the features */
  previousWeights: Float32Array | null;
  /** n × kf: location: F ∗ previousWeights */
  location: Matrix | null;
  /** n: stage 2: softmax(scores / τ), or the pinned weights; null without attention */
  weights: Float32Array | null;
  /** dh: stage 3: Σ_j weights_j h_j (without attention the fixed vector) */
  context: Float32Array;
  /** Hd: s_i */
  state: Float32Array;
  /** Hd: Luong: tanh(W_c [context; s_i]); Bahdanau: null */
  attentional: Float32Array | null;
  /** Vt: the output layer before the softmax */
  logits: Float32Array;
  /** Vt: softmax(logits) */
  probs: Float32Array;
  /** n: stage 2 spelled out: exp((e_j − maxScore)/τ), 0 at masked keys; null without attention */
  exps: Float32Array | null;
  /** the largest unmasked score */
  maxScore: number;
  /** Σ_j exps_j; weights_j = exps_j / expSum */
  expSum: number;
  /** −Σ_j weights_j ln weights_j, in nats */
  entropy: number;
  /** ln(unmasked keys): the entropy of uniform weights */
  maxEntropy: number;
  /** 1 when a what-if changed this step (mask, pin, τ ≠ 1) */
  intervened: number;
  /** n: what-if: 1 at a masked source token; null when none */
  masked: Float32Array | null;
  /** what-if: weights pinned one-hot on a token, or given */
  pin: 'none' | 'token' | 'weights';
  /** τ of this step's softmax */
  temperature: number;
  /** 'transformer': the fields above are its last layer's cross-attention (weights averaged over the heads, context its output c, query its u, state x_L, prevState x_0 = emb + PE; scores null), the fields below every layer × head; 'gru': the fields below are null */
  decoder: 'gru' | 'transformer';
  /** L × h × t: transformer: masked self-attention scores q·k/√dk over the tokens fed so far (<s> first); later positions are not computed */
  selfScores: Tensor | null;
  /** L × h × t: transformer: softmax of selfScores, this step's row of the causal triangle */
  selfWeights: Tensor | null;
  /** L × h × dk: transformer: Σ_j selfWeights_j v_j, each head's output */
  selfContext: Tensor | null;
  /** L × h × n: transformer: cross-attention scores q·k_j/√dk over the source, before τ; −Infinity at masked tokens */
  crossScores: Tensor | null;
  /** L × h × n: transformer: softmax(crossScores / τ), or a head's pinned weights */
  crossWeights: Tensor | null;
  /** L × h × dk: transformer: Σ_j crossWeights_j v_j, each head's output (0 for a head switched off) */
  crossContext: Tensor | null;
  /** L × d: transformer: x_{l−1}, each layer's input (layer 0: emb + PE) */
  layerInput: Tensor | null;
  /** L × d: transformer: a, the self-attention heads concatenated through W_o */
  selfOutput: Tensor | null;
  /** L × d: transformer: u = LayerNorm1(x + a), the cross-attention's query input */
  norm1: Tensor | null;
  /** L × d: transformer: c, the cross-attention heads concatenated through W_o */
  crossOutput: Tensor | null;
  /** L × d: transformer: v = LayerNorm2(u + c) */
  norm2: Tensor | null;
  /** L × f: transformer: the feed-forward block's activations */
  ffnHidden: Tensor | null;
  /** L × d: transformer: x_l = LayerNorm3(v + FFN(v)), the next layer's input */
  layerOutput: Tensor | null;
  /** L × h × dk: transformer, on request (qkv): each head's q = W_q x + b_q */
  selfQuery: Tensor | null;
  /** L × h × t × dk: transformer, on request: each head's keys of the tokens fed so far (the cache and this step's row) */
  selfKey: Tensor | null;
  /** L × h × t × dk: transformer, on request: each head's values likewise */
  selfValue: Tensor | null;
  /** L × h × dk: transformer, on request: each head's q = W_q u + b_q */
  crossQuery: Tensor | null;
  /** L × h × n × dk: transformer, on request: each head's k_j = W_k h_j + b_k */
  crossKey: Tensor | null;
  /** L × h × n × dk: transformer, on request: each head's v_j = W_v h_j + b_v */
  crossValue: Tensor | null;
  /** L × h × n: transformer what-if: 1 where a head's own mask hides the token (besides masked); null when none */
  headMasked: Tensor | null;
  /** L × h: transformer what-if: 1 where a head's weights were pinned at this step; null when none */
  headPinned: Tensor | null;
  /** L × h: transformer what-if: 1 where a head was switched off; null when none */
  headOff: Tensor | null;
}

/**
 * One Transformer encoder layer (Source = Target: every token attends to every token).
 * Shape letters: n tokens, d model size, h heads, dh = d / h, f feed-forward size.
 */
export interface SelfAttentionRecord {
  /** what produced the record */
  kind: 'self_attention';
  /** the layer, from 0 */
  index: number;
  /** the layer, from 0 (as index) */
  layer: number;
  /** h */
  heads: number;
  /** n: 1 = real token */
  mask: number[];
  /** n × d: the layer's input (layer 0: embedding + positional code) */
  input: Tensor;
  /** h × dh × d: each head's rows of W_q (out × in): q = W_q x + b_q */
  wQ: Tensor;
  /** h × dh: each head's part of b_q */
  bQ: Tensor;
  /** h × dh × d: each head's rows of W_k: k = W_k x + b_k */
  wK: Tensor;
  /** h × dh: each head's part of b_k */
  bK: Tensor;
  /** h × dh × d: each head's rows of W_v: v = W_v x + b_v */
  wV: Tensor;
  /** h × dh: each head's part of b_v */
  bV: Tensor;
  /** h × n × dh: each head's columns of Q = X W_qᵀ + b_q */
  query: Tensor;
  /** h × n × dh: each head's K */
  key: Tensor;
  /** h × n × dh: each head's V */
  value: Tensor;
  /** h × n × n: Q Kᵀ */
  rawScores: Tensor;
  /** h × n × n: rawScores / √dh, −Infinity at masked keys */
  scores: Tensor;
  /** h × n × n: row-wise softmax of scores */
  weights: Tensor;
  /** h × n × dh: weights · value, each head's output */
  context: Tensor;
  /** n × d: the heads concatenated, projected by W_o */
  attention: Tensor;
  /** n × d: LayerNorm1(input + attention) */
  norm1: Tensor;
  /** n × f: the feed-forward block's activations */
  ffnHidden: Tensor;
  /** n × d: LayerNorm2(norm1 + FFN(norm1)), the next layer's input */
  output: Tensor;
}
// ---- end of generated declarations ----

/** One field of a record's table. */
export interface RecordField {
  /** the name on the page (camelCase of trace) */
  name: string;
  /** the name in the trace and its exports */
  trace: string;
  type: 'integer' | 'number' | 'label' | 'token' | 'vector' | 'matrix' | 'top' | 'ints' | 'tensor';
  /** shape letters, one per dimension ([] for scalars) */
  shape: string[];
  /** null on the page (left out of the trace) when the model has no such buffer */
  optional: boolean;
  doc: string;
  /** label: the values it takes */
  labels?: string[];
  /** token: the integer field holding its id */
  of?: string;
}

/** An n-d tensor: row-major data and its shape */
export interface Tensor {
  data: Float32Array;
  shape: number[];
}

/** A model's own limits (Model.info().limits). */
export interface ModelLimits {
  /** the fewest tokens of one input: 1 (an empty input gives empty_input) */
  minSourceTokens: number;
  /** tokens of one input (more gives too_long) */
  maxSourceTokens: number;
  /** tokens of one output; a session stops after maxTargetTokens + 1 steps unless maxSteps says otherwise */
  maxTargetTokens: number;
  /** the largest DecodeOptions.topK: the target vocabulary's size */
  maxTopK: number;
}

/** What the engine accepts (Playground.limits()), from its one table of limits. */
export interface EngineLimits {
  /** bytes of a checkpoint Model.load accepts (more: limit_exceeded) */
  maxFileBytes: number;
  /** characters (code points) of one text given to Model.decode (more: too_long) */
  maxInputChars: number;
  /** tokens of one input for any model; a model's own bound, info().limits.maxSourceTokens, is at most this */
  maxInputTokens: number;
  /** numbers in one vector or matrix passed to attend() or weightDifference() */
  maxVectorLength: number;
  /** dq, dk, da of defaultParams() and options.hidden_size: the widest a model's sizes may be */
  maxParamsSize: number;
  /** the largest |g| of attend()'s options.params.scale (scaled_cosine) */
  maxCosineScale: number;
  /** the largest DecodeOptions.maxSteps, and the most steps any decoding takes */
  maxSteps: number;
  /** the widest Session.beam() */
  maxBeamWidth: number;
  /**
   * elements of one array, and array elements, object keys and string characters of all the
   * arguments of one call together (a value passed or held twice counts once; one that holds
   * itself is refused: bad_argument)
   */
  maxArgumentElements: number;
  /** how deep any argument may nest */
  maxArgumentDepth: number;
  /** UTF-16 units of one string in any argument (more: too_long, before it is copied) */
  maxArgumentChars: number;
  /**
   * bytes one piece of work may allocate: a decoding (with its encoder's records and a beam
   * search's hypotheses), one export of it, a training run; counted before anything is allocated
   * (more: limit_exceeded naming the product that is too large)
   */
  maxWorkBytes: number;
  /** the engine's memory ceiling: a module's heap stays under it doing one piece of work */
  maxHeapBytes: number;
  /** the smallest softmax temperature τ (attend, decode, Session.whatIf), a float32 near 1e-3 */
  minTemperature: number;
  /** the largest softmax temperature τ */
  maxTemperature: number;
}

export interface ModelInfo {
  task: string;
  /** 'none': the fixed-vector baseline, a decoder without attention */
  score: ScoreKind | 'none';
  style: AttentionStyle;
  dims: {
    embedding: number;
    /** 'transformer': self-attention layers (see Session.selfAttention) */
    encoder: 'gru' | 'transformer';
    /** 'transformer': layers × heads of masked self-attention and cross-attention, in every
     *  StepRecord's rows from `decoder` on; a checkpoint of it loads only in a module that includes
     *  it (the trainer module: Model.load elsewhere gives bad_checkpoint with details.module 'trainer') */
    decoder: 'gru' | 'transformer';
    encoderHidden: number;
    bidirectional: boolean;
    /** a transformer encoder's or decoder's (null when both are GRUs) */
    heads: number | null;
    layers: number | null;
    ffHidden: number | null;
    /** size of h_j: 2 · encoderHidden when bidirectional, embedding for the transformer */
    encoderState: number;
    decoderHidden: number;
    attentionDim: number;
    /** location: kf, the filters over the previous weights (the record's location is n × kf); otherwise null */
    locationFilters: number | null;
    /** location: r, their odd width in source positions; otherwise null */
    locationWidth: number | null;
    maxSourceLen: number;
    maxTargetLen: number;
  };
  sourceTokenizer: Tokenizer;
  targetTokenizer: Tokenizer;
  /** vocabularies, id → token; ids 0–3 are <pad>, <s>, </s>, <unk> */
  srcVocab: string[];
  tgtVocab: string[];
  /** held-out exact match from the training record, or null */
  heldoutExactMatch: number | null;
  /** the training record: command, seeds, steps, … */
  training: Record<string, unknown>;
  limits: ModelLimits;
}

export interface BeamNode {
  id: number;
  /** node id, -1 for a first step */
  parent: number;
  depth: number;
  tokenId: number;
  token: string;
  logProb: number;
  totalLogProb: number;
  finished: boolean;
  /** a what-if changed this step's attention (a token masked, the weights pinned, τ ≠ 1) */
  intervened: boolean;
  /** the attention weights of this node's step (n) */
  weights: Float32Array;
}

/** What-ifs by output step (from 0), applied at each step in this order: [step, source index] for
 *  masks and unmasks (from that step on), [step, index | weights] for pins (that step only), [step, τ]. */
export interface BeamWhatIfs {
  masks?: [number, number][];
  unmasks?: [number, number][];
  pins?: [number, number | number[] | Float32Array][];
  temperatures?: [number, number][];
  /** the Transformer decoder's on one cross-attention head: [step, layer, head, source index] */
  headMasks?: [number, number, number, number][];
  headUnmasks?: [number, number, number, number][];
  /** [step, layer, head, index | weights], that step only */
  headPins?: [number, number, number, number | number[] | Float32Array][];
  /** [step, layer, head]: switched off (its output 0) from that step on, or back on */
  headOffs?: [number, number, number][];
  headOns?: [number, number, number][];
}

export interface BeamResult {
  nodes: BeamNode[];
  /** final hypotheses as node ids from the first step to the last, best first */
  beams: number[][];
  /** their scores: total log probability divided by the length */
  scores: number[];
}

/** How sure the model was of the tokens taken (Session.confidence()), the end token included. */
export interface Confidence {
  steps: number;
  /** the mean of p(token) over the steps */
  meanProb: number;
  /** the lowest p(token), at minStep (from 0; -1 before the first step) */
  minProb: number;
  minStep: number;
  /** Π p(token): the probability of the whole output */
  sequenceProb: number;
  /** minProb < lowBelow: at some step the other tokens together were more likely than the one taken */
  low: boolean;
  /** 0.5 */
  lowBelow: number;
}

/** Any other key is refused (bad_argument naming it). */
export interface DecodeOptions {
  /** how many next tokens each step reports: 1 to info().limits.maxTopK (default 5) */
  topK?: number;
  /** step limit, 0 to limits().maxSteps (default, or 0: the model's maxTargetTokens + 1) */
  maxSteps?: number;
  /** softmax temperature of the attention weights, finite (default 1) */
  temperature?: number;
  /** Transformer decoder: reuse the earlier positions' self-attention keys and values (default
   *  true); false recomputes them at every step, with the same numbers */
  kvCache?: boolean;
  /** Transformer decoder: fill the records' selfQuery, selfKey, selfValue, crossQuery, crossKey and
   *  crossValue (default false: null) */
  qkv?: boolean;
}

/**
 * What a decoding session of every module does (this one's Session, the image module's
 * ImageSession, the audio module's AudioSession). An embind object: call delete() when done. A
 * session keeps its model's network alive: deleting the Model first is allowed and the session
 * keeps working until it is deleted itself. Any call after delete() throws bad_state.
 */
export interface DecodingSession {
  /** the most probable token; EngineError bad_state once done */
  step(): StepRecord;
  /** take this token instead (what-if); later steps follow from it. Error for an id out of range */
  force(tokenId: number): StepRecord;
  /** undo the last step; false when there was none */
  back(): boolean;
  reset(): void;
  /** greedy steps until the end; returns the new steps */
  run(): StepRecord[];
  done(): boolean;
  length(): number;
  record(index: number): StepRecord;
  /** Step `index` (from 0) as a Python file that recomputes its score, softmax and context with
   *  NumPy and compares them with these numbers; `model` and `input` name them in its header.
   *  bad_argument for a step not taken, a model without attention or with the Transformer decoder. */
  reproduce(index: number, model: string, input: string): string;
  trace(): StepRecord[];
  outputTokens(): string[];
  outputText(): string;
  /** H: n × dh, the encoder states the decoder attends over */
  encoderStates(): Matrix;
  delete(): void;
  isDeleted(): boolean;
}

/** A text model's session: the source's tokens, what-ifs, beam search, exports. */
export interface Session extends DecodingSession {
  sourceTokens(): string[];
  /** the transformer encoder's layers, every stage of every head; [] for a GRU encoder */
  selfAttention(): SelfAttentionRecord[];
  /** The query at `query` of head `head` in layer `layer` (each from 0) as a Python file that
   *  recomputes q, k, v, the scores, the softmax and the context with NumPy (as reproduce). */
  reproduceSelfAttention(layer: number, head: number, query: number, model: string, input: string): string;
  /** a what-if, one per call: {mask: i} gives source token i weight 0 at every later step (the
   *  softmax over the rest), {unmask: i} takes that back; {pin: i | weights | null}: the next step's
   *  weights one-hot on token i, or the n weights given (finite, ≥ 0, not all 0) over their sum,
   *  null takes the pin back; {temperature: τ}: the softmax's τ for every later step. A Transformer
   *  decoder's do so in every head of every layer, and these act on one cross-attention head:
   *  {headMask: [layer, head, i]} (from the next step on; headUnmask takes it back), {headPin:
   *  [layer, head, i | weights]} (the next step), {headOff: [layer, head]} (its output 0 from the
   *  next step on; headOn takes it back). EngineError bad_argument (details.name) for a value out
   *  of range (details.name 'layer' or 'head' for those), or masking the last token a head has left */
  whatIf(
    what:
      | { mask: number }
      | { unmask: number }
      | { pin: number | ArrayLike<number> | null }
      | { temperature: number }
      | { headMask: [number, number, number] }
      | { headUnmask: [number, number, number] }
      | { headPin: [number, number, number | ArrayLike<number>] }
      | { headOff: [number, number] }
      | { headOn: [number, number] },
  ): void;
  /** over the steps taken so far */
  confidence(): Confidence;
  /** with what-ifs, every hypothesis at output step i gets step i's, as a session given them before step i */
  beam(width: number, whatIfs?: BeamWhatIfs): BeamResult;
  /** the C++ Trace as JSON: {meta, steps: [{kind, index, fields, tensors: {name: {shape, data}}}]},
   *  plus encoder: [layer records of kind self_attention] for a transformer encoder */
  exportJson(): string;
  /** file name → .npy bytes; buffers of equal shape are stacked over steps ("weights.npy": steps × n);
   *  a transformer encoder's as "encoder.weights.npy" (layers × heads × n × n) */
  exportNpy(): Record<string, Uint8Array>;
}

/** An embind object: call delete() when done (sessions keep their model alive). */
export interface Model {
  info(): ModelInfo;
  /** EngineError empty_input, unknown_token (named, with suggestions) or too_long; bad_argument for bad options */
  decode(text: string, options?: DecodeOptions): Session;
  delete(): void;
  isDeleted(): boolean;
}

export interface ModelClass {
  /** EngineError bad_checkpoint ('checkpoint: …', naming the problem) for a bad file, and for a
   *  Transformer decoder's in a module without it (details.field 'decoder', details.module
   *  'trainer': load it there); bad_argument if not a Uint8Array */
  load(bytes: Uint8Array): Model;
}

export interface WeightDifference {
  value: number;
  row: number;
  col: number;
  a: number;
  b: number;
  /** the mean over the common steps of ½ Σ_j |a − b|: 0 for the same alignment, 1 for disjoint ones */
  meanDistance: number;
}

export interface Playground {
  Model: ModelClass;
  /** the wasm memory, for heap-size checks */
  HEAP8: Int8Array;
  /** The three stages on hand-made vectors. keys: n × dk, values: n × dv. Throws EngineError. */
  attend(
    kind: ScoreKind,
    query: VectorInput,
    keys: MatrixInput,
    values: MatrixInput,
    options?: AttendOptions,
  ): AttendResult;
  /**
   * The largest weight cosine attention can give over n keys (1 to limits().maxInputTokens) with
   * score scale g (default 1): e^{2g} / (e^{2g} + n − 1). Throws EngineError bad_argument.
   */
  cosineWeightBound(n: number, scale?: number): number;
  /** The deterministic parameters (fixed seed) used when attend() is given none. */
  defaultParams(kind: ScoreKind, dq: number, dk: number, da: number): ScoreParams;
  /** ['dot', 'scaled_dot', 'general', 'additive', 'cosine', 'scaled_cosine'] */
  scoreKinds(): ScoreKind[];
  /** 'wasm_simd128' or 'scalar': the ISA of the kernels in this build */
  simdIsa(): string;
  /** What the engine accepts; a model's own limits are in info().limits. */
  limits(): EngineLimits;
  /** The field table StepRecord or SelfAttentionRecord is generated from, in record order. */
  recordSchema(kind: 'decoder' | 'self_attention'): RecordField[];
  /**
   * Where two sets of weights (steps × source positions, e.g. two models' decodes of one input)
   * differ most, over the steps and positions both have: |a − b| (value), its step (row) and
   * position (col), and both weights there; and the two alignments' mean distance. Throws
   * EngineError when they share no cell.
   */
  weightDifference(a: MatrixInput, b: MatrixInput): WeightDifference;
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
