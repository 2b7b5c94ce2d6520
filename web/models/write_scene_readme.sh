#!/usr/bin/env bash
# Rewrites the "## Scene models" section at the end of web/models/README.md from the logs
# make_fixed_models.sh scenes left in build/models-logs/ (write_readme.sh keeps the section).
source "$(dirname "$0")/readme_section.sh"
scene_section() {
  cat <<'TEXT'
## Scene models

Image captioning (`--task scenes`, `src/tasks/scenes.hpp`): 32 × 32 RGB scenes of 1–3 objects,
captions such as "a small red circle above a large blue square". One recipe for all
(`src/train/scenes_task.cpp`), seed 1 for the initialisation, the batch order and the data:

- model: conv encoder 3 → 16 → 16 → 62 channels (3 × 3, padding 1, ReLU and 2 × 2 max-pooling after
  the first two) to an 8 × 8 grid of 64 cells, each 62 features and its position (row, column) in
  [−1, 1] (dh = 64); Bahdanau decoder GRU 64, embeddings 16, additive attention dimension 32;
- training: 12,000 generated scenes, 8,000 steps of batch 32, Adam 3e-3 with a cosine decay to 3e-4,
  gradient-norm clip 5;
- held-out: the 1,000 scenes whose composition (the objects' sizes, colours and shapes) never occurs
  in training; exact match of the greedy caption, and "attention hits the object": the share of the
  colour and shape words (teacher forced) whose attention weight peaks at a cell whose centre lies in
  the bounding box of the object the word names.

`tests/train/test_shipped_scenes.cpp` evaluates every file listed here on all its held-out scenes
and checks both numbers. Reproduce: `bash web/models/make_fixed_models.sh scenes` then
`bash web/models/write_scene_readme.sh`.
TEXT
  echo "These files were made at commit \`$commit\`."
  echo
  echo "| file | task | encoder | score | style | held-out exact match | attention hits the object | size | command |"
  echo "|---|---|---|---|---|---|---|---|---|"
  for score in additive dot scaled_dot general cosine; do
    log=$logs/scenes-$score.log
    name=scenes-$score-bahdanau
    [ -s "$log" ] && [ -f "web/models/$name.safetensors" ] || continue
    line=$(tail -n 1 "$log")
    [[ $line == *"held-out exact match"* ]] || continue
    em=$(sed -E 's/.*held-out exact match ([0-9.]+)%.*/\1/' <<<"$line")
    hits=$(sed -E 's/.*attention hits the object ([0-9.]+)%.*/\1/' <<<"$line")
    kb=$(model_kb "$name")
    echo "| \`$name.safetensors\` | scenes | conv | $score | bahdanau | $em % | $hits % | $kb KB | \`build/native/apg train --task scenes --score $score --style bahdanau --seed 1 --out web/models/$name.safetensors\` |"
  done
}
replace_section 'Scene models' 'Speech models' scene_section
