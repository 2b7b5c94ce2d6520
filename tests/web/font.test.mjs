// The page's Chinese font (web/fonts, made by scripts/make-font.sh) has a glyph for every CJK
// character the page can show: each token of the shipped zh checkpoints' vocabularies and each
// CJK character in web/'s sources. Read from the woff2's own cmap (brotli-decompressed here, no
// font tools needed), and checked against the @font-face's unicode-range and the coverage list.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { brotliDecompressSync } from 'node:zlib';

const root = new URL('../../', import.meta.url).pathname;
const fontPath = join(root, 'web/fonts/noto-sans-sc-subset.woff2');
const CJK = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]/gu;

/** WOFF2's UIntBase128: 7 bits a byte, high bit set on all but the last. */
function base128(bytes, at) {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    const b = bytes[at.pos++];
    value = value * 128 + (b & 0x7f);
    if (!(b & 0x80)) return value;
  }
  throw new Error('bad UIntBase128');
}

/** The sfnt tables of a (single-font) woff2, decompressed: tag → bytes (glyf/loca as transformed). */
export function woff2Tables(file) {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  assert.equal(view.getUint32(0), 0x774f4632, 'a woff2 file (wOF2)');
  assert.notEqual(view.getUint32(4), 0x74746366, 'one font, not a collection');
  const numTables = view.getUint16(12);
  const compressedSize = view.getUint32(20);
  const known = [
    'cmap',
    'head',
    'hhea',
    'hmtx',
    'maxp',
    'name',
    'OS/2',
    'post',
    'cvt ',
    'fpgm',
    'glyf',
    'loca',
    'prep',
    'CFF ',
    'VORG',
    'EBDT',
    'EBLC',
    'gasp',
    'hdmx',
    'kern',
    'LTSH',
    'PCLT',
    'VDMX',
    'vhea',
    'vmtx',
    'BASE',
    'GDEF',
    'GPOS',
    'GSUB',
    'EBSC',
    'JSTF',
    'MATH',
    'CBDT',
    'CBLC',
    'COLR',
    'CPAL',
    'SVG ',
    'sbix',
    'acnt',
    'avar',
    'bdat',
    'bloc',
    'bsln',
    'cvar',
    'fdsc',
    'feat',
    'fmtx',
    'fvar',
    'gvar',
    'hsty',
    'just',
    'lcar',
    'mort',
    'morx',
    'opbd',
    'prop',
    'trak',
    'Zapf',
    'Silf',
    'Glat',
    'Gloc',
    'Feat',
    'Sill',
  ];
  const at = { pos: 48 };
  const entries = [];
  for (let i = 0; i < numTables; i++) {
    const flags = file[at.pos++];
    let tag = known[flags & 0x3f];
    if ((flags & 0x3f) === 63) {
      tag = String.fromCharCode(...file.subarray(at.pos, at.pos + 4));
      at.pos += 4;
    }
    const length = base128(file, at);
    const version = flags >> 6;
    const transformed = tag === 'glyf' || tag === 'loca' ? version === 0 : version !== 0;
    entries.push({ tag, length: transformed ? base128(file, at) : length });
  }
  const data = brotliDecompressSync(file.subarray(at.pos, at.pos + compressedSize));
  const tables = new Map();
  let offset = 0;
  for (const { tag, length } of entries) {
    tables.set(tag, data.subarray(offset, offset + length));
    offset += length;
  }
  assert.equal(offset, data.length, 'the tables fill the decompressed stream exactly');
  return tables;
}

/** Code point → glyph id (nonzero) from a cmap table's Windows Unicode subtable (format 12 or 4). */
export function cmapOf(cmap) {
  const v = new DataView(cmap.buffer, cmap.byteOffset, cmap.byteLength);
  const records = [];
  for (let i = 0; i < v.getUint16(2); i++)
    records.push({
      platform: v.getUint16(4 + 8 * i),
      encoding: v.getUint16(6 + 8 * i),
      offset: v.getUint32(8 + 8 * i),
    });
  const pick =
    records.find((r) => r.platform === 3 && r.encoding === 10) ??
    records.find((r) => r.platform === 3 && r.encoding === 1);
  assert.ok(pick, 'a Windows Unicode cmap subtable');
  const o = pick.offset;
  const map = new Map();
  const format = v.getUint16(o);
  if (format === 12) {
    for (let g = 0; g < v.getUint32(o + 12); g++) {
      const [start, end, glyph] = [0, 4, 8].map((k) => v.getUint32(o + 16 + 12 * g + k));
      for (let c = start; c <= end; c++) map.set(c, glyph + c - start);
    }
  } else {
    assert.equal(format, 4, 'cmap subtable format 4 or 12');
    const segs = v.getUint16(o + 6) / 2;
    const ends = o + 14;
    const starts = ends + 2 * segs + 2;
    const deltas = starts + 2 * segs;
    const ranges = deltas + 2 * segs;
    for (let s = 0; s < segs; s++) {
      const [end, start, delta, range] = [ends, starts, deltas, ranges].map((a) => v.getUint16(a + 2 * s));
      for (let c = start; c <= end && c !== 0xffff; c++) {
        let glyph;
        if (range === 0) glyph = (c + delta) & 0xffff;
        else {
          glyph = v.getUint16(ranges + 2 * s + range + 2 * (c - start));
          if (glyph !== 0) glyph = (glyph + delta) & 0xffff;
        }
        if (glyph !== 0) map.set(c, glyph);
      }
    }
  }
  return map;
}

