// The limits the bindings hold JS values to, in one place, and what limits() reports to the page
// beside each model's own (Model.info().limits). The library's checks stay the library's: these
// only bound what a call may ask for before the library sees it.
#pragma once

#include <cstdint>

namespace apg::wasm::limits {

// Bytes of a checkpoint given to Model.load (refused before the wasm heap grows for it).
inline constexpr std::int64_t max_file_bytes = 64ll * 1024 * 1024;
// Numbers in one vector or matrix passed to attend() or weightDifference().
inline constexpr std::int64_t max_vector_length = 1 << 20;
// dq, dk and da of the sandbox's default parameters.
inline constexpr std::int64_t max_params_size = 4096;
// DecodeOptions.maxSteps (a model's default is its maxTargetLen + 1).
inline constexpr std::int64_t max_steps = 4096;
// Session.beam(width).
inline constexpr std::int64_t max_beam_width = 16;
// How far the copy of a call's arguments goes: elements of one array or keys of one object, and
// nesting (a matrix inside the options is 4 deep).
inline constexpr std::int64_t max_argument_elements = 1 << 24;
inline constexpr std::int64_t max_argument_depth = 8;

} // namespace apg::wasm::limits
