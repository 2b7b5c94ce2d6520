#!/usr/bin/env bash
# npm test: every suite in order; stops at the first red one. The last line counts every test run,
# taken from the runners' machine-readable output (the JUnit XML of ctest and of node's test runner,
# scripts/junit-count.mjs); a check with one verdict (lint, type check, fuzz smoke) is one test.
#   1. lint: clang-format and Prettier (npm run lint), and beside it
#   2. the type check: svelte-check (npm run check), when package.json defines the script
#   3. the native doctest suites (ctest), one program per folder of tests/: here only those the
#      sanitized run leaves out (training, the CLI's smoke), in release; every other suite runs
#   4. under ASan + UBSan (CMakePresets.json, APG_TEST_SUITES of native-asan: kernels, layers,
#      models, IO and tokenizers, sessions, traces, task data), and 5. compiled to wasm and run
#      under node where SIMD128 and the wasm target add something (kernels against their scalar
#      reference, IO: every shipped model decoded in wasm against the native golden numbers).
#      Each suite runs natively once.
#   6. the fuzz targets for a fixed number of executions each (scripts/fuzz.sh smoke), built by
#      native-asan beside its suites (clang, one instrumented library for both)
#   7. the JS binding tests, the page modules' unit tests and the browser tests in headless
#      Chromium (node --test): every tests/{js,web,e2e}/*.test.mjs, so a new file needs no change here
# A build that fails counts as one failed test.
#
# bash scripts/test.sh quick (npm run test:quick) is the inner loop's tier: the native suites, the
# node unit tests (tests/js, tests/web) and one browser file (tests/e2e/csp.test.mjs: every text
# view loads and runs the engine with no console message).
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
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
# A phase's heading, with the seconds since the start: where a run's time went.
phase() { echo "== $* (at ${SECONDS} s)"; }

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
  local name=$1 status=0
  shift
  phase "$name"
  "$@" || status=$?
  verdict "$name" "$status"
  stop_if_red
}
# Counts a check's exit status as its one test.
verdict() {
  if [ "$2" -eq 0 ]; then
    passed=$((passed + 1))
  else
    echo "$1: failed"
    failed=$((failed + 1))
  fi
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

# Builds a preset and runs its ctest suites; with a label pattern and targets, builds only those
# targets and runs the tests whose label (suite) matches.
ctest_preset() {
  local preset=$1 labels=${2:-}
  local build=(bash scripts/build.sh "$preset") only=()
  if [ -n "$labels" ]; then
    build+=(--target "${@:3}")
    only=(-L "$labels")
  fi
  phase "build: $preset"
  step "build $preset" "${build[@]}"
  phase "ctest: $preset"
  local junit="$PWD/$logs/ctest-$preset.xml"
  ctest --preset "$preset" "${only[@]}" --output-junit "$junit" >"$logs/ctest-$preset.log" 2>&1
  local status=$?
  grep -E 'tests passed|tests failed|\*\*\*Failed|Failed |Not Run' "$logs/ctest-$preset.log"
  add_junit "$status" "$junit"
  [ "$failed" -eq 0 ] || echo "(the whole output: $logs/ctest-$preset.log)"
  stop_if_red
}

# Runs node's test runner on the files given and counts their tests.
node_tests() {
  [ $# -gt 0 ] || return 0
  # The spec reporter for the reader, JUnit XML for the count. Three files at a time on two cores:
  # a browser file waits on its page for a quarter of its time, and node's default (one less than
  # the cores) would run them one by one (three: 430 s, two: 458 s). Each browser file has one
  # server and one Chromium of its own (tests/e2e/fixture.mjs). A file still running after 10 minutes is
  # stopped and counts as failed, so a hung wait shows as that file's failure inside CI's 30.
  node --test --test-concurrency=3 --test-timeout=600000 --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=junit --test-reporter-destination="$logs/node.xml" "$@" 2>&1 |
    tee "$logs/node.log"
  add_junit "${PIPESTATUS[0]}" "$logs/node.xml"
}

if [ "$mode" = quick ]; then
  ctest_preset native
  step "build wasm" bash scripts/build.sh wasm
  phase "web build"
  step "web build" node_modules/.bin/vite build --logLevel warn
  phase "node --test (bindings, page modules and one browser file)"
  mapfile -t js_tests < <(find tests/js tests/web -name '*.test.mjs' 2>/dev/null | sort)
  node_tests "${js_tests[@]}" tests/e2e/csp.test.mjs
  finish
fi

# Lint and the type check read the sources and use about a core each: they run side by side, each
# into its log, shown when both are done. (tsc ran after svelte-check until it was seen to add
# nothing: svelte-check reports the same diagnostics in the .js and .d.ts files of tsconfig.json.)
phase "lint and type check (svelte-check), side by side"
npm run --silent lint >"$logs/lint.log" 2>&1 &
lint_pid=$!
if has_npm_script check; then
  types_status=0
  npm run --silent check >"$logs/types.log" 2>&1 || types_status=$?
  cat "$logs/types.log"
  verdict "type check" "$types_status"
fi
lint_status=0
wait "$lint_pid" || lint_status=$?
cat "$logs/lint.log"
verdict lint "$lint_status"
stop_if_red

# The suites of tests/ that native-asan leaves out, and their programs (apg for the CLI's smoke,
# a test with no program of its own): a new folder runs somewhere without a change here.
sanitized=$(node -e 'const p = JSON.parse(require("fs").readFileSync("CMakePresets.json", "utf8"));
  console.log(p.configurePresets.find((c) => c.name === "native-asan").cacheVariables.APG_TEST_SUITES)')
unsanitized=(cli)
native_targets=(apg_cli)
for folder in tests/*/; do
  suite=$(basename "$folder")
  case ";$sanitized;bench;fuzz;" in *";$suite;"*) continue ;; esac
  compgen -G "$folder*.cpp" >/dev/null || continue
  unsanitized+=("$suite")
  native_targets+=("apg_tests_$suite")
done
ctest_preset native "^($(IFS='|'; echo "${unsanitized[*]}"))\$" "${native_targets[@]}"
ctest_preset native-asan

# The wasm suites are one doctest program, run in one node process with its JUnit XML in the logs:
# ctest's process per test compiled the program's 1.7 MB .wasm for each (13 s against 5).
wasm_doctest() {
  phase "build: wasm"
  step "build wasm" bash scripts/build.sh wasm
  phase "doctest: wasm (one node process)"
  local junit="$PWD/$logs/doctest-wasm.xml" status=0 passed_before=$passed failed_before=$failed
  (cd build/wasm && node apg_tests.cjs --reporters=junit --out="$junit") >"$logs/doctest-wasm.log" 2>&1 || status=$?
  add_junit "$status" "$junit"
  echo "wasm: $((passed - passed_before)) test cases passed, $((failed - failed_before)) failed"
  if [ "$failed" -ne 0 ]; then
    grep -B1 -A6 '<failure' "$junit" | head -80
    cat "$logs/doctest-wasm.log"
  fi
  stop_if_red
}
wasm_doctest

# the targets native-asan built with its suites
check "fuzz smoke" env FUZZ_PRESET=native-asan bash scripts/fuzz.sh smoke

phase "web build"
step "web build" node_modules/.bin/vite build --logLevel warn

phase "node --test (bindings, page modules and browser)"
mapfile -t js_tests < <(find tests/js tests/web tests/e2e -name '*.test.mjs' 2>/dev/null | sort)
node_tests "${js_tests[@]}"
finish
