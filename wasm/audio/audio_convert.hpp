// Type conversion shared by the audio module's bindings: an utterance's frames between JS and the
// library (T × bands floats) and the synthesizer's numbers (the option objects are read as the
// image module's are, by ../lazy_bindings.hpp). Nothing here computes.
#pragma once

#include "../convert.hpp"

#include <emscripten/val.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace apg::wasm::audio {

val floats_to_js(const std::vector<float> &values);

// T × bands frames as {data, rows: T, cols: bands}.
val frames_to_js(const std::vector<float> &features, int frames);

// Frames from JS: {data, rows, cols} with cols = bands, or an array-like of whole frames, at most
// limits::max_speech_frames of them. The sizes are checked before any number is copied (a hostile
// rows of 1e9 copies nothing): bad_argument (details.name = field…) for a wrong shape or a number
// that is not finite, too_long (details name "frames", length, limit) for too many frames.
std::vector<float> frames_from_js(const val &v, const std::string &field);

// A JS number finite as a float32 (ranges are the library's to check, and to name).
float finite_number(const val &v, const std::string &field);

} // namespace apg::wasm::audio
