// The "Why attention" view's bucket width in the link (`lw=`, written only when it is not the
// default 4). Loaded with the page, not with the view's chunk: the hash is rewritten before that
// chunk arrives, and the field must not be lost on the way.
import { declareLink } from '../../shared/link/link.svelte.js';

export const BUCKET_WIDTHS = [1, 2, 4];
export const DEFAULT_WIDTH = 4;

export const lengthLink = $state({ bucketWidth: DEFAULT_WIDTH });

declareLink('length', [
  {
    key: 'lw',
    get: () => lengthLink.bucketWidth,
    set: (width) => (lengthLink.bucketWidth = width),
    parse: (text, fallback) => ({ value: BUCKET_WIDTHS.includes(Number(text)) ? Number(text) : fallback }),
    fallback: () => DEFAULT_WIDTH,
  },
]);
