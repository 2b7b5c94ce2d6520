#!/usr/bin/env bash
# Rewrites web/models/README.md from the results make_models.sh left in build/models-logs/.
set -euo pipefail
cd "$(dirname "$0")/../.."
logs=build/models-logs
commit=${1:-$(git rev-parse --short HEAD)}
# The scene models' section (write_scene_readme.sh) is kept as it is.
scenes=$(sed -n '/^## Scene models/,$p' web/models/README.md 2>/dev/null || true)
{
  cat <<'HEAD'
# Shipped models

Every checkpoint here was made by the project's own trainer (`src/train`) from data the project
generates itself (`src/train/tasks`, `make_task(task, seed)`), with the native CLI. All share one
seed (1: model initialisation, batch order and the generated data) and, per task, one recipe
(`src/train/prepare.cpp`), so comparing score functions and styles is fair:

- model: embeddings 32, BiGRU encoder 2 × 64, decoder GRU 128, additive attention dimension 64
  (the other score functions have no extra size; dot, scaled dot and cosine compare the 128-wide
  decoder state with the 128-wide encoder state directly);
- encoder `transformer` (files ending in `-transformer`): embeddings 64, positional codes, 2 layers of
  4-head self-attention (16 dimensions per head), feed-forward 128, residuals and post-layer norm, under
  the same decoder GRU 128 with additive attention 64;
- training: batch 32, Adam 3e-3 with a cosine decay to 3e-4, gradient-norm clip 5, teacher forcing,
  length-bucketed batches; steps: dates 500, zh 800, reverse 1000, transformer encoder 3000
  (20,000 generated training pairs per task);
- held-out exact match: greedy decoding of all 1,000 held-out pairs of the task (split by sentence),
  output equal to the target token for token.

Format: `.safetensors`, float32 tensors named by module path (`encoder.fwd.w_ih`, `decoder.attn.w_q`, …),
`__metadata__` holding the config, both vocabularies and the training record (command, seeds, steps,
held-out exact match) as JSON. `tests/io/test_shipped_models.cpp` loads every file listed below
and checks the first 100 held-out pairs against the number in this table.

Reproduce all of them (about 30 minutes on one core): `bash scripts/build.sh native && bash web/models/make_models.sh`
then `bash web/models/write_readme.sh`. Training is deterministic for a given build; these files
HEAD
  echo "were made at commit \`$commit\`."
  echo
  echo "| file | task | encoder | score | style | held-out exact match | size | command |"
  echo "|---|---|---|---|---|---|---|---|"
  for result in "$logs"/*.result; do
    [ -s "$result" ] || continue
    name=$(basename "$result" .result)
    IFS=- read -r task score style encoder <<<"$name"
    flag=""
    if [[ -n "$encoder" ]]; then flag=" --encoder $encoder"; else encoder=bigru; fi
    pct=$(sed -E 's/.*held-out exact match ([0-9.]+)%.*/\1/' "$result")
    bytes=$(stat -c %s "web/models/$name.safetensors")
    kb=$(( (bytes + 512) / 1024 ))
    echo "| $name.safetensors | $task | $encoder | $score | $style | $pct % | $kb KB | \`build/native/apg train --task $task --score $score --style $style$flag --seed 1 --out web/models/$name.safetensors\` |"
  done | sort -t'|' -k3,3 -k4,4 -k6,6 -k5,5
  [ -z "$scenes" ] || printf '\n%s\n' "$scenes"
} >web/models/README.md
