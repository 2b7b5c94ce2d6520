// A person's own image for the caption model: the browser decodes the file, and a canvas scales the
// largest centred square of it to the model's input size (imageSize × imageSize RGB). That scaled
// copy is what the engine encodes and what the view shows: the caption says what the model sees
// in it, whatever the picture was meant to be.

/** Files larger than this are refused before the browser decodes them. */
export const MAX_BYTES = 8 * 1024 * 1024;
/** Either side longer than this is refused (a 10,000 × 10,000 image would take 400 MB decoded). */
export const MAX_SIDE = 4096;

export class UploadError extends Error {}

/**
 * @param {Blob & { name?: string }} file
 * @param {number} size the model's input size in pixels
 * @returns {Promise<{ name: string, width: number, height: number, pixels: import('./caption').ImageInput }>}
 */
export async function readUpload(file, size) {
  const name = file.name ?? 'image';
  if (file.size === 0) throw new UploadError(`“${name}” is empty.`);
  if (file.size > MAX_BYTES)
    throw new UploadError(
      `“${name}” is ${(file.size / 1048576).toFixed(1)} MB; the page takes images up to ${MAX_BYTES / 1048576} MB (the model sees ${size} × ${size} pixels anyway).`,
    );
  const url = URL.createObjectURL(file);
  try {
    const image = new Image();
    image.decoding = 'async';
    // The load event comes once the header has given the size; Chromium decodes the pixels only
    // when they are drawn, so an oversized image is refused before it costs its memory.
    await new Promise((resolve, reject) => {
      image.onload = resolve;
      image.onerror = () =>
        reject(new UploadError(`“${name}” is not an image the browser can read (PNG, JPEG, GIF, WebP, …).`));
      image.src = url;
    });
    const { naturalWidth: width, naturalHeight: height } = image;
    if (!width || !height) throw new UploadError(`“${name}” has no pixels.`);
    if (width > MAX_SIDE || height > MAX_SIDE)
      throw new UploadError(
        `“${name}” is ${width.toLocaleString('en')} × ${height.toLocaleString('en')} pixels; the page takes images up to ${MAX_SIDE.toLocaleString('en')} pixels a side (the model sees ${size} × ${size}).`,
      );
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = size;
    const context = /** @type {CanvasRenderingContext2D} */ (
      canvas.getContext('2d', { willReadFrequently: true })
    );
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = 'high';
    const side = Math.min(width, height);
    context.drawImage(image, (width - side) / 2, (height - side) / 2, side, side, 0, 0, size, size);
    const rgba = context.getImageData(0, 0, size, size).data;
    const rgb = new Uint8Array(size * size * 3);
    for (let p = 0; p < size * size; p++) {
      // a transparent pixel is shown (and given) over white
      const a = rgba[4 * p + 3] / 255;
      for (let c = 0; c < 3; c++) rgb[3 * p + c] = Math.round(rgba[4 * p + c] * a + 255 * (1 - a));
    }
    return { name, width, height, pixels: { data: rgb, width: size, height: size, channels: 3 } };
  } finally {
    URL.revokeObjectURL(url);
  }
}
