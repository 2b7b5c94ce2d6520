#!/usr/bin/env bash
# Rewrites web/models/README.md from the results make_models.sh left in build/models-logs/; the
# rows of files it finds no result for are kept as they were.
#   bash web/models/write_readme.sh [commit]     the commit the new files were made at (default HEAD)
set -euo pipefail
cd "$(dirname "$0")/../.."
logs=build/models-logs
commit=${1:-$(git rev-parse --short HEAD)}
apg=${APG:-build/native/apg}
kept=()
if [[ -f web/models/README.md ]]; then mapfile -t kept < <(grep -E '^\| [^ ]+\.safetensors ' web/models/README.md); fi
# The scene models' section (write_scene_readme.sh) is kept as it is.
scenes=$(sed -n '/^## Scene models/,$p' web/models/README.md 2>/dev/null || true)
{
  cat <<'HEAD'
# Shipped models

Every checkpoint here was made by the project's own trainer (`src/train`) from data the project
generates itself (`src/tasks`, `make_task(task, seed)`), with the native CLI. All share one
seed (1: model initialisation, batch order and the generated data) and, per task, one recipe
(`src/train/text_task.cpp`), so comparing score functions and styles is fair:

- model: embeddings 32, BiGRU encoder 2 × 64, decoder GRU 128, additive attention dimension 64
  (the other score functions have no extra size but scaled cosine's one learned scale g; dot,
  scaled dot, cosine and scaled cosine compare the 128-wide decoder state with the 128-wide
  encoder state directly);
- score `location` (`dates-location-bahdanau`): additive attention 64 plus 8 filters of width 7
  convolved over the previous step's weights, projected into the same 64 (Chorowski et al., 2015);
- score `none` (files `<task>-none-bahdanau`): the fixed-vector baseline, no attention and no attention
  parameters; the decoder reads one context at every step (and its initial state), the encoder's final
  states: the forward GRU's after the last token and the backward GRU's after the first, 2 × 64;
- encoder `transformer` (files ending in `-additive-bahdanau-transformer`): embeddings 64, positional
  codes, 2 layers of 4-head self-attention (16 dimensions per head), feed-forward 128, residuals and
  post-layer norm, under the same decoder GRU 128 with additive attention 64;
- decoder `transformer` (files `<task>-transformer`, the Transformer: encoder and decoder): model size 32
  for both, positional codes, 2 encoder layers as above and 2 decoder layers, each of 4-head masked
  self-attention over the tokens written so far, 4-head cross-attention over the encoder states
  (q·k/√8, queried by the decoder's new state: score scaled_dot, style luong) and feed-forward 64, with
  residuals and post-layer norm, then the output layer; greedy decoding with a key/value cache (each
  took 12 minutes, three at once on a shared 2-core machine: about 130 sequences per second each);
- training: batch 32, Adam 3e-3 with a cosine decay to 3e-4, gradient-norm clip 5, teacher forcing,
  length-bucketed batches; steps: dates 500, zh 800, reverse 1000, transformer encoder or decoder 3000
  (20,000 generated training pairs per task);
- held-out exact match: greedy decoding of all 1,000 held-out pairs of the task (split by sentence),
  output equal to the target token for token.

Format: `.safetensors`, float32 tensors named by module path (`encoder.fwd.w_ih`, `decoder.attn.w_q`, …),
`__metadata__` holding the config, both vocabularies and the training record (command, seeds, steps,
held-out exact match) as JSON. `tests/io/test_shipped_models.cpp` loads every file listed below
and checks the first 100 held-out pairs against the number in this table.

Reproduce all of them (about 30 minutes on one core): `bash scripts/build.sh native && bash web/models/make_models.sh`
then `bash web/models/write_readme.sh`. Training is deterministic for a given build (the same
commit and compiler); the last column names the commit each file was made at.
HEAD
  echo
  echo "| file | task | encoder | decoder | score | style | held-out exact match | size | command | made at |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  {
    for result in "$logs"/*.result; do
      [ -s "$result" ] || continue
      name=$(basename "$result" .result)
      IFS=- read -r task score style encoder <<<"$name"
      flag=""
      decoder=gru
      if [[ "$score" == transformer ]]; then # <task>-transformer: encoder and decoder
        read -r score style encoder decoder <<<"scaled_dot luong transformer transformer"
        flag=" --encoder transformer --decoder transformer"
      elif [[ -n "$encoder" ]]; then flag=" --encoder $encoder"; else encoder=bigru; fi
      pct=$(sed -E 's/.*held-out exact match ([0-9.]+)%.*/\1/' "$result")
      bytes=$(stat -c %s "web/models/$name.safetensors")
      kb=$(( (bytes + 512) / 1024 ))
      echo "| $name.safetensors | $task | $encoder | $decoder | $score | $style | $pct % | $kb KB | \`build/native/apg train --task $task --score $score --style $style$flag --seed 1 --out web/models/$name.safetensors\` | \`$commit\` |"
    done
    # Files this run did not retrain keep their rows (and the commit they were made at).
    for row in "${kept[@]}"; do
      name=$(sed -E 's/^\| ([^ ]+)\.safetensors .*/\1/' <<<"$row")
      [[ -s "$logs/$name.result" || ! -f "web/models/$name.safetensors" ]] || echo "$row"
    done
  } | sort -t'|' -k3,3 -k4,4 -k5,5 -k7,7 -k6,6
  echo
  cat <<'BYLENGTH'
## Exact match by source length

What attention is for: the fixed vector holds less of a longer input. Greedy exact match of the
1,000 held-out pairs per bucket of 4 source tokens (`build/native/apg eval FILE --by-length 4`,
`decode::accuracy_by_length`), the baseline (`none`) beside additive attention, both Bahdanau style
over the BiGRU, and the Transformer (`<task>-transformer`, encoder and decoder).

| task | source tokens | pairs | none | additive | transformer |
|---|---|---|---|---|---|
BYLENGTH
  for task in dates reverse zh; do
    none=web/models/$task-none-bahdanau.safetensors
    additive=web/models/$task-additive-bahdanau.safetensors
    transformer=web/models/$task-transformer.safetensors
    [[ -f "$none" && -f "$additive" && -f "$transformer" ]] || continue
    paste <("$apg" eval "$none" --by-length 4 | grep '^  source') <("$apg" eval "$additive" --by-length 4 | grep '^  source') \
      <("$apg" eval "$transformer" --by-length 4 | grep '^  source') |
      awk -v task="$task" '{ gsub(/%/, ""); printf "| %s | %s | %s | %s %% | %s %% | %s %% |\n", task, $2, $3, $7, $14, $21 }'
  done
  [ -z "$scenes" ] || printf '\n%s\n' "$scenes"
} >web/models/README.md
