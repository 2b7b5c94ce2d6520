#!/usr/bin/env bash
# Sourced by write_scene_readme.sh and write_speech_readme.sh, which each rewrite one "## …"
# section of web/models/README.md from the logs make_fixed_models.sh left in build/models-logs/:
# what stands before the section is kept, and so are the sections named to follow it.
#   bash web/models/write_scene_readme.sh [commit]     the commit the files were made at (default HEAD)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
logs=build/models-logs
commit=${1:-$(git rev-parse --short HEAD)}
readme=web/models/README.md

# model_kb NAME: web/models/NAME.safetensors's size in KB, rounded to the nearest, as the tables show it
model_kb() {
  echo $((($(stat -c %s "web/models/$1.safetensors") + 512) / 1024))
}

# replace_section TITLE KEEP WRITE: README.md with the section "## TITLE" (and all after it) replaced
# by what the function WRITE prints, then the section "## KEEP" to the end as it was, where KEEP is
# not empty and found. A WRITE that fails leaves README.md as it was.
replace_section() {
  local head kept=''
  head=$(sed "/^## $1/,\$d" "$readme")
  [ -z "$2" ] || kept=$(sed -n "/^## $2/,\$p" "$readme")
  {
    printf '%s\n\n' "$head"
    "$3"
    [ -z "$kept" ] || printf '\n%s\n' "$kept"
  } >"$readme.new"
  mv "$readme.new" "$readme"
}
