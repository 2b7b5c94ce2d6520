#!/usr/bin/env bash
# Writes the fuzz targets' seed corpora under DIR (default build/fuzz/seeds), from what the repo
# ships: the checkpoints in web/models, the metadata JSON inside them, and the page's example
# texts, and small checkpoints of every kind from make_tiny_checkpoints in BUILD (default
# build/fuzz). Nothing here is committed; run again to regenerate.
#   bash tests/fuzz/make_seeds.sh [DIR [BUILD]]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-build/fuzz/seeds}
build=${2:-build/fuzz}
rm -rf "$out"
mkdir -p "$out/checkpoint" "$out/tokenizer" "$out/metadata" "$out/speech" "$out/whatif" "$out/pairs" "$out/ppm"

# Checkpoints: one of each kind (the rest add size, not coverage), plus two cut short.
for name in dates-additive-bahdanau zh-general-luong reverse-dot-bahdanau zh-additive-bahdanau-transformer \
            dates-cosine-luong dates-scaled_dot-bahdanau; do
  cp "web/models/$name.safetensors" "$out/checkpoint/$name"
done
head -c 4096 web/models/dates-dot-luong.safetensors >"$out/checkpoint/cut-header"
# And small ones of every kind (built with the fuzz targets), on which the fuzzer runs fast.
if [ -x "$build/make_tiny_checkpoints" ]; then
  "$build/make_tiny_checkpoints" "$out/checkpoint" >/dev/null
fi
head -c 1000 web/models/reverse-general-bahdanau.safetensors >"$out/checkpoint/cut-1000"

