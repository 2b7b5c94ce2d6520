#!/usr/bin/env bash
# Remakes the page's Chinese font, web/fonts/noto-sans-sc-subset.woff2 (committed: `npm start`
# needs neither this script nor its packages), from Debian's Noto Sans CJK SC (OFL-1.1), cut to
# the zh vocabulary and the Chinese strings in web/. Rerun it when either gains a character:
#   bash scripts/make-font.sh
# It installs what it needs (bash scripts/setup.sh font: fonts-noto-cjk, python3-fonttools,
# python3-brotli) and rewrites the font, its coverage list (.txt) and web/fonts/fonts.css (its
# @font-face, whose unicode-range is the list).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh font
source=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
out=web/fonts/noto-sans-sc-subset.woff2
# Debian's python3, which has the python3-* packages (a python3 earlier on PATH may not)
/usr/bin/python3 scripts/make_font.py "$source" "$out" --face "Noto Sans CJK SC"
# The licence beside the font: the font's own copyright notice and the SIL OFL 1.1 text from the
# package's copyright file (its "License: SIL-1.1" stanza, de-indented).
{
  /usr/bin/python3 -c 'import sys; from fontTools.ttLib import TTFont; print(TTFont(sys.argv[1])["name"].getDebugName(0))' "$out"
  echo "The subset (a Modified Version under the licence) was made by scripts/make-font.sh."
  echo
  awk '/^License: SIL-1.1$/ && ++n == 2 {on = 1; next} on && /^[^ ]/ {exit} on' /usr/share/doc/fonts-noto-cjk/copyright |
    sed -e 's/^ //' -e 's/^\.$//'
} >web/fonts/noto-sans-sc-subset.LICENSE
# the repository's formatting (scripts/lint.sh checks it)
node_modules/.bin/prettier --write --log-level warn web/fonts/fonts.css
