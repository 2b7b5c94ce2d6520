// What the Caption view's Worker exposes (web/features/caption/worker.js implements it over the image
// module, wasm/image/imaging.d.ts). The step records are the page module's: the caption's decoder
// is the same GRU decoder, attending over the L cells of the image grid instead of source tokens.
import type { Matrix, StepRecord } from '../../../wasm/playground';
import type { Box, Grid } from '../../../wasm/image/imaging';
import type { SceneVocabulary } from './scene.js';

/** Pixels, row-major from the top-left, `channels` bytes per pixel (3: RGB, 4: RGBA). */
export interface ImageInput {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
  channels: 3 | 4;
}

/** A scene description the engine parses and draws, or a picture's pixels. */
export type CaptionInput = { description: string } | { image: ImageInput };

export interface Captioned {
  /** what the model read: 32 × 32 RGB (the scene as drawn, or an upload after the engine's scaling) */
  image: ImageInput;
  /** the encoder's grid: rows × cols cells, the decoder attends over rows·cols = L of them */
  grid: Grid;
  /** L × d: the annotation vectors (features, then the cell's position), row by row */
  annotations: Matrix;
  /** one per caption word; a step's scores and weights have L entries, cell by cell */
  steps: StepRecord[];
  output: string[];
  outputText: string;
}

export interface Captions {
  /** for a description: the engine's scene (each object's box, the grammar's caption); null for an upload */
  scene: { description: string; caption: string; boxes: Box[] } | null;
  /** model name → its caption */
  models: Record<string, Captioned>;
}

export interface CaptionInfo {
  scene: SceneVocabulary;
  limits: { maxUploadSide: number; maxUploadBytes: number };
}

export interface CaptionApi {
  init(): Promise<CaptionInfo>;
  loadModel(name: string, bytes: ArrayBuffer): Promise<import('../../../wasm/image/imaging').ImageModelInfo>;
  /** The same input through each named model (loaded before). */
  caption(names: string[], input: CaptionInput, options?: { topK?: number }): Promise<Captions>;
  /** Step `step` of `input` through the model `name` as a Python file that recomputes it with NumPy. */
  reproduce(name: string, input: CaptionInput, step: number): Promise<string>;
}
