#!/usr/bin/env bash
# apg from end to end, as a person runs it: train a tiny reverse model, evaluate it, decode with
# it, then decode with a shipped model of each input kind (text, image, audio), checking what each
# command prints and writes. ctest runs it natively: tests/cli/smoke.sh BUILD/apg
set -euo pipefail
apg=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
models=$root/web/models
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "cli smoke: $*" >&2
  exit 1
}
# expect NAME TEXT PATTERN: the grep -E PATTERN is in TEXT.
expect() {
  grep -Eq -- "$3" <<<"$2" || fail "$1 printed no match for /$3/:"$'\n'"$2"
}

# train: the model file, the data line and the held-out figure of every held-out pair
out=$("$apg" train --task reverse --score additive --style bahdanau --seed 3 --steps 40 --batch 16 \
  --out "$work/reverse.safetensors" --quiet 2>"$work/train.err")
[ -s "$work/reverse.safetensors" ] || fail "train wrote no checkpoint"
expect train "$(cat "$work/train.err")" '^task reverse: 20000 train / 1000 held-out pairs, vocabularies 14 / 14, max lengths 19 / 19$'
expect train "$out" "^$work/reverse.safetensors: held-out exact match [0-9]+\.[0-9]{2}% \(1000 pairs\), [0-9]+ seq/s, [0-9]+:[0-9]{2}, [0-9]+ bytes$"

# eval: the same model's figure on the first 50 held-out pairs, and by source length
out=$("$apg" eval "$work/reverse.safetensors" --limit 50 --by-length 5)
expect eval "$out" 'task reverse, encoder gru, score additive, style bahdanau: held-out exact match [0-9]+\.[0-9]{2}% \(50 pairs\)$'
expect eval "$out" '^  source   1-5 +[0-9]+ pairs  exact match +[0-9.]+%$'

# decode: an output line, then one alignment row per output token and the end token
out=$("$apg" decode "$work/reverse.safetensors" abcj)
expect decode "$out" '^attention weights \(%\), rows = output, columns = source$'
expect decode "$out" '^ +a +b +c +j *$'
expect decode "$out" '^</s>'

# shipped models: a known translation, caption and transcript
out=$("$apg" decode "$models/zh-additive-bahdanau.safetensors" "tom chased jerry in the kitchen yesterday")
expect decode "$out" '^汤姆 昨天 在 厨房 追 了 杰瑞$'
out=$("$apg" decode "$models/scenes-additive-bahdanau.safetensors" \
  "small red circle at 10,12; large blue square at 24,20" --ppm "$work/scene.ppm")
expect decode "$out" '^caption: a small red circle to the left of a large blue square$'
[ "$(head -c 12 "$work/scene.ppm")" = $'P6\n32 32\n255' ] || fail "decode --ppm wrote no 32 x 32 picture"
out=$("$apg" decode "$models/scenes-additive-bahdanau.safetensors" "$work/scene.ppm")
expect decode "$out" '^caption: a small red circle to the left of a large blue square$'
out=$("$apg" decode "$models/speech-additive-bahdanau.safetensors" --phrase "how much wood" --seed 4 --rate 1.2)
expect decode "$out" '^heard: how much wood$'

# a mistake is a message and exit status 1
if err=$("$apg" train --task nope --score dot --style luong --seed 1 --out "$work/x" 2>&1); then
  fail "an unknown task was accepted"
fi
expect train "$err" '^apg: task: expected dates, zh, reverse, scenes or speech \(or own pairs\), got "nope"$'
echo "cli smoke: train, eval and decode print what they should"
