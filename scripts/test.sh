#!/usr/bin/env bash
# npm test: every suite in order; stops at the first red one. The last line counts every test run.
#   1. native doctest suite (ctest)        2. the same suite under ASan + UBSan
#   3. the same suite compiled to wasm and run under node (ctest)
#   4. JS binding tests and browser tests in headless Chromium (node --test)
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
logs=build/test-logs
mkdir -p "$logs"
passed=0
failed=0

count_ctest() { # "100% tests passed, 0 tests failed out of 57"
  local line total bad
  line=$(grep -E 'tests failed out of [0-9]+' "$1" | tail -1)
  total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$line")
  bad=$(sed -E 's/.* ([0-9]+) tests failed.*/\1/' <<<"$line")
  passed=$((passed + total - bad)); failed=$((failed + bad))
}

for preset in native native-asan wasm; do
  bash scripts/build.sh "$preset"
  echo "== ctest: $preset"
  ctest --preset "$preset" 2>&1 | tee "$logs/ctest-$preset.log" | grep -E 'tests passed|tests failed|\*\*\*Failed|Failed ' || true
  count_ctest "$logs/ctest-$preset.log"
  if [ "$failed" -gt 0 ]; then echo "$passed passed, $failed failed"; exit 1; fi
done

echo "== web build"
node_modules/.bin/vite build --logLevel warn

echo "== node --test (bindings and browser)"
mapfile -t js_tests < <(find tests/js tests/e2e -name '*.test.mjs' 2>/dev/null | sort)
status=0
if [ ${#js_tests[@]} -gt 0 ]; then
  node --test --test-reporter=spec "${js_tests[@]}" 2>&1 | tee "$logs/node.log" || status=$?
  p=$(grep -E '^ℹ pass [0-9]+' "$logs/node.log" | tail -1 | awk '{print $3}')
  f=$(grep -E '^ℹ fail [0-9]+' "$logs/node.log" | tail -1 | awk '{print $3}')
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
  [ "$status" -eq 0 ] || failed=$((failed > 0 ? failed : 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
