#!/usr/bin/env bash
# Trains every shipped checkpoint, one after another, and rewrites the table in README.md.
#   bash web/models/make_models.sh [filter]      e.g. filter "dates-additive" to retrain a few
# Needs the native build (bash scripts/build.sh native). Logs go to build/models-logs/.
set -euo pipefail
cd "$(dirname "$0")/../.."
apg=${APG:-build/native/apg}
logs=build/models-logs
mkdir -p "$logs"
filter=${1:-}
seed=1
# Additive Bahdanau first: they carry the accuracy targets.
runs=()
for task in dates zh reverse; do runs+=("$task additive bahdanau"); done
for task in dates zh reverse; do
  for score in dot scaled_dot general cosine scaled_cosine; do runs+=("$task $score bahdanau"); done
done
for task in dates zh; do
  for score in additive dot scaled_dot general cosine; do runs+=("$task $score luong"); done
done
# Location-aware attention (8 filters of width 7 over the previous step's weights).
runs+=("dates location bahdanau")
# The fixed-vector baseline: no attention, one context from the encoder's final states.
for task in dates zh reverse; do runs+=("$task none bahdanau"); done
# A 2-layer, 4-head transformer encoder under the additive Bahdanau decoder.
for task in dates zh; do runs+=("$task additive bahdanau transformer"); done
# The Transformer, encoder and decoder (files <task>-transformer): its cross-attention is scaled
# dot-product queried by the decoder's new state, so score scaled_dot and style luong.
for task in dates zh reverse; do runs+=("$task scaled_dot luong transformer transformer"); done
for run in "${runs[@]}"; do
  read -r task score style encoder decoder <<<"$run"
  encoder=${encoder:-gru}
  decoder=${decoder:-gru}
  name="$task-$score-$style"
  extra=()
  if [[ "$encoder" != gru ]]; then
    name="$name-$encoder"
    extra=(--encoder "$encoder")
  fi
  if [[ "$decoder" != gru ]]; then
    name="$task-transformer"
    extra+=(--decoder "$decoder")
  fi
  [[ -n "$filter" && "$name" != *"$filter"* ]] && continue
  echo "== $name"
  "$apg" train --task "$task" --score "$score" --style "$style" --seed "$seed" \
    "${extra[@]}" --out "web/models/$name.safetensors" 2>"$logs/$name.log" | tee "$logs/$name.result"
done
