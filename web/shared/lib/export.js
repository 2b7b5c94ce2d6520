// Downloads: the trace as JSON (the engine's own export) and CSV, the heatmap as SVG and PNG.
import { textOn, weightColor } from './colors.js';
import { translatorOf } from '../i18n/translate.js';
import stagesDict from '../i18n/stages.js';

const t = translatorOf(stagesDict);

// An exported SVG is a file on its own (and the PNG is drawn from it as an image, which loads
// nothing): one with Chinese text carries the page's Chinese font inside it, as a data: URL
// (35 KB), so it renders the same on a machine without a CJK font. The bytes are fetched (from
// the browser's cache, where the page has shown Chinese) when such a file is first made: not as
// the page loads, where turning them into base64 took a tenth of a second on the way to the first step.
const CHINESE_FAMILY = 'APG Chinese';
// (Vite turns this into the built font's address; under node, where the page's modules are tested,
// it stays a file: URL that nothing fetches.)
const chineseFontUrl = new URL('../../fonts/noto-sans-sc-subset.woff2', import.meta.url);
const CJK = /[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/;
const CJK_ALL = new RegExp(CJK.source, 'g');
/** @type {Promise<string> | null} */
let chineseFontData = null;
/** The font as a data: URL, or '' where it could not be fetched (the file then names it only). */
function fetchChineseFont() {
  chineseFontData ??= fetch(chineseFontUrl)
    .then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(`${r.status}`))))
    .then((bytes) => {
      let binary = '';
      const view = new Uint8Array(bytes);
      for (let i = 0; i < view.length; i += 0x8000)
        binary += String.fromCharCode(...view.subarray(i, i + 0x8000));
      return `data:font/woff2;base64,${btoa(binary)}`;
    })
    .catch(() => ((chineseFontData = null), ''));
  return chineseFontData;
}

/** Names the Chinese font first wherever `copy` names a font, and embeds it when it has CJK text. */
async function embedChineseFont(copy) {
  const chinese = [...new Set((copy.textContent ?? '').match(CJK_ALL))];
  if (chinese.length === 0) return;
  for (const el of [copy, ...copy.querySelectorAll('[font-family]')]) {
    const family = el.getAttribute('font-family');
    if (family && !family.includes(CHINESE_FAMILY))
      el.setAttribute('font-family', `'${CHINESE_FAMILY}', ${family}`);
  }
  const font = await fetchChineseFont();
  if (!font) return;
  const style = document.createElementNS(SVG, 'style');
  // unicode-range: the font is taken for the file's Chinese characters only; without it, it
  // would be the text's first font, whose taller ascent and descent change the Latin labels' boxes
  const range = chinese.map((c) => `U+${c.codePointAt(0)?.toString(16).toUpperCase()}`).join(', ');
  style.textContent = `@font-face { font-family: '${CHINESE_FAMILY}'; src: url(${font}) format('woff2'); unicode-range: ${range}; }`;
  copy.prepend(style);
}

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

/**
 * A download a view offers: made when its button is clicked.
 * @typedef {{ id: string, label: string,
 *   make: () => Promise<{ data: BlobPart | Blob, name: string, type?: string }> }} ExportFile
 */

/**
 * A download, its label read when shown (in the page's language of that moment).
 * @param {string} id the button's test id's end
 * @param {() => string} label
 * @param {ExportFile['make']} make
 * @returns {ExportFile}
 */
export const exportFile = (id, label, make) => ({
  id,
  get label() {
    return label();
  },
  make,
});

/**
 * "Reproduce this step": the engine's Python file of the step shown, which recomputes its score,
 * softmax and context with NumPy and prints the page's numbers beside its own.
 * @param {() => string} name the file's name without ".py"
 * @param {() => Promise<string>} script the engine's text of it
 * @returns {ExportFile}
 */
export const pythonFile = (name, script) =>
  exportFile(
    'python',
    () => 'Python (NumPy)',
    async () => ({ data: await script(), name: `${name()}.py`, type: 'text/x-python' }),
  );

