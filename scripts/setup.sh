#!/usr/bin/env bash
# Installs what is missing and nothing else: Debian packages with apt-get, web packages with npm ci.
# Quiet and quick when everything is present. Downloads nothing from anywhere else.
#   bash scripts/setup.sh         what npm start and npm test need
#   bash scripts/setup.sh browser also the whole Chromium, which the benchmarks and the screenshot
#                                 scripts run (npm run bench asks for it); the browser tests run
#                                 its headless shell alone
#   bash scripts/setup.sh arm64   also the aarch64 cross compiler and qemu (the native-arm64 preset)
#   bash scripts/setup.sh font    also what remaking the Chinese web font needs (scripts/make-font.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(emscripten libeigen3-dev xtensor-dev doctest-dev nlohmann-json3-dev chromium-headless-shell ccache cmake ninja-build lld g++ clang-format
  clang libclang-rt-14-dev # clang and its libFuzzer: the fuzz targets (npm test runs a smoke of them)
  python3-numpy # runs the "reproduce this step" scripts in npm test (tests/decode/test_reproduce.cpp)
  fonts-wqy-zenhei) # Chinese beyond the page's own font (web/fonts), e.g. own training pairs, in headless Chromium
for extra in "$@"; do
  case "$extra" in
    # 285 MB that npm test never starts: ~10 s of a fresh machine's install
    browser) packages+=(chromium) ;;
    arm64) packages+=(g++-aarch64-linux-gnu qemu-user) ;;
    font) packages+=(fonts-noto-cjk python3-fonttools python3-brotli) ;;
    *) echo "setup: unknown extra '$extra' (known: browser, arm64, font)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm ci only when node_modules is missing or older than the lock file. A symlinked node_modules
# (a git worktree borrowing another checkout's) is left alone: npm ci would empty the original.
if [ -L node_modules ]; then
  :
elif [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
