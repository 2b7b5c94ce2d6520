"""Subsets a CJK font to the characters the page can show in Chinese and writes it as woff2.

The characters: every token of the shipped zh checkpoints' vocabularies (their safetensors
metadata) and every CJK character in the page's sources (web/, the fonts folder and the
checkpoints aside), so a Chinese interface string is covered by rerunning this script.
    python3 scripts/make_font.py SOURCE.ttc OUT.woff2 [--face "Noto Sans CJK SC"]
Writes OUT.woff2, its coverage list (OUT without .woff2, plus .txt: the code points it covers,
one "U+XXXX c" a line) and fonts.css beside it: the @font-face whose unicode-range is that list,
so the browser takes the font for those characters only and fetches it only when one is shown.
"""

import argparse
import glob
import json
import os
import re
import struct
import sys

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
# CJK punctuation, Hiragana..CJK Unified (with Extension A), compatibility ideographs, full-width forms
CJK = re.compile("[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


def vocabulary_characters():
    chars = set()
    paths = sorted(glob.glob(os.path.join(ROOT, "web/models/zh-*.safetensors")))
    if not paths:
        sys.exit("make_font: no web/models/zh-*.safetensors to read the vocabulary from")
    for path in paths:
        with open(path, "rb") as f:
            (size,) = struct.unpack("<Q", f.read(8))
            meta = json.loads(f.read(size))["__metadata__"]
        for key in ("source_vocab", "target_vocab"):
            for token in json.loads(meta[key])["tokens"]:
                chars.update(c for c in token if CJK.match(c))
    return chars


def page_characters():
    chars = set()
    web = os.path.join(ROOT, "web")
    for folder, dirs, files in os.walk(web):
        dirs[:] = [d for d in dirs if os.path.join(folder, d) not in (os.path.join(web, "fonts"), os.path.join(web, "models"))]
        for name in files:
            if not name.endswith((".svelte", ".js", ".html", ".css", ".json")):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                chars.update(CJK.findall(f.read()))
    return chars


def pick_face(path, face):
    if not path.lower().endswith((".ttc", ".otc")):
        return TTFont(path)
    for font in TTCollection(path).fonts:
        if font["name"].getDebugName(1) == face:
            return font
    sys.exit(f"make_font: no face '{face}' in {path}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("source")
    parser.add_argument("out")
    parser.add_argument("--face", default="Noto Sans CJK SC")
    args = parser.parse_args()

    wanted = vocabulary_characters() | page_characters()
    font = pick_face(args.source, args.face)
    font.recalcTimestamp = False  # the same inputs make the same bytes
    cmap = font.getBestCmap()
    missing = sorted(c for c in wanted if ord(c) not in cmap)
    if missing:
        sys.exit(f"make_font: {args.face} has no glyph for {''.join(missing)}")

    options = subset.Options()
    options.flavor = "woff2"
    # No "locl": in this face it only swaps in the Japanese, Korean and traditional forms, which the
    # page never asks for, and its closure pulls in ~0.7 extra glyphs per character (a 609-character
    # subset went from 90 KB to 148 KB with it).
    options.layout_features = ["kern", "vert"]
    options.name_IDs = ["*"]  # the copyright and licence records stay with the font
    options.notdef_outline = True
    options.hinting = False
    options.desubroutinize = True  # smaller after brotli for a few hundred glyphs
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in wanted])
    subsetter.subset(font)
    subset.save_font(font, args.out, options)

    covered = sorted(c for c in font.getBestCmap())
    with open(re.sub(r"\.woff2$", "", args.out) + ".txt", "w", encoding="utf-8") as f:
        f.write("".join(f"U+{c:04X} {chr(c)}\n" for c in covered))
    ranges = []
    for c in covered:
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    unicode_range = ", ".join(f"U+{a:X}" if a == b else f"U+{a:X}-{b:X}" for a, b in ranges)
    css = f"""/* Made by scripts/make-font.sh with scripts/make_font.py: do not edit, rerun it. */
/* {args.face} (SIL Open Font License 1.1, see {os.path.basename(args.out)[:-6]}.LICENSE), cut to the
   characters the page shows in Chinese. swap: text shows at once in a fallback font. */
@font-face {{
  font-family: 'APG Chinese';
  src: url('./{os.path.basename(args.out)}') format('woff2');
  font-display: swap;
  unicode-range: {unicode_range};
}}
"""
    with open(os.path.join(os.path.dirname(args.out), "fonts.css"), "w", encoding="utf-8") as f:
        f.write(css)
    print(f"make_font: {len(wanted)} characters, {len(covered)} code points, {os.path.getsize(args.out)} bytes -> {args.out}")


main()