/**
 * The downloads of a view's data (JSON, CSV) and of a picture it draws (SVG, and a PNG drawn from
 * it), named `${stem}.…`.
 * @param {{ stem: () => string, json?: { label: () => string, data: () => Promise<string> | string,
 *   name?: string }, records?: () => object, csv?: () => string, picture?: { svg?: () => SVGSVGElement,
 *   selectors?: () => {selector: string, caption: string}[], title: () => string,
 *   svgLabel: () => string, pngLabel: () => string, name?: string } }} files
 *   json: the engine's own JSON; records: the engine's records as the page holds them (JSON);
 *   json.name, picture.name: the files' names between the stem and the extension ('trace',
 *   'heatmap'); picture.svg: the SVG on the page, or picture.selectors: several, one picture of
 *   them all (combineSvgs)
 */
export function viewFiles({ stem, json: engineJson, records, csv, picture }) {
  const json = records ? { label: () => 'JSON', data: () => recordsJson(records()), name: '' } : engineJson;
  const svg = () => (picture?.svg ? picture.svg() : combineSvgs(picture?.selectors?.() ?? []));
  const named = (part, ext) => `${stem()}${part ? `.${part}` : ''}.${ext}`;
  return [
    ...(json
      ? [
          exportFile('json', json.label, async () => ({
            data: await json.data(),
            name: named(json.name, 'json'),
            type: 'application/json',
          })),
        ]
      : []),
    ...(csv
      ? [
          exportFile(
            'csv',
            () => 'CSV',
            async () => ({ data: csv(), name: named('', 'csv'), type: 'text/csv' }),
          ),
        ]
      : []),
    ...(picture
      ? [
          exportFile('svg', picture.svgLabel, async () => ({
            data: await svgText(svg(), picture.title()),
            name: named(picture.name, 'svg'),
            type: 'image/svg+xml',
          })),
          exportFile('png', picture.pngLabel, async () => ({
            data: await svgToPng(svg(), 2, picture.title()),
            name: named(picture.name, 'png'),
          })),
        ]
      : []),
  ];
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

/** JSON of the engine's records as they reached the page: typed arrays written as plain arrays. */
export function recordsJson(value) {
  return JSON.stringify(value, (_, v) => (ArrayBuffer.isView(v) ? Array.from(/** @type {any} */ (v)) : v), 1);
}

const csvText = (header, rows) => [header, ...rows].map((r) => r.map(csvField).join(',')).join('\n') + '\n';

/**
 * Compare: one row per (model, step, source position): the model, its held-out exact match, the
 * token it took and the score and weight of that source token, as the engine gave them.
 * @param {{name: string, heldout: number | null, sourceTokens: string[],
 *   steps: import('../../../wasm/playground').StepRecord[]}[]} models
 */
export function compareCsv(models) {
  const rows = [];
  for (const m of models)
    for (const s of m.steps)
      for (let j = 0; j < m.sourceTokens.length; j++)
        rows.push([
          m.name,
          m.heldout ?? '',
          s.index,
          s.token,
          s.logProb,
          j,
          m.sourceTokens[j],
          s.scores ? s.scores[j] : '',
          s.weights ? s.weights[j] : '',
        ]);
  return csvText(
    [
      'model',
      'heldout_exact_match',
      'step',
      'token',
      'log_prob',
      'source_index',
      'source_token',
      'score',
      'weight',
    ],
    rows,
  );
}

/**
 * Beam search: one row per (kept node, source position): the node, its parent and depth, its
 * token, log p and total log p, whether it ended, the rank and score of the final beam it ends (if
 * one does), and its attention weight on that source token.
 * @param {string[]} sourceTokens
 * @param {import('../../../wasm/playground').BeamResult} result
 */
export function beamCsv(sourceTokens, result) {
  const finals = new Map(result.beams.map((path, b) => [path[path.length - 1], b]));
  const rows = [];
  for (const n of result.nodes) {
    const b = finals.get(n.id);
    for (let j = 0; j < sourceTokens.length; j++)
      rows.push([
        n.id,
        n.parent,
        n.depth,
        n.token,
        n.logProb,
        n.totalLogProb,
        n.finished,
        b === undefined ? '' : b + 1,
        b === undefined ? '' : result.scores[b],
        j,
        sourceTokens[j],
        n.weights[j],
      ]);
  }
  return csvText(
    [
      'node',
      'parent',
      'depth',
      'token',
      'log_prob',
      'total_log_prob',
      'finished',
      'final_rank',
      'final_score',
      'source_index',
      'source_token',
      'weight',
    ],
    rows,
  );
}

/**
 * Self-attention: one row per (layer, head, query, key): Q·K, the scaled score (empty at a masked
 * key, where it is −∞) and the softmax weight, from the engine's layer records.
 * @param {string[]} tokens
 * @param {import('../../../wasm/playground').SelfAttentionRecord[]} layers
 */
export function selfAttentionCsv(tokens, layers) {
  const n = tokens.length;
  const rows = [];
  for (const layer of layers)
    for (let h = 0; h < layer.heads; h++)
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) {
          const at = (h * n + i) * n + j;
          const scaled = layer.scores.data[at];
          rows.push([
            layer.index,
            h,
            i,
            tokens[i],
            j,
            tokens[j],
            layer.rawScores.data[at],
            Number.isFinite(scaled) ? scaled : '',
            layer.weights.data[at],
          ]);
        }
  return csvText(
    ['layer', 'head', 'query_index', 'query_token', 'key_index', 'key_token', 'raw_score', 'score', 'weight'],
    rows,
  );
}

