#!/usr/bin/env bash
# Trains the shipped scenes models (conv encoder, Bahdanau decoder, one per score function), two at
# a time, and prints each one's held-out figures.
#   bash web/models/make_scene_models.sh [score ...]     default: all five
# Needs the native build (bash scripts/build.sh native). Logs go to build/models-logs/.
set -euo pipefail
cd "$(dirname "$0")/../.."
apg=${APG:-build/native/apg}
logs=build/models-logs
mkdir -p "$logs"
scores=("$@")
[ ${#scores[@]} -gt 0 ] || scores=(additive dot scaled_dot general cosine)
train() {
  local score=$1 out=web/models/scenes-$1-bahdanau.safetensors
  nice -n 5 "$apg" train --task scenes --score "$score" --style bahdanau --seed 1 --out "$out" --quiet \
    >"$logs/scenes-$score.log" 2>&1
  tail -n 1 "$logs/scenes-$score.log"
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