const font = readFileSync(fontPath);
const covered = cmapOf(woff2Tables(font).get('cmap'));

function sourceCharacters(dir, found = new Map()) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (!['fonts', 'models'].includes(name) || dir !== join(root, 'web')) sourceCharacters(path, found);
    } else if (/\.(svelte|js|html|css|json)$/.test(name))
      for (const c of readFileSync(path, 'utf8').match(CJK) ?? []) found.set(c, path.slice(root.length));
  }
  return found;
}

function vocabularyCharacters() {
  const found = new Map();
  const models = readdirSync(join(root, 'web/models')).filter((f) => /^zh-.*\.safetensors$/.test(f));
  assert.ok(models.length > 0, 'shipped zh checkpoints');
  for (const name of models) {
    const file = readFileSync(join(root, 'web/models', name));
    const size = Number(file.readBigUInt64LE(0));
    const meta = JSON.parse(file.subarray(8, 8 + size).toString('utf8')).__metadata__;
    for (const key of ['source_vocab', 'target_vocab'])
      for (const token of JSON.parse(meta[key]).tokens)
        for (const c of token.match(CJK) ?? []) found.set(c, `${name}: ${token}`);
  }
  return found;
}

const missing = (chars) =>
  [...chars].filter(([c]) => !covered.has(c.codePointAt(0))).map(([c, where]) => `${c} (${where})`);

test('the font has a glyph for every character of the zh vocabularies', () => {
  const chars = vocabularyCharacters();
  assert.ok(chars.size > 100, `${chars.size} characters`);
  // the task's running example, by hand
  for (const c of '汤姆追逐杰瑞') assert.ok(chars.has(c), c);
  assert.deepEqual(missing(chars), []);
});

test('the font has a glyph for every CJK character in the page sources', () => {
  const chars = sourceCharacters(join(root, 'web'));
  assert.ok(chars.size > 0);
  assert.deepEqual(missing(chars), [], 'rerun bash scripts/make-font.sh');
});

test('the cmap reader tells covered from not covered', () => {
  assert.ok(covered.has(0x6c64), '汤');
  // Latin and a character of no zh token fall through to the system fonts
  for (const c of 'A龘') assert.ok(!covered.has(c.codePointAt(0)), c);
});

test("the @font-face's unicode-range and the coverage list are exactly the font's cmap", () => {
  const css = readFileSync(join(root, 'web/fonts/fonts.css'), 'utf8');
  const range = /unicode-range:\s*([^;]+);/.exec(css)?.[1] ?? '';
  const fromCss = new Set();
  for (const part of range.split(',')) {
    const [a, b = a] = part.trim().replace(/^U\+/, '').split('-');
    for (let c = parseInt(a, 16); c <= parseInt(b, 16); c++) fromCss.add(c);
  }
  const cjkCovered = [...covered.keys()].sort((a, b) => a - b);
  assert.deepEqual(
    [...fromCss].sort((a, b) => a - b),
    cjkCovered,
  );
  const list = readFileSync(fontPath.replace(/\.woff2$/, '.txt'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => parseInt(line.slice(2, line.indexOf(' ')), 16));
  assert.deepEqual(list, cjkCovered);
  assert.match(css, /font-display: swap/);
});

test('the font is within its budget (150 KB) and its licence is beside it', () => {
  assert.ok(font.length <= 150 * 1024, `${font.length} bytes`);
  const licence = readFileSync(fontPath.replace(/\.woff2$/, '.LICENSE'), 'utf8');
  assert.match(licence, /SIL OPEN FONT LICENSE Version 1\.1/);
});
