#!/usr/bin/env bash
# Trains the shipped speech models (audio encoder, Bahdanau decoder, one per score function), two at
# a time, and prints each one's held-out figures.
#   bash web/models/make_speech_models.sh [score ...]     default: additive location general dot scaled_dot scaled_cosine
# Plain cosine is left out (its bounded scores keep the weights flat: see web/models/README.md).
# Needs the native build (bash scripts/build.sh native). Logs go to build/models-logs/.
set -euo pipefail
cd "$(dirname "$0")/../.."
apg=${APG:-build/native/apg}
logs=build/models-logs
steps=${STEPS:-4000}
mkdir -p "$logs"
scores=("$@")
[ ${#scores[@]} -gt 0 ] || scores=(additive location general dot scaled_dot scaled_cosine)
train() {
  local score=$1 out=web/models/speech-$1-bahdanau.safetensors
  nice -n 5 "$apg" train --task speech --score "$score" --style bahdanau --seed 1 --steps "$steps" --out "$out" \
    --quiet >"$logs/speech-$score.log" 2>&1
  tail -n 2 "$logs/speech-$score.log" | head -n 1
}
running=0
for score in "${scores[@]}"; do
  train "$score" &
  running=$((running + 1))
  if [ "$running" -ge 2 ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait
