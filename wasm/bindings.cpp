#include <emscripten/bind.h>
#include "core/kernels.hpp"
std::string isa() { return apg::core::simd_isa(); }
EMSCRIPTEN_BINDINGS(apg) { emscripten::function("simdIsa", &isa); }
