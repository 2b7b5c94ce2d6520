#!/usr/bin/env bash
# npm run fuzz: builds the libFuzzer targets (the fuzz preset, clang + ASan/UBSan), makes their
# seed corpora from the shipped models and examples, and runs each target.
#   bash scripts/fuzz.sh [SECONDS]   each target for SECONDS (default 60), its corpus kept in
#                                    build/fuzz/corpus/<target> and grown run after run
#   bash scripts/fuzz.sh smoke       each target for a fixed, small number of inputs (the seeds
#                                    and FUZZ_SMOKE_RUNS inputs in all, default 1000; 125 for the
#                                    targets whose every input trains, captions or decodes): a
#                                    quick check that the seeds pass and a first look around them
# FUZZ_PRESET names the build the targets come from: `fuzz` (optimised, for long runs) unless told;
# npm test's smoke takes them from `native-asan`, which builds them beside its sanitized suites
# so that a test run compiles the instrumented library once.
# Exits non-zero when a target finds a crash; the input is saved under build/fuzz/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-60}
preset=${FUZZ_PRESET:-fuzz}
bash scripts/build.sh "$preset"
bash tests/fuzz/make_seeds.sh build/fuzz/seeds "build/$preset" >/dev/null
mkdir -p build/fuzz/artifacts
export ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=0:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
# One target's run into build/fuzz/<target>.log; the verdict is printed when all are done.
run_target() {
  local target=$1
  local args=(-artifact_prefix="build/fuzz/artifacts/$target-" -rss_limit_mb=2048 -timeout=20)
  [ "$target" = metadata ] && args+=(-dict=tests/fuzz/json.dict)
  [ "$target" = checkpoint ] && args+=(-max_len=1048576)
  # room for raw frames past the limit of 480 (24 floats each)
  [ "$target" = speech ] && args+=(-dict=tests/fuzz/speech.dict -max_len=49152)
  [ "$target" = whatif ] && args+=(-max_len=400) # up to 64 operations
  [ "$target" = pairs ] && args+=(-max_len=4096) # a header and a few dozen pairs: a run per input
  [ "$target" = ppm ] && args+=(-max_len=16384)
  if [ "$mode" = smoke ]; then
    # Every seed (regenerated above, so every smoke run checks the same inputs), then mutations
    # up to the count. pairs trains a run, ppm captions a picture and checkpoint decodes a model
    # per input, 15-80 ms each under the sanitizers; the long search is npm run fuzz's. (At 2,000
    # and 500 inputs the smoke took 76 s of a fresh npm test's 23 minutes; now about half.)
    local runs=${FUZZ_SMOKE_RUNS:-1000}
    case "$target" in pairs | ppm | checkpoint) runs=$((runs / 8)) ;; esac
    args+=(-runs="$runs" -seed=1 build/fuzz/seeds/$target)
  else
    mkdir -p "build/fuzz/corpus/$target"
    args+=(-max_total_time="$mode" -print_final_stats=1 "build/fuzz/corpus/$target" "build/fuzz/seeds/$target")
  fi
  local code=0
  "build/$preset/fuzz_$target" "${args[@]}" >"build/fuzz/$target.log" 2>&1 || code=$?
  echo "$code" >"build/fuzz/$target.status"
}

# A target runs on one core: as many run at once as there are cores (the smoke's seven took two
# minutes one after another on two cores, one of them idle).
targets=(checkpoint tokenizer metadata speech whatif pairs ppm)
jobs=$(nproc 2>/dev/null || echo 2)
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  rm -f "build/fuzz/$target.status"
  run_target "$target" &
done
wait
for target in "${targets[@]}"; do
  echo "== fuzz_$target ($mode)"
  log="build/fuzz/$target.log"
  if [ "$(cat "build/fuzz/$target.status" 2>/dev/null)" = 0 ]; then
    grep -E '^(Done|#[0-9]+\s+DONE)|stat::number_of_executed_units' "$log" | tail -2 || true
  else
    status=1
    echo "fuzz_$target FAILED (log: $log)"
    grep -E 'ERROR|SUMMARY|fuzz_[a-z]+: |Test unit written' "$log" | head -20 || tail -20 "$log"
  fi
done
exit "$status"