const SVG = 'http://www.w3.org/2000/svg';
const LEGEND = 46;

/**
 * The page's colour `name` (a custom property of styles.css) in the theme of the moment: a picture
 * is exported as the page shows it, light or dark, and a file on its own has no styles.css to ask.
 */
function pageColor(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

/** Writes the page's colours into the copy's attributes where they name one (fill="var(--ink)"). */
function resolveColors(copy) {
  for (const el of [copy, ...copy.querySelectorAll('*')])
    for (const attribute of ['fill', 'stroke'])
      if (el.getAttribute(attribute)?.startsWith('var(--'))
        el.setAttribute(
          attribute,
          pageColor(/** @type {string} */ (el.getAttribute(attribute)).slice(4, -1)),
        );
}

/**
 * Adds to `copy` (a heatmap's SVG) a legend below it: its title and the weight's colour scale, or
 * when `note` is given, that line instead of the scale (a picture without colours for weights).
 */
function addLegend(copy, title, note = '') {
  const width = Number(copy.getAttribute('width'));
  const height = Number(copy.getAttribute('height'));
  const swatch = 34;
  const scale = note || t('legendScale');
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
  const [paper, ink, soft] = ['--paper', '--ink', '--ink-soft'].map(pageColor);
  legend.append(make('rect', { x: width, y: 0, width: wide - width, height, fill: paper }));
  legend.append(make('rect', { x: 0, y: height, width: wide, height: LEGEND, fill: paper }));
  legend.append(make('text', { x: 8, y: height + 14, fill: ink }, title));
  if (note) {
    legend.append(make('text', { x: 8, y: height + 34, fill: soft }, note));
    copy.append(legend);
    copy.setAttribute('width', String(wide));
    copy.setAttribute('height', String(height + LEGEND));
    copy.setAttribute('viewBox', `0 0 ${wide} ${height + LEGEND}`);
    return;
  }
  [0, 0.25, 0.5, 0.75, 1].forEach((w, k) => {
    const x = 8 + k * swatch;
    const fill = weightColor(w) ?? paper;
    legend.append(make('rect', { x, y: height + 22, width: swatch - 2, height: 16, fill }));
    legend.append(
      make(
        'text',
        { x: x + (swatch - 2) / 2, y: height + 34, 'text-anchor': 'middle', fill: textOn(fill) },
        String(w),
      ),
    );
  });
  legend.append(make('text', { x: 14 + 5 * swatch, y: height + 34, fill: soft }, scale));
  copy.append(legend);
  copy.setAttribute('width', String(wide));
  copy.setAttribute('height', String(height + LEGEND));
  copy.setAttribute('viewBox', `0 0 ${wide} ${height + LEGEND}`);
}

/** @type {CanvasRenderingContext2D | null | undefined} */
let measure;
/** The width of a caption in bold 12 px, measured on a canvas (an estimate where there is none). */
function captionWidth(text) {
  if (measure === undefined) measure = document.createElement('canvas').getContext('2d');
  if (!measure) return [...text].reduce((sum, c) => sum + (c.codePointAt(0) >= 0x2e80 ? 13 : 8), 0);
  measure.font = `700 12px '${CHINESE_FAMILY}', system-ui, sans-serif`;
  return measure.measureText(text).width;
}

/**
 * Several pictures (each an SVG on the page, found by its selector, with a caption above it; one
 * not on the page is left out) laid out in rows of at most `maxWidth` px as one SVG element, for
 * one file of a view with many pictures.
 * @param {{selector: string, caption: string}[]} pictures
 */
export function combineSvgs(pictures, maxWidth = 1200) {
  const parts = pictures
    .map(({ selector, caption }) => ({ svg: document.querySelector(selector), caption }))
    .filter((p) => p.svg instanceof SVGSVGElement);
  const CAPTION = 20;
  const GAP = 16;
  const outer = document.createElementNS(SVG, 'svg');
  outer.setAttribute('font-family', 'system-ui, sans-serif');
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  let width = 0;
  const placed = [];
  for (const { svg, caption } of /** @type {{svg: SVGSVGElement, caption: string}[]} */ (parts)) {
    const w = Number(svg.getAttribute('width'));
    const h = Number(svg.getAttribute('height')) + CAPTION;
    if (x > 0 && x + w > maxWidth) {
      x = 0;
      y += rowHeight + GAP;
      rowHeight = 0;
    }
    placed.push({ svg, caption, x, y, w });
    x += w + GAP;
    rowHeight = Math.max(rowHeight, h);
    width = Math.max(width, x - GAP);
  }
  const height = y + rowHeight;
  const background = document.createElementNS(SVG, 'rect');
  for (const [k, v] of Object.entries({ x: 0, y: 0, width, height, fill: pageColor('--paper') }))
    background.setAttribute(k, String(v));
  outer.append(background);
  for (const p of placed) {
    const label = document.createElementNS(SVG, 'text');
    for (const [k, v] of Object.entries({
      x: p.x + 2,
      y: p.y + 14,
      'font-size': 12,
      'font-weight': 700,
      fill: pageColor('--ink'),
    }))
      label.setAttribute(k, String(v));
    label.textContent = p.caption;
    const inner = /** @type {SVGSVGElement} */ (p.svg.cloneNode(true));
    inner.removeAttribute('style');
    inner.setAttribute('x', String(p.x));
    inner.setAttribute('y', String(p.y + CAPTION));
    outer.append(label, inner);
    // a caption wider than its picture widens the file, never gets cut
    width = Math.max(width, p.x + 8 + captionWidth(p.caption));
  }
  outer.setAttribute('width', String(Math.ceil(width)));
  outer.setAttribute('height', String(Math.ceil(height)));
  outer.setAttribute('viewBox', `0 0 ${Math.ceil(width)} ${Math.ceil(height)}`);
  background.setAttribute('width', String(Math.ceil(width)));
  return outer;
}

/**
 * The SVG element as a standalone file, with a legend below it when `title` is given (the weight
 * scale, or `note` in its place).
 */
export async function svgText(svg, title = '', note = '') {
  const copy = /** @type {SVGSVGElement} */ (svg.cloneNode(true));
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.removeAttribute('style');
  resolveColors(copy);
  if (title) addLegend(copy, title, note);
  await embedChineseFont(copy);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}`;
}

/** The SVG (with its legend when `title` is given) drawn at `scale` × its size into a PNG. */
export async function svgToPng(svg, scale = 2, title = '', note = '') {
  const text = await svgText(svg, title, note);
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
