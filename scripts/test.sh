#!/usr/bin/env bash
# npm test: every suite in order; stops at the first red one. The last line counts every test run,
# taken from the runners' machine-readable output (the JUnit XML of ctest and of node's test runner,
# scripts/junit-count.mjs); a check with one verdict (lint, type check, fuzz smoke) is one test.
#   1. lint: clang-format and Prettier (npm run lint)
#   2. type checks: svelte-check and tsc (npm run check), when package.json defines the script
#   3. native doctest suite (ctest)        4. the same suite under ASan + UBSan
#   5. the same suite compiled to wasm and run under node (ctest)
#   6. the fuzz targets for a fixed number of executions each (scripts/fuzz.sh smoke), when present
#   7. JS binding tests, the page modules' unit tests and the browser tests in headless Chromium (node --test)
# A build that fails counts as one failed test.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=build/test-logs
mkdir -p "$logs"
rm -f "$logs"/*.xml
passed=0
failed=0
skipped=0

finish() {
  echo "test: ${SECONDS} s"
  local line="$passed passed, $failed failed"
  [ "$skipped" -eq 0 ] || line+=", $skipped skipped"
  echo "$line"
  [ "$failed" -eq 0 ]
  exit
}
stop_if_red() { [ "$failed" -eq 0 ] || finish; }

# A step that must work for the suites after it (a build): a failure is one failed test.
step() {
  local name=$1
  shift
  if ! "$@"; then
    echo "$name: failed"
    failed=$((failed + 1))
    finish
  fi
}

# A check with one verdict: one passed or one failed test.
check() {
  local name=$1
  shift
  echo "== $name"
  if "$@"; then
    passed=$((passed + 1))
  else
    echo "$name: failed"
    failed=$((failed + 1))
  fi
  stop_if_red
}

# Adds the test cases of a runner's JUnit files. A runner that exited non-zero with no failed case
# in its files still counts one failure: ctest files a test it could not start as skipped, and
# node 20's JUnit reporter drops the failure of a test that throws after its subtests passed.
add_junit() {
  local status=$1 p f s
  shift
  read -r p f s < <(node scripts/junit-count.mjs "$@")
  if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  passed=$((passed + p))
  failed=$((failed + f))
  skipped=$((skipped + s))
}

has_npm_script() {
  node -e 'process.exit(JSON.parse(require("fs").readFileSync("package.json", "utf8")).scripts?.[process.argv[1]] ? 0 : 1)' "$1"
}

check lint npm run --silent lint
if has_npm_script check; then
  check "type check (svelte-check, tsc)" npm run --silent check
fi

for preset in native native-asan wasm; do
  step "build $preset" bash scripts/build.sh "$preset"
  echo "== ctest: $preset"
  junit="$PWD/$logs/ctest-$preset.xml"
  ctest --preset "$preset" --output-junit "$junit" >"$logs/ctest-$preset.log" 2>&1
  status=$?
  grep -E 'tests passed|tests failed|\*\*\*Failed|Failed |Not Run' "$logs/ctest-$preset.log"
  add_junit "$status" "$junit"
  [ "$failed" -eq 0 ] || echo "(the whole output: $logs/ctest-$preset.log)"
  stop_if_red
done

if [ -f scripts/fuzz.sh ]; then
  check "fuzz smoke" bash scripts/fuzz.sh smoke
fi

echo "== web build"
step "web build" node_modules/.bin/vite build --logLevel warn

echo "== node --test (bindings, page modules and browser)"
mapfile -t js_tests < <(find tests/js tests/web tests/e2e -name '*.test.mjs' 2>/dev/null | sort)
if [ ${#js_tests[@]} -gt 0 ]; then
  # The spec reporter for the reader, JUnit XML for the count. Two files at a time: node's default
  # (one less than the cores) runs them one by one on two cores. Each file has its own server on a
  # free port, its own browser and profile, and temporary files of its own. A file still running
  # after 10 minutes (the longest takes under 3 here) is stopped and counts as failed, so a hung
  # wait shows as that file's failure well inside CI's 30 minutes instead of running into them.
  node --test --test-concurrency=2 --test-timeout=600000 --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=junit --test-reporter-destination="$logs/node.xml" "${js_tests[@]}" 2>&1 |
    tee "$logs/node.log"
  add_junit "${PIPESTATUS[0]}" "$logs/node.xml"
fi
finish