# Metadata: each JSON string of each checkpoint's __metadata__, one file per distinct string.
node --input-type=module - "$out/metadata" web/models/*.safetensors <<'JS'
import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
const [dir, ...files] = process.argv.slice(2);
for (const file of files) {
  const bytes = readFileSync(file);
  const length = Number(bytes.readBigUInt64LE(0));
  const meta = JSON.parse(bytes.subarray(8, 8 + length).toString('utf8')).__metadata__ ?? {};
  for (const [key, text] of Object.entries(meta)) {
    if (key === 'format') continue;
    const hash = createHash('sha1').update(text).digest('hex').slice(0, 12);
    writeFileSync(`${dir}/${key}-${hash}`, text);
  }
}
JS

# Texts: the page's examples (web/shared/text/tasks.js), each for both vocabularies (the first byte picks
# the model: even = zh words, odd = dates characters), and a few hostile shapes.
node --input-type=module - "$out/tokenizer" <<'JS'
import { writeFileSync } from 'node:fs';
const { tasks } = await import(new URL('web/shared/text/tasks.js', `file://${process.cwd()}/`).href);
const [dir] = process.argv.slice(2);
const texts = tasks.flatMap((t) => t.examples);
texts.push('tmo chsed jery', 'Tom chased Jerry.', '汤姆 追逐 杰瑞', 'a\u0000b', '  ?! ', 'x'.repeat(300));
let n = 0;
for (const text of texts)
  for (const pick of [0, 1]) writeFileSync(`${dir}/text-${n++}`, Buffer.concat([Buffer.from([pick]), Buffer.from(text)]));
writeFileSync(`${dir}/surrogate`, Buffer.from([0, 0x61, 0xed, 0xa0, 0x80, 0x20, 0x62]));
writeFileSync(`${dir}/overlong`, Buffer.from([1, 0x32, 0xc0, 0xaf, 0x39]));
JS

# Speech: phrases with synthesis options in fuzz_speech's header (tests/fuzz/fuzz_speech.cpp says
# its layout), in range and out, and raw frames: whole, cut, not finite, huge, past the limit.
node --input-type=module - "$out/speech" <<'JS'
import { writeFileSync } from 'node:fs';
const [dir] = process.argv.slice(2);
const RAW_FRAMES = 8, RAW_OPTIONS = 16, RENDER = 32;
function header(flags, rate, noise, seed, sampleRate, steps) {
  const h = Buffer.alloc(20);
  h[0] = flags;
  if (flags & RAW_OPTIONS) {
    h.writeFloatLE(rate, 1);
    h.writeFloatLE(noise, 5);
    h.writeUInt16LE(sampleRate, 17);
  } else {
    h.writeUInt16LE(Math.round(((rate - 0.5) / 1.5) * 65535), 1);
    h.writeUInt16LE(Math.round(noise * 65535), 5);
    h.writeUInt16LE((sampleRate - 8000) / 100, 17);
  }
  h.writeBigUInt64LE(BigInt(seed), 9);
  h[19] = steps;
  return h;
}
const woodchuck = 'how much wood would a woodchuck chuck if a woodchuck could chuck wood';
const phrases = [
  [0, 1, 0.1, 1, 16000, woodchuck],
  [1 | RENDER, 0.5, 0, 7, 16000, 'how much wood'],
  [2, 2, 1, 12345, 8000, 'a woodchuck could chuck'],
  [3 | RENDER, 1.25, 0.35, 3, 48000, 'Wood  Chuck'],
  [4, 1, 0.2, 2, 16000, 'the quick brown fox jumps over the lazy dog'],
  [5 | RENDER, 0.8, 0.05, 9, 22000, 'hi\tyou\nsee'],
  [0, 0.5, 0.1, 4, 16000, woodchuck], // too many frames at half speed
  [1, 1, 0.1, 1, 16000, 'how much wud'],
  [2, 1, 0.1, 1, 16000, '   '],
  [3, 1, 0.1, 1, 16000, 'woodchuck '.repeat(201)],
  [4, 1, 0.1, 1, 16000, 'caf\u00e9 wood'],
  [5 | RAW_OPTIONS, NaN, 0.1, 1, 16000, 'wood'],
  [0 | RAW_OPTIONS, 9, -1, 1, 44123, 'wood'],
  [1 | RAW_OPTIONS | RENDER, 1, Infinity, 1, 16000, 'wood'],
  [2 | RAW_OPTIONS | RENDER, 2, 1, 1, 7999, 'wood chuck'],
];
let n = 0;
for (const [flags, rate, noise, seed, sampleRate, text] of phrases)
  writeFileSync(`${dir}/phrase-${n++}`, Buffer.concat([header(flags, rate, noise, seed, sampleRate, 3), Buffer.from(text)]));
const frames = (count, value) => {
  const f = new Float32Array(count);
  for (let i = 0; i < count; i++) f[i] = typeof value === 'function' ? value(i) : value;
  return Buffer.from(f.buffer);
};
const raw = [
  [0, frames(24 * 10, (i) => (i % 7) / 4)],
  [1, frames(24 * 3 + 5, 1)],
  [2, frames(24 * 4, (i) => (i === 30 ? NaN : 1))],
  [3, frames(24 * 4, (i) => (i % 2 ? 3e38 : -3e38))],
  [4, frames(24 * 4, (i) => (Math.floor(i / 24) % 2 ? 3e38 : -3e38))],
  [5, frames(24 * 481, 0.5)],
  [0, frames(0, 0)],
];
for (const [model, bytes] of raw)
  writeFileSync(`${dir}/frames-${n++}`, Buffer.concat([header(RAW_FRAMES | RAW_OPTIONS | model, 1, 0, 1, 16000, 4), bytes]));
JS

# What-ifs: for each of fuzz_whatif's models (tests/fuzz/fuzz_whatif.cpp builds them; the source
# takes 5 bytes for text, 15 for audio frames, 8 for pixels), a session of 5 source positions and
# a sequence of masks, pins, τ, steps, forces, back, reset, run and beam searches with what-ifs.
node --input-type=module - "$out/whatif" <<'JS'
import { writeFileSync } from 'node:fs';
const [dir] = process.argv.slice(2);
const models = 22, audio = [17, 18, 21], conv = [19, 20];
const MASK = 0, UNMASK = 1, PIN = 2, PIN_WEIGHTS = 3, UNPIN = 4, TAU = 5, STEP = 6, FORCE = 7, BACK = 8, RESET = 9, RUN = 10, BEAM = 11;
// indices: byte b means b % (n + 3) - 1; τ and weights: byte 1 = 0.5, 2 = 2, 3 = min τ, 48 = 3.0, 64 = 4.0
const scripts = [
  [MASK, 2, STEP, PIN, 3, STEP, TAU, 1, STEP, FORCE, 4, BACK, UNMASK, 2, RUN],
  [PIN_WEIGHTS, 1, 48, 64, 0 + 40, 48, 48, STEP, MASK, 1, MASK, 2, MASK, 3, MASK, 4, MASK, 5, STEP, RESET, RUN],
  [TAU, 3, STEP, TAU, 4, STEP, TAU, 5, STEP, PIN, 0, PIN, 6, UNPIN, STEP, RUN, STEP, FORCE, 9],
  // beam: width, count, then each what-if's kind (0 mask … 4 τ), step byte (1 = step 0) and argument;
  // width 3 with a mask and τ 0.5 at step 0 and a pin at step 1; width 1 with weights at step 0 and
  // a τ at a far step (never applied); width 255 (past the limit, refused)
  [BEAM, 3, 3, 0, 1, 3, 2, 2, 2, 4, 1, 1, STEP, MASK, 2, BEAM, 1, 2, 3, 1, 41, 48, 48, 48, 48, 48, 4, 255, 3, RUN, BEAM, 255, 0],
];
let n = 0;
for (let m = 0; m < models; m++) {
  const source = audio.includes(m) ? 15 : conv.includes(m) ? 8 : 5;
  for (const ops of scripts) {
    const head = [m, 4, 5, n % 12, 0];
    const src = Array.from({ length: source }, (_, i) => 40 + ((i * 37 + m) % 200));
    writeFileSync(`${dir}/whatif-${n++}`, Buffer.from([...head, ...src, ...ops]));
  }
}
JS

# Own pairs: fuzz_pairs's 6-byte header (tests/fuzz/fuzz_pairs.cpp says its layout: score, style
# and encoder bits, embed, hidden, batch, steps) before pairs of each kind the page takes, well
# formed and not: characters, words, Chinese, CRLF, a byte order mark, a NUL, a line without a tab.
node --input-type=module - "$out/pairs" <<'JS'
import { writeFileSync } from 'node:fs';
const [dir] = process.argv.slice(2);
const reverse = Array.from({ length: 24 }, (_, i) => {
  const s = 'abcdefgh'.slice(0, 1 + (i % 7)) + String.fromCharCode(97 + (i % 26));
  return `${s}\t${[...s].reverse().join('')}`;
}).join('\n');
const words = ['tom chase jerry\t汤姆 追逐 杰瑞', 'jerry chase tom\t杰瑞 追逐 汤姆', 'tom see jerry\t汤姆 看见 杰瑞'];
const dates = ['29 november 2026\t2026-11-29', '1 may 1999\t1999-05-01', '3 june 2001\t2001-06-03'];
const texts = [
  reverse,
  words.join('\n').repeat(1),
  Array.from({ length: 12 }, (_, i) => words[i % 3]).join('\n'),
  Array.from({ length: 12 }, (_, i) => dates[i % 3]).join('\r\n') + '\r\n\r\n',
  '\ufeff' + reverse,
  'a\tb\nc\u0000\td',
  'a\tb\nno tab here',
  'x'.repeat(129) + '\ty',
  '中文\t英文\n汉字\t文字\n',
];
// every score kind, both styles and both encoders among them; activation gelu with the GRU once
const headers = [
  [3, 0, 8, 8, 4, 1], [0, 1, 8, 8, 4, 2], [2, 0, 5, 6, 2, 1], [4, 1, 8, 8, 8, 1], [5, 0, 8, 8, 3, 2],
  [6, 0, 4, 4, 4, 1], [7, 0, 8, 8, 4, 2], [3, 2, 3, 8, 4, 1], [1, 3, 1, 5, 2, 1], [0, 16, 8, 8, 4, 1],
  [3, 4, 8, 8, 4, 1], [3, 8, 8, 8, 4, 1], [7, 1, 2, 2, 1, 0],
];
// every header on the first text; three of them, in turn, on each other (each seed is a whole run)
let n = 0;
texts.forEach((text, t) => {
  const chosen = t === 0 ? headers : [0, 1, 2].map((k) => headers[(3 * t + k) % headers.length]);
  for (const h of chosen) writeFileSync(`${dir}/pairs-${n++}`, Buffer.concat([Buffer.from(h), Buffer.from(text)]));
});
JS

# PPM pictures: small ones of several sizes (with a comment, the scenes' own 32 x 32, sizes that
# do not divide it), and broken ones: cut short, a maxval of 65535, a side of 8 digits, no header.
node --input-type=module - "$out/ppm" <<'JS'
import { writeFileSync } from 'node:fs';
const [dir] = process.argv.slice(2);
const ppm = (header, w, h, pixels = w * h * 3) =>
  Buffer.concat([Buffer.from(header), Buffer.from(Array.from({ length: pixels }, (_, i) => (i * 37) % 256))]);
const seeds = [
  ppm('P6\n32 32\n255\n', 32, 32),
  ppm('P6\n# a comment\n40 7\n255\n', 40, 7),
  ppm('P6 1 1 255\n', 1, 1),
  ppm('P6\n33 65\n255\n', 33, 65),
  ppm('P6\n16 16\n255\n', 16, 16, 100),
  ppm('P6\n4 4\n65535\n', 4, 4, 96),
  ppm('P6\n12345678 2\n255\n', 2, 2),
  ppm('P6\n4097 1\n255\n', 1, 1),
  ppm('P3\n2 2\n255\n', 2, 2),
  Buffer.from('P6\n'),
];
seeds.forEach((bytes, i) => writeFileSync(`${dir}/ppm-${i}`, bytes));
JS

echo "seeds: $(find "$out" -type f | wc -l) files in $out"
