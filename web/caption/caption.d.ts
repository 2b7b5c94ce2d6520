// What the Caption view's Worker exposes (web/caption/worker.js implements it). The step records
// are the decoder's (wasm/playground.d.ts): the caption's decoder is the same GRU decoder,
// attending over the L cells of the image grid instead of source tokens.
import type { Matrix, StepRecord } from '../../wasm/playground';
import type { SceneObject, SceneVocabulary } from './scene.js';

/** Pixels, row-major from the top-left, `channels` bytes per pixel (3: RGB). */
export interface ImageInput {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

export type CaptionInput = { scene: { objects: SceneObject[] } } | { image: ImageInput };

export interface Captioned {
  /** what the model saw: the scene as the engine drew it, or the uploaded pixels */
  image: ImageInput;
  /** the encoder's grid: rows × cols cells, the decoder attends over rows·cols = L of them */
  grid: { rows: number; cols: number };
  /** L × d: the annotation vectors (with their position code), row-major by cell */
  annotations: Matrix;
  /** one per caption word; a step's scores and weights have L entries, cell by cell */
  steps: StepRecord[];
  output: string[];
  outputText: string;
}

export interface CaptionInfo {
  isa: string;
  scene: SceneVocabulary;
  limits: Record<string, number>;
}

export interface CaptionApi {
  init(): Promise<CaptionInfo>;
  loadModel(name: string, bytes: ArrayBuffer): Promise<any>;
  /** The same input through each named model (loaded before). */
  caption(
    names: string[],
    input: CaptionInput,
    options?: { topK?: number },
  ): Promise<Record<string, Captioned>>;
  render(scene: { objects: SceneObject[] }): Promise<ImageInput>;
}
