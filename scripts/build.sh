#!/usr/bin/env bash
# Configures (once) and builds the named CMake presets: native, native-asan, wasm, wasm-scalar.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs   # Debian's acorn for emscripten's -O links (TOOLCHAIN.md #1)
for preset in "$@"; do
  if [ ! -f "build/$preset/CMakeCache.txt" ]; then
    cmake --preset "$preset" >/dev/null
  fi
  echo "build: $preset"
  cmake --build --preset "$preset" 2>&1 | sed -E '/^\[ *[0-9]+%\]|^Consolidate compiler|^-- /d'
done
