#!/usr/bin/env bash
# npm run bench: builds the native, wasm and wasm-scalar presets, runs every tests/bench/bench_*
# program of each (native executables directly, wasm .cjs under node) and every
# tests/bench/bench_*.mjs (plain JS), then prints one table per section (tests/bench/report.mjs).
# A new benchmark is a new bench_*.cpp or bench_*.mjs printing the JSON lines of bench.hpp.
# bench_peak measures each build's multiply–add peak, the denominator of the "% peak" columns.
# The machine's load (uptime) at the start and the end closes the report.
set -euo pipefail
cd "$(dirname "$0")/.."
presets=(native wasm wasm-scalar)
# The benchmarks are left out of a plain build (the test builds): the target `benchmarks` has them.
for preset in "${presets[@]}"; do
  bash scripts/build.sh "$preset" >/dev/null
  cmake --build --preset "$preset" --target benchmarks >/dev/null
done

out=build/bench
rm -rf "$out"
mkdir -p "$out"
# The machine's load beside the figures: on a shared machine they are only as good as it was quiet.
echo "load at start: $(uptime)" >"$out/load.txt"
for preset in "${presets[@]}"; do
  for src in tests/bench/bench_*.cpp; do
    name=$(basename "$src" .cpp)
    echo "bench: $preset $name" >&2
    if [ "$preset" = native ]; then
      "build/$preset/$name" "$preset" >"$out/$preset-$name.jsonl"
    else
      node "build/$preset/$name.cjs" "$preset" >"$out/$preset-$name.jsonl"
    fi
  done
done
# The page benchmark measures the built page.
node_modules/.bin/vite build --logLevel warn
for src in tests/bench/bench_*.mjs; do
  name=$(basename "$src" .mjs)
  echo "bench: js $name" >&2
  node "$src" js >"$out/js-$name.jsonl"
done

# Proof that the wasm build runs vector code and the scalar build does not.
for preset in wasm wasm-scalar; do
  for src in tests/bench/bench_*.cpp; do
    name=$(basename "$src" .cpp)
    count=$(wasm-dis "build/$preset/$name.wasm" 2>/dev/null | grep -c 'f32x4\.' || true)
    echo "simd check: build/$preset/$name.wasm has $count f32x4 instructions"
  done
done | tee "$out/simd-check.txt"

for wasm in build/web/assets/*.wasm; do
  note='page budget 400 KB'
  case "$wasm" in */audio-*) note='the audio module, loaded when Listen opens' ;; esac
  echo "size: $wasm is $(stat -c %s "$wasm") bytes ($note)"
done | tee -a "$out/simd-check.txt"

echo "load at end: $(uptime)" >>"$out/load.txt"
node tests/bench/report.mjs "$out"/*.jsonl | tee "$out/report.txt"
tee -a "$out/report.txt" <"$out/load.txt"
