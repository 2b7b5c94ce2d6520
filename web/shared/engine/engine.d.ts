// What the engine Worker exposes (web/shared/engine/worker.js implements it; tsc checks that it does).
// The types of the engine's answers are those of the wasm module (wasm/playground.d.ts).
import type {
  BeamResult,
  BeamWhatIfs,
  Confidence,
  Matrix,
  ModelInfo,
  Playground,
  ScoreKind,
  SelfAttentionRecord,
  StepRecord,
} from '../../../wasm/playground';

export interface EngineInfo {
  /** 'wasm_simd128' or 'scalar' */
  isa: string;
  kinds: ScoreKind[];
  /** what the engine accepts; the page shows the input's limit beside the text box */
  limits: import('../../../wasm/playground').EngineLimits;
}

/** A decoding session kept in the Worker until the page closes it. */
export type SessionId = number;

/** A Transformer decoder's what-ifs on one cross-attention head, in Session.beam's form: [step, layer, head, …]. */
export interface DecodeRequest extends Pick<
  BeamWhatIfs,
  'headMasks' | 'headUnmasks' | 'headPins' | 'headOffs' | 'headOns'
> {
  /** how many next tokens each step reports (default 5) */
  topK?: number;
  /** [step, tokenId]: take this token at this step instead of the greedy one */
  forces?: [number, number][];
  /** [step, sourceIndex]: mask this source token from this step on (the softmax over the rest) */
  masks?: [number, number][];
  /** [step, sourceIndex]: take a mask back from this step on */
  unmasks?: [number, number][];
  /** [step, sourceIndex | weights]: this step's weights one-hot on the token, or the weights over their sum */
  pins?: [number, number | number[]][];
  /** [step, τ]: the attention temperature from this step on */
  temperatures?: [number, number][];
  /** keep the session for beams and exports (default true); false: deleted before answering */
  keep?: boolean;
}

export interface Decoded {
  /** the kept session (close it with closeSession), or null when not kept */
  session: SessionId | null;
  sourceTokens: string[];
  /** H: n × dh, the encoder states the decoder attends over */
  encoderStates: Matrix;
  steps: StepRecord[];
  output: string[];
  outputText: string;
  /** how sure the model was of the tokens taken (mean, lowest, product of p(token)) */
  confidence: Confidence;
  /** the confidence over steps 1..i+1, after step i (what a view at step i may show) */
  confidenceByStep: Confidence[];
}

export interface SelfAttentionAnswer {
  sourceTokens: string[];
  /** the transformer encoder's layers, every stage of every head */
  layers: SelfAttentionRecord[];
  /** the decoder's cross-attention, one row per output step */
  cross: { token: string; weights: Float32Array }[];
  output: string[];
}

/** A module's calls as the Worker answers them: the same arguments, the answer through a promise. */
type Answered<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never;
};

/** The Worker's API: the module's own calls on hand-made vectors (wasm/playground.d.ts says what
 * each does) and the text models by name. */
export interface EngineApi extends Answered<
  Pick<Playground, 'attend' | 'defaultParams' | 'cosineWeightBound' | 'weightDifference'>
> {
  init(): Promise<EngineInfo>;
  /** Loads the checkpoint's bytes (once per name) and returns model.info(); a Transformer decoder's
   *  in the trainer module, started then (the page's module refuses them). */
  loadModel(name: string, bytes: ArrayBuffer): Promise<ModelInfo>;
  /** Loads a model that is not shipped under `name` (replacing one of that name); returns its info. */
  loadBytes(name: string, bytes: ArrayBuffer): Promise<ModelInfo>;
  /** Deletes the model `name` from the engine (an unknown name is ignored). */
  unloadModel(name: string): Promise<void>;
  /** Greedy decode of `text` by the model `name`, taking the forced tokens where given (a
   *  Transformer decoder's records with each head's q, k and v). */
  decode(name: string, text: string, options?: DecodeRequest): Promise<Decoded>;
  /** Deletes a kept session (an unknown id is ignored). */
  closeSession(session: SessionId): Promise<void>;
  /** The transformer-encoder model's layers for `text`, with its decoder's cross-attention. */
  selfAttention(name: string, text: string): Promise<SelfAttentionAnswer>;
  /** The engine's trace JSON of `text` through the model `name`, a transformer's layers under "encoder". */
  selfAttentionJson(name: string, text: string): Promise<string>;
  /** The query `query` of head `head` in layer `layer` of `text` as a Python file (session.reproduceSelfAttention). */
  selfAttentionPython(
    name: string,
    text: string,
    layer: number,
    head: number,
    query: number,
  ): Promise<string>;
  /** Beam search of width k over a kept session's input, with what-ifs in the decode's form. */
  beam(session: SessionId, k: number, whatIfs?: BeamWhatIfs): Promise<BeamResult>;
  /** The kept session's trace as JSON (session.exportJson()). */
  exportJson(session: SessionId): Promise<string>;
  /** Step `step` of the kept session as a Python file that recomputes it with NumPy (session.reproduce()). */
  reproduce(session: SessionId, step: number, name: string, input: string): Promise<string>;
}
