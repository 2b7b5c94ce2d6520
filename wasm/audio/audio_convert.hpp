// Type conversion shared by the audio module's bindings: an utterance's frames between JS and the
// library (T × bands floats), and the checks of the JS option objects. Nothing here computes.
#pragma once

#include "../convert.hpp"

#include <emscripten/val.h>
#include <nlohmann/json.hpp>

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace apg::wasm::audio {

val strings_to_js(const std::vector<std::string> &items);
val floats_to_js(const std::vector<float> &values);

// T × bands frames as {data, rows: T, cols: bands}.
val frames_to_js(const std::vector<float> &features, int frames);

// Frames from JS: {data, rows, cols} with cols = bands, or an array-like of whole frames, at most
// limits::max_speech_frames of them. The sizes are checked before any number is copied (a hostile
// rows of 1e9 copies nothing): bad_argument (details.name = field…) for a wrong shape or a number
// that is not finite, too_long (details name "frames", length, limit) for too many frames.
std::vector<float> frames_from_js(const val &v, const std::string &field);

// options[name] unless it is absent or undefined.
std::optional<val> option(const val &options, const char *name);

// An options object (undefined: {}) whose keys are all among `known`; bad_argument naming the
// first other key, or the whole value when it is not a plain object.
val checked_options(const val &options, const std::string &who, std::initializer_list<const char *> known);

// A JS number finite as a float32 (ranges are the library's to check, and to name).
float finite_number(const val &v, const std::string &field);

} // namespace apg::wasm::audio
