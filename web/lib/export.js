// Downloads: the trace as JSON (the engine's own export) and CSV, the heatmap as SVG and PNG.

/** Saves `data` as a file named `name` through a temporary link. */
export function download(data, name, type) {
  const blob = data instanceof Blob ? data : new Blob([data], { type });
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const csvField = (x) => {
  const text = String(x);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/**
 * One row per (step, source position): the token taken, how it was chosen, its log probability,
 * and the score and weight of that source token. The numbers are the engine's, written in full.
 */
export function traceCsv(sourceTokens, steps) {
  const lines = [
    ['step', 'token', 'choice', 'log_prob', 'source_index', 'source_token', 'score', 'weight'].join(','),
  ];
  for (const s of steps)
    for (let j = 0; j < sourceTokens.length; j++)
      lines.push(
        [s.index, s.token, s.choice, s.logProb, j, sourceTokens[j], s.scores[j], s.weights[j]]
          .map(csvField)
          .join(','),
      );
  return lines.join('\n') + '\n';
}

/** The SVG element as a standalone file. */
export function svgText(svg) {
  const copy = /** @type {SVGSVGElement} */ (svg.cloneNode(true));
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.removeAttribute('style');
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}`;
}

/** The SVG drawn at `scale` × its size into a PNG. */
export async function svgToPng(svg, scale = 2) {
  const width = Number(svg.getAttribute('width'));
  const height = Number(svg.getAttribute('height'));
  const url = URL.createObjectURL(new Blob([svgText(svg)], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = Object.assign(document.createElement('canvas'), {
      width: width * scale,
      height: height * scale,
    });
    const context = canvas.getContext('2d');
    if (!context) throw new Error('this browser cannot draw on a canvas');
    context.scale(scale, scale);
    context.drawImage(image, 0, 0, width, height);
    return await new Promise((resolve, reject) =>
      canvas.toBlob(
        (blob) => (blob ? resolve(blob) : reject(new Error('the PNG could not be made'))),
        'image/png',
      ),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}
