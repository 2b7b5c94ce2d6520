// What the engine Worker exposes (web/engine/worker.js); the types are those of the wasm module.
import type {
  AttendOptions,
  AttendResult,
  MatrixInput,
  ScoreKind,
  ScoreParams,
  VectorInput,
} from '../../wasm/playground';

export interface EngineInfo {
  /** 'wasm_simd128' or 'scalar' */
  isa: string;
  kinds: ScoreKind[];
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
}
