// The image module (build/wasm/imaging.js): scenes, the conv encoder and captioning sessions.
// Loaded lazily (only by the Caption view), apart from the page's first module (playground.js).
// Its errors and step records are the page module's: EngineError and StepRecord of playground.d.ts.
import type { EngineError, StepRecord, Matrix } from '../playground';
import type { ModuleModelInfo, ModuleOptions, ModuleSession, SessionOptions } from '../lazy_module';

export type { EngineError, StepRecord };

/** A pixel rectangle [x0, x1] × [y0, y1], inclusive, from the top left of the 32 × 32 image. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface SceneObject {
  size: 'small' | 'large';
  colour: 'red' | 'green' | 'blue' | 'yellow';
  shape: 'circle' | 'square' | 'triangle' | 'diamond';
  /** the centre pixel */
  x: number;
  y: number;
  box: Box;
  /** "small red circle" */
  words: string;
}

export interface Scene {
  /** "small red circle at 10,12; large blue square at 24,20" (parses back to the same scene) */
  description: string;
  textureSeed: number;
  objects: SceneObject[];
  /** the grammar's caption of the scene (the reference the models were trained on) */
  caption: string;
  captionTokens: string[];
  /** per caption token, the index into objects of the object it names; -1 for relation words */
  captionObjects: number[];
  /** its composition (the objects' sizes, colours and shapes) is one the models never saw in training */
  heldoutComposition: boolean;
  width: 32;
  height: 32;
  /** RGB, row-major, width · height · 3 bytes */
  pixels: Uint8Array;
}

export interface ImagingLimits {
  imageSize: number;
  modelChannels: 3;
  /** the largest width or height toModelImage / caption / encode read (larger: limit_exceeded) */
  maxUploadSide: number;
  maxUploadBytes: number;
  maxDescribedObjects: number;
  maxDescriptionChars: number;
  maxFileBytes: number;
  /** bytes one captioning may allocate, counted before it starts (more: limit_exceeded) */
  maxWorkBytes: number;
  /** the engine's memory ceiling: the module's heap stays under it */
  maxHeapBytes: number;
  minTemperature: number;
  maxTemperature: number;
  shapes: string[];
  colours: string[];
  sizes: string[];
}

/** The attention grid: cell j of a step's scores / weights is row floor(j / cols), column j % cols. */
export interface Grid {
  rows: number;
  cols: number;
  /** pixels per cell side in the model's input */
  cellSize: number;
  imageSize: number;
}

export interface ImageModelInfo extends ModuleModelInfo {
  task: 'scenes';
  encoder: 'conv';
  grid: Grid;
  dims: {
    imageSize: number;
    convChannels: number;
    features: number;
    encoderState: number;
    cells: number;
    embedding: number;
    decoderHidden: number;
    attentionDim: number;
    maxTargetLen: number;
  };
  /** share of colour and shape words whose weight peak lies in the named object's box (held-out) */
  attentionHits: number | null;
}

export type CaptionOptions = SessionOptions;

export interface ImageSession extends ModuleSession {
  /** H: L × dh (row j = cell j's features, then its position (row, column) in [-1, 1]) */
  encoderStates(): Matrix;
  grid(): Grid;
  /** the 32 × 32 RGB bytes the model read (an upload after scaling) */
  pixels(): Uint8Array;
}

export interface ImageModel {
  info(): ImageModelInfo;
  /**
   * pixels: width · height · channels bytes, row-major (channels 4 = RGBA, the default, alpha
   * ignored; 3 = RGB), any size up to maxUploadSide, averaged (or repeated) to 32 × 32.
   * EngineError bad_argument (details.name: width, height, channels, bytes, options.*) or
   * limit_exceeded (a side over maxUploadSide, more than maxUploadBytes).
   */
  caption(
    pixels: Uint8Array | Uint8ClampedArray,
    width: number,
    height: number,
    channels?: 3 | 4,
    options?: CaptionOptions,
  ): ImageSession;
  /** The encoder alone: H (L × dh) and the grid. */
  encode(
    pixels: Uint8Array | Uint8ClampedArray,
    width: number,
    height: number,
    channels?: 3 | 4,
  ): { states: Matrix; grid: Grid };
  delete(): void;
}

export interface ImagingModule {
  /**
   * A scene from a description ("<size> <colour> <shape> at <x>,<y>" separated by ';', textureSeed
   * for the background's noise, default 1) or a random scene of the task from a seed.
   * EngineError empty_input, bad_argument (details.field 'description', details.part the object's
   * text), limit_exceeded (more than maxDescribedObjects objects, maxDescriptionChars characters).
   */
  scene(descriptionOrSeed: string | number, textureSeed?: number): Scene;
  /** What caption() and encode() do to a picture first: 32 × 32 RGB bytes. */
  toModelImage(
    pixels: Uint8Array | Uint8ClampedArray,
    width: number,
    height: number,
    channels?: 3 | 4,
  ): Uint8Array;
  limits(): ImagingLimits;
  ImageModel: {
    /** A .safetensors scenes model; EngineError bad_checkpoint, or bad_argument for a text model. */
    load(bytes: Uint8Array): ImageModel;
  };
}

export default function createImaging(options?: ModuleOptions): Promise<ImagingModule>;
