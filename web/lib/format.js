// How numbers are written on the page. The browser tests format the engine's results with the
// same function and compare the text.

/** 3 decimals, a true minus sign, no "-0.000". */
export function formatNumber(x) {
  if (x === null || x === undefined || Number.isNaN(x)) return '–';
  const text = Number(x).toFixed(3);
  return /^-0\.0+$/.test(text) ? text.slice(1) : text.replace('-', '−');
}

/** A token as the page writes it: a space becomes a visible ␣. */
export const showToken = (t) => (t === ' ' ? '␣' : t);
