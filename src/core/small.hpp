// APG_SMALL: a function compiled for size (clang's minsize) and kept out of line, for code in a
// file that stays at -O3 but runs once per model or per input, or only on an error path (names,
// set-up, shape checks and their messages), and for location attention's own small loops: the
// page's .wasm has a size budget, and code that runs on every step stays fast around them. (Whole
// files that run once are compiled for size by folder and name instead: CMakeLists.txt.)
#pragma once

#if defined(__clang__)
#define APG_SMALL [[clang::minsize, gnu::noinline]]
#else
#define APG_SMALL [[gnu::noinline]]
#endif
