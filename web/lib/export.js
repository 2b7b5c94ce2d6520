// Downloads: the trace as JSON (the engine's own export) and CSV, the heatmap as SVG and PNG.
import { textOn, weightColor } from './colors.js';

/**
 * A file name's stem from a model name and an input: what is not a letter, digit or dash becomes
 * _, and a long input is cut at a word's end (never inside a word) to at most `max` characters.
 */
export function fileStem(name, input, max = 40) {
  let text = String(input)
    .replace(/[^\w-]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (text.length > max) {
    const cut = text.lastIndexOf('_', max);
    text = cut > 0 ? text.slice(0, cut) : text.slice(0, max);
  }
  return text ? `${name}-${text}` : name;
}

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

const SVG = 'http://www.w3.org/2000/svg';
const LEGEND = 46;

/** Adds to `copy` (a heatmap's SVG) a legend below it: its title and the weight's colour scale. */
function addLegend(copy, title) {
  const width = Number(copy.getAttribute('width'));
  const height = Number(copy.getAttribute('height'));
  const swatch = 34;
  const scale = 'attention weight (rows: output, columns: input)';
  // 11 px text is under 6.5 px a character (wider for CJK in the title: 11 px)
  const estimate = (text) => [...text].reduce((sum, c) => sum + (c.codePointAt(0) >= 0x2e80 ? 11 : 6.5), 0);
  const wide = Math.ceil(Math.max(width, 20 + 5 * swatch + estimate(scale), 16 + estimate(title)));
  const make = (tag, attributes, text = '') => {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, String(v));
    if (text) el.textContent = text;
    return el;
  };
  const legend = make('g', { 'data-legend': '', 'font-size': 11 });
  legend.append(make('rect', { x: width, y: 0, width: wide - width, height, fill: '#ffffff' }));
  legend.append(make('rect', { x: 0, y: height, width: wide, height: LEGEND, fill: '#ffffff' }));
  legend.append(make('text', { x: 8, y: height + 14, fill: '#1b1f24' }, title));
  [0, 0.25, 0.5, 0.75, 1].forEach((w, k) => {
    const x = 8 + k * swatch;
    const fill = weightColor(w) ?? '#ffffff';
    legend.append(make('rect', { x, y: height + 22, width: swatch - 2, height: 16, fill }));
    legend.append(
      make(
        'text',
        { x: x + (swatch - 2) / 2, y: height + 34, 'text-anchor': 'middle', fill: textOn(fill) },
        String(w),
      ),
    );
  });
  legend.append(make('text', { x: 14 + 5 * swatch, y: height + 34, fill: '#5b6570' }, scale));
  copy.append(legend);
  copy.setAttribute('width', String(wide));
  copy.setAttribute('height', String(height + LEGEND));
  copy.setAttribute('viewBox', `0 0 ${wide} ${height + LEGEND}`);
}

/** The SVG element as a standalone file, with a legend below it when `title` is given. */
export function svgText(svg, title = '') {
  const copy = /** @type {SVGSVGElement} */ (svg.cloneNode(true));
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.removeAttribute('style');
  if (title) addLegend(copy, title);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}`;
}

/** The SVG (with its legend when `title` is given) drawn at `scale` × its size into a PNG. */
export async function svgToPng(svg, scale = 2, title = '') {
  const text = svgText(svg, title);
  const size = /<svg[^>]*?\swidth="([\d.]+)"[^>]*?\sheight="([\d.]+)"/.exec(text);
  const width = Number(size?.[1] ?? svg.getAttribute('width'));
  const height = Number(size?.[2] ?? svg.getAttribute('height'));
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
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
