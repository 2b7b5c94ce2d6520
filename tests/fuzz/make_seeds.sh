#!/usr/bin/env bash
# Writes the fuzz targets' seed corpora under DIR (default build/fuzz/seeds), from what the repo
# ships: the checkpoints in web/models, the metadata JSON inside them, and the page's example
# texts. Nothing here is committed; run again to regenerate.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-build/fuzz/seeds}
rm -rf "$out"
mkdir -p "$out/checkpoint" "$out/tokenizer" "$out/metadata"

# Checkpoints: one of each kind (the rest add size, not coverage), plus two cut short.
for name in dates-additive-bahdanau zh-general-luong reverse-dot-bahdanau zh-additive-bahdanau-transformer \
            dates-cosine-luong dates-scaled_dot-bahdanau; do
  cp "web/models/$name.safetensors" "$out/checkpoint/$name"
done
head -c 4096 web/models/dates-dot-luong.safetensors >"$out/checkpoint/cut-header"
# And small ones of every kind (built with the fuzz targets), on which the fuzzer runs fast.
if [ -x build/fuzz/make_tiny_checkpoints ]; then
  build/fuzz/make_tiny_checkpoints "$out/checkpoint" >/dev/null
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

# Texts: the page's examples (web/lib/tasks.js), each for both vocabularies (the first byte picks
# the model: even = zh words, odd = dates characters), and a few hostile shapes.
node --input-type=module - "$out/tokenizer" <<'JS'
import { writeFileSync } from 'node:fs';
const { tasks } = await import(new URL('web/lib/tasks.js', `file://${process.cwd()}/`).href);
const [dir] = process.argv.slice(2);
const texts = tasks.flatMap((t) => t.examples);
texts.push('tmo chsed jery', 'Tom chased Jerry.', '汤姆 追逐 杰瑞', 'a\u0000b', '  ?! ', 'x'.repeat(300));
let n = 0;
for (const text of texts)
  for (const pick of [0, 1]) writeFileSync(`${dir}/text-${n++}`, Buffer.concat([Buffer.from([pick]), Buffer.from(text)]));
writeFileSync(`${dir}/surrogate`, Buffer.from([0, 0x61, 0xed, 0xa0, 0x80, 0x20, 0x62]));
writeFileSync(`${dir}/overlong`, Buffer.from([1, 0x32, 0xc0, 0xaf, 0x39]));
JS

echo "seeds: $(find "$out" -type f | wc -l) files in $out"
