// What the engine Worker exposes (web/engine/worker.js); the types are those of the wasm module.
import type {
  AttendOptions,
  AttendResult,
  MatrixInput,
  ScoreKind,
  ScoreParams,
  VectorInput,
  WeightDifference,
} from '../../wasm/playground';

export interface EngineInfo {
  /** 'wasm_simd128' or 'scalar' */
  isa: string;
  kinds: ScoreKind[];
  /** whether the build has the trained-model API (Module.Model) */
  models: boolean;
}

export interface Decoded {
  sourceTokens: string[];
  encoderStates: { data: Float32Array; rows: number; cols: number };
  /** StepRecord per step (see /work/wt/API.md, wasm/playground.d.ts) */
  steps: any[];
  output: string[];
  outputText: string;
}

export interface EngineApi {
  init(): Promise<EngineInfo>;
  attend(
    kind: ScoreKind,
    query: VectorInput,
    keys: MatrixInput,
    values: MatrixInput,
    options?: AttendOptions,
  ): Promise<AttendResult>;
  defaultParams(kind: ScoreKind, dq: number, dk: number, da: number): Promise<ScoreParams>;
  /** Loads the checkpoint's bytes (once per name) and returns model.info(). */
  loadModel(name: string, bytes: ArrayBuffer): Promise<any>;
  /** Greedy decode, taking the forced token ([step, tokenId]) where one is given. */
  decode(
    name: string,
    url: string,
    text: string,
    options?: { topK?: number; forces?: [number, number][] },
  ): Promise<Decoded>;
  /** Beam search over the model's latest decode. */
  beam(name: string, k: number): Promise<any>;
  /** Where two models' weights (steps × source positions) differ most (computed in C++). */
  weightDifference(a: MatrixInput, b: MatrixInput): Promise<WeightDifference>;
  /** session.exportJson() of the model's latest decode. */
  exportJson(name: string): Promise<string>;
}
