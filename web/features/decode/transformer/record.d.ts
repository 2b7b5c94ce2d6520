import type { StepRecord, Tensor } from '../../../../wasm/playground';

/** The rows every step of the Transformer decoder fills (q, k, v and the what-ifs' only at times). */
type Always =
  | 'selfScores'
  | 'selfWeights'
  | 'selfContext'
  | 'crossScores'
  | 'crossWeights'
  | 'crossContext'
  | 'layerInput'
  | 'selfOutput'
  | 'norm1'
  | 'crossOutput'
  | 'norm2'
  | 'ffnHidden'
  | 'layerOutput';

/** A step record whose decoder is 'transformer'. */
export type TransformerRecord = StepRecord & { decoder: 'transformer' } & { [K in Always]: Tensor };
