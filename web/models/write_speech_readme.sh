#!/usr/bin/env bash
# Rewrites the "## Speech models" section at the end of web/models/README.md from the logs
# make_fixed_models.sh speech left in build/models-logs/ (write_readme.sh and write_scene_readme.sh keep it).
source "$(dirname "$0")/readme_section.sh"
speech_section() {
  cat <<'TEXT'
## Speech models

Speech recognition of synthetic utterances (`--task speech`, `src/tasks/speech.hpp`): phrases
of 1–6 words from a 46-word lexicon around "how much wood would a woodchuck chuck", spoken as frames
of 24 band energies (10 ms each; every letter a fixed pattern of formant-like bumps, with random
durations, speaking rate, pitch shift, blur, noise and pauses), transcribed to characters. One recipe
for all (`src/train/speech_task.cpp`), seed 1 for the initialisation, the batch order and
the data:

- model: audio encoder (a BiGRU 32 per direction over the frames, a ×2 time reduction, a second
  BiGRU 32: one state per two frames, dh = 64); Bahdanau decoder GRU 64, embeddings 16, attention
  dimension 32;
- training: 4,000 generated utterances, the steps below of batch 32, Adam 3e-3 with a cosine decay
  to 3e-4, gradient-norm clip 5;
- held-out: 400 utterances of phrases that never occur in training; the character error rate (edit
  distance over reference length, summed) and the exact match of the greedy transcript, and the
  monotonicity: the share of decoding steps whose attention peak does not move back in time.

Plain cosine is not shipped: its scores lie in [−1, 1], so over ~100 encoder states its weights
stay nearly flat (held-out CER 27.15 %, monotonicity 61.27 % after the same 4,000 steps); the
learned scale of scaled cosine lifts that bound.

`tests/train/test_shipped_speech.cpp` evaluates every file listed here on all its held-out
utterances and checks the three numbers. Reproduce: `bash web/models/make_fixed_models.sh speech` then
`bash web/models/write_speech_readme.sh`.
TEXT
  echo "These files were made at commit \`$commit\`."
  echo
  echo "| file | task | encoder | score | style | held-out CER | monotonicity | exact match | size | command |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  for score in additive location dot scaled_dot general scaled_cosine; do
    log=$logs/speech-$score.log
    name=speech-$score-bahdanau
    [ -s "$log" ] && [ -f "web/models/$name.safetensors" ] || continue
    line=$(grep 'held-out CER' "$log" | tail -n 1)
    [ -n "$line" ] || continue
    cer=$(sed -E 's/.*held-out CER ([0-9.]+)%.*/\1/' <<<"$line")
    mono=$(sed -E 's/.*monotonic at ([0-9.]+)%.*/\1/' <<<"$line")
    em=$(sed -E 's/.*exact match ([0-9.]+)%.*/\1/' <<<"$line")
    kb=$(model_kb "$name")
    cmd="build/native/apg train --task speech --score $score --style bahdanau --seed 1 --steps ${STEPS:-4000} --out web/models/$name.safetensors"
    echo "| \`$name.safetensors\` | speech | audio | $score | bahdanau | $cer % | $mono % | $em % | $kb KB | \`$cmd\` |"
  done
}
replace_section 'Speech models' '' speech_section
