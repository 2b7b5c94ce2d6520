// A decoding step as one JS object (the StepRecord of playground.d.ts), laid out by the field
// table of decode/record_schema.hpp. It is built on every step the page takes, so it lives apart
// from the other bindings: this file is compiled for speed, model_bindings.cpp for size.
#pragma once

#include "decode/session.hpp"

#include <emscripten/val.h>

namespace apg::wasm {

// vocab: the target vocabulary as a JS array (id → token), for the token names.
emscripten::val step_to_js(const emscripten::val &vocab, const decode::SessionStep &s, int index);

} // namespace apg::wasm
