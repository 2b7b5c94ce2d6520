// The "Why attention" view's bucket width in the address's hash (`lw=`, written only when it is not
// the default 4). Loaded with the page, not with the view's chunk: the hash is rewritten before
// that chunk arrives, and the field must not be lost on the way.
import { hashParts } from '../../shared/link/url.js';

export const BUCKET_WIDTHS = [1, 2, 4];
export const DEFAULT_WIDTH = 4;

function initialWidth() {
  const asked =
    typeof location === 'undefined' ? null : new URLSearchParams(location.hash.slice(1)).get('lw');
  return BUCKET_WIDTHS.includes(Number(asked)) ? Number(asked) : DEFAULT_WIDTH;
}

export const lengthLink = $state({ bucketWidth: initialWidth() });

hashParts.push(() =>
  lengthLink.bucketWidth !== DEFAULT_WIDTH ? [['lw', String(lengthLink.bucketWidth)]] : [],
);
