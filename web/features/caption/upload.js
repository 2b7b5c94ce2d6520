// A person's own image for the caption model. The browser decodes the file and a canvas cuts out
// the largest centred square of it at its own resolution (the models only ever saw square
// scenes: a stretched picture would distort every shape); the engine then scales that square to
// its 32 × 32 input (averaging, im.toModelImage) when it captions it. The view shows those 32 × 32
// pixels: the caption says what the model sees in them, whatever the picture was meant to be.

import { translatorOf } from '../../shared/i18n/translate.js';
import captionDict from './strings.js';

const t = translatorOf(captionDict);

/** Files larger than this are refused before the browser decodes them. */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;

export class UploadError extends Error {}

/**
 * @param {Blob & { name?: string }} file
 * @param {{ maxUploadSide: number }} limits the engine's: the longest side it reads
 * @returns {Promise<{ name: string, width: number, height: number, pixels: import('./caption').ImageInput }>}
 */
export async function readUpload(file, limits) {
  const name = file.name || 'image';
  if (file.size === 0) throw new UploadError(t('empty', { name }));
  if (file.size > MAX_FILE_BYTES)
    throw new UploadError(
      t('tooBig', { name, mb: (file.size / 1048576).toFixed(1), max: MAX_FILE_BYTES / 1048576 }),
    );
  const url = URL.createObjectURL(file);
  try {
    const image = new Image();
    image.decoding = 'async';
    // The load event comes once the header has given the size; Chromium decodes the pixels only
    // when they are drawn, so an oversized image is refused before it costs its memory.
    await new Promise((resolve, reject) => {
      image.onload = resolve;
      image.onerror = () => reject(new UploadError(t('notImage', { name })));
      image.src = url;
    });
    const { naturalWidth: width, naturalHeight: height } = image;
    if (!width || !height) throw new UploadError(t('noPixels', { name }));
    const most = limits.maxUploadSide;
    if (width > most || height > most)
      throw new UploadError(
        t('tooLarge', {
          name,
          w: width.toLocaleString('en'),
          h: height.toLocaleString('en'),
          most: most.toLocaleString('en'),
        }),
      );
    const side = Math.min(width, height);
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = side;
    const context = /** @type {CanvasRenderingContext2D} */ (
      canvas.getContext('2d', { willReadFrequently: true })
    );
    // transparent parts are seen over white; the square is copied pixel for pixel (no scaling)
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, side, side);
    context.drawImage(image, (width - side) / 2, (height - side) / 2, side, side, 0, 0, side, side);
    const rgba = context.getImageData(0, 0, side, side).data;
    return { name, width, height, pixels: { data: rgba, width: side, height: side, channels: 4 } };
  } finally {
    URL.revokeObjectURL(url);
  }
}
