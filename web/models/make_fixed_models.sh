#!/usr/bin/env bash
# Trains the shipped models of a task whose recipe fixes the model (scenes: the conv encoder;
# speech: the audio encoder; a Bahdanau decoder, one model per score function), two at a time, and
# prints each one's held-out figures.
#   bash web/models/make_fixed_models.sh scenes [score ...]   default: additive dot scaled_dot general cosine
#   bash web/models/make_fixed_models.sh speech [score ...]   default: additive location general dot scaled_dot scaled_cosine
# Plain cosine is left out of speech (its bounded scores keep the weights flat: see
# web/models/README.md). STEPS sets speech's steps (4,000 unless given).
# Needs the native build (bash scripts/build.sh native). Logs go to build/models-logs/.
set -euo pipefail
cd "$(dirname "$0")/../.."
task=${1:-}
case $task in
  scenes) defaults=(additive dot scaled_dot general cosine) steps=() ;;
  speech) defaults=(additive location general dot scaled_dot scaled_cosine) steps=(--steps "${STEPS:-4000}") ;;
  *)
    echo "usage: bash web/models/make_fixed_models.sh scenes|speech [score ...]" >&2
    exit 2
    ;;
esac
shift
apg=${APG:-build/native/apg}
logs=build/models-logs
mkdir -p "$logs"
scores=("$@")
[ ${#scores[@]} -gt 0 ] || scores=("${defaults[@]}")
train() {
  local score=$1 out=web/models/$task-$1-bahdanau.safetensors
  nice -n 5 "$apg" train --task "$task" --score "$score" --style bahdanau --seed 1 "${steps[@]}" --out "$out" \
    --quiet >"$logs/$task-$score.log" 2>&1
  grep 'held-out' "$logs/$task-$score.log" | tail -n 1
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
