// Text ⇄ numbers for the vector inputs. Parsing only splits and reads numbers; a piece that is
// not a number becomes NaN, which the engine reports by position ("keys[1][2] is not a finite number").

/** "0.6, 0.2 0.5; 0.1" → [0.6, 0.2, 0.5, 0.1] */
export function parseVector(text) {
  const pieces = String(text)
    .replace(/\u2212/g, '-')
    .split(/[\s,;]+/)
    .filter((piece) => piece !== '');
  return pieces.map((piece) => (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(piece) ? Number(piece) : NaN));
}

/** [0.6, 0.2] → "0.6, 0.2" */
export function formatVector(numbers) {
  return Array.from(numbers, (x) => String(x)).join(', ');
}
