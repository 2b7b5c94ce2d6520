#!/usr/bin/env bash
# npm run lint: formatting checks only (clang-format for C++, Prettier for the web code).
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
mapfile -t cpp < <(git ls-files 'src/*.hpp' 'src/*.cpp' 'wasm/*.cpp' 'wasm/*.hpp' 'tests/*.cpp' 'tests/*.hpp')
if [ ${#cpp[@]} -gt 0 ]; then
  clang-format --dry-run --Werror "${cpp[@]}" || status=1
fi
mapfile -t web < <(git ls-files '*.js' '*.mjs' '*.svelte' '*.css' '*.html' '*.json' | grep -vE '^web/models/|package-lock.json|_golden\.json$')
if [ ${#web[@]} -gt 0 ]; then
  node_modules/.bin/prettier --check --log-level warn "${web[@]}" || status=1
fi
[ "$status" -eq 0 ] && echo "lint: clean"
exit "$status"
