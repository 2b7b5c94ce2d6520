// How numbers are written on the page. The browser tests format the engine's results with the
// same function and compare the text.

/** The largest magnitude a float32 (the engine's numbers) holds. */
export const FLOAT32_MAX = 3.4028234663852886e38;

/** 3 decimals, a true minus sign, no "-0.000"; from a million on, 4 significant digits and a power of ten. */
export function formatNumber(x) {
  if (x === null || x === undefined || Number.isNaN(x)) return '–';
  if (!Number.isFinite(Number(x))) return Number(x) > 0 ? '∞' : '−∞';
  if (Math.abs(x) >= 1e6) return Number(x).toExponential(3).replace('e+', 'e').replace('-', '−');
  const text = Number(x).toFixed(3);
  return /^-0\.0+$/.test(text) ? text.slice(1) : text.replace('-', '−');
}

/** A token as the page writes it: a space becomes a visible ␣. */
export const showToken = (t) => (t === ' ' ? '␣' : t);

/**
 * A number the engine holds as a float32 (the temperature it used, say), written with the fewest
 * digits that read back as the same float32: 0.1, not 0.10000000149011612.
 */
export function formatFloat32(x) {
  const value = Number(x);
  if (!Number.isFinite(value)) return formatNumber(value);
  return float32Text(value).replace('-', '−');
}

/** The same in plain ASCII, as JavaScript reads numbers back (a link's value): 0.001, not 0.0010000000474974513. */
export function float32Text(/** @type {number} */ x) {
  const single = Math.fround(x);
  for (let digits = 1; digits <= 9; digits++) {
    const text = String(Number(single.toPrecision(digits)));
    if (Math.fround(Number(text)) === single) return text;
  }
  return String(single);
}

/** "zh" for text with Chinese characters (screen readers and the font choice need it), else undefined. */
export const langOf = (text) => (/[\u3400-\u9fff\uf900-\ufaff]/.test(String(text ?? '')) ? 'zh' : undefined);
