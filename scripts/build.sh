#!/usr/bin/env bash
# Configures and builds the named CMake presets: native, native-asan, native-arm64, wasm,
# wasm-scalar. A build folder is configured once, and afresh when CMakePresets.json or a toolchain
# file under cmake/ is newer than its cache (CMake reads a toolchain only on the first configure).
set -euo pipefail
cd "$(dirname "$0")/.."
for preset in "$@"; do
  cache="build/$preset/CMakeCache.txt"
  if [ ! -f "$cache" ]; then
    cmake --preset "$preset" >/dev/null
  elif [ -n "$(find CMakePresets.json cmake -newer "$cache" -print -quit)" ]; then
    cmake --preset "$preset" --fresh >/dev/null
  fi
  echo "build: $preset"
  cmake --build --preset "$preset" 2>&1 | sed -E '/^\[ *[0-9]+%\]|^Consolidate compiler|^-- /d'
done
