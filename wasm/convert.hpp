// Type conversion between JS values and the library's Eigen types. Nothing here computes.
//
// JS side, accepted as input:
//   vector  number[] | Float32Array | Float64Array (any array-like of numbers)
//   matrix  rows as vectors (number[][]), or {data, rows, cols} with data row-major
// Every value arrives as a plain copy (see guard_entry in js_error.hpp), so reading it runs no
// page code. Bad values throw InputError with code bad_argument and details.name.
// JS side, produced as output (always copies, never views of the wasm memory, which can move):
//   vector  Float32Array
//   matrix  {data: Float32Array (row-major), rows, cols}
#pragma once

#include "core/error.hpp"
#include "core/limits.hpp"
#include "core/number_text.hpp"
#include "core/tensor.hpp"

#include <emscripten/val.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace apg::wasm {

using emscripten::val;

inline constexpr std::int64_t kMaxVectorLength = limits::max_vector_length;

// "raw_scores" → "rawScores": trace names as JS property names.
inline std::string camel_case(std::string_view name) {
    std::string out;
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (name[i] == '_' && i + 1 < name.size())
            out += static_cast<char>(std::toupper(static_cast<unsigned char>(name[++i])));
        else
            out += name[i];
    }
    return out;
}

inline bool is_array_like(const val &v) { return v.isArray() || val::global("ArrayBuffer").call<bool>("isView", v); }

std::string describe(const val &v);

// A text a binding reads, and how much of it: at most `max` code points (or UTF-8 bytes when
// `bytes`), refused past that with `code` and the message "<who> has N characters (bytes), at most
// M are accepted" (details name, length, limit).
struct TextLimit {
    std::int64_t max;
    std::string who; // what the message calls the text ("input", "pairs: the text")
    bool bytes = false;
    ErrorCode code = ErrorCode::too_long;
};

// The JS string v as UTF-8, measured before it is copied: its code points and UTF-8 bytes are
// counted in JS, the limit is checked, and only then is it copied once into memory the engine
// allocated itself (embind's own conversion does not check its allocation). bad_argument naming
// `field` when v is not a string.
std::string text_from_js(const val &v, const std::string &field, const TextLimit &limit);

// A name (a score function, a task, a record kind): a text of at most 64 code points.
std::string name_from_js(const val &v, const std::string &field);

// The own enumerable keys of an object, each read as a name: a key longer than 64 code points is
// cut there and ends in "…" (no option's name is that long, so it is refused as unknown, by name).
std::vector<std::string> own_keys(const val &object);

// A bad JS value: code bad_argument, with the name of the input it came in.
[[noreturn]] void bad_argument(const std::string &field, const std::string &message);
// The same with details.limit, the largest value accepted.
[[noreturn]] void bad_argument(const std::string &field, const std::string &message, std::int64_t limit);

// A JS number that must be a whole number from lo to hi; checked before any cast, which would be
// undefined for NaN or a number out of range.
std::int64_t whole_number(const val &v, const std::string &field, std::int64_t lo, std::int64_t hi);

// A softmax temperature within [limits::min_temperature, limits::max_temperature] as the float the
// engine uses. bad_argument, the number given shown exactly, with details.name `field` for a value
// that is not a number or that no float holds (NaN, ±Infinity, past float32), and "temperature"
// (as the engine's own check names it) for a float outside the range.
float to_temperature(const val &v, const std::string &field = "options.temperature");

// The same with code limit_exceeded (a size the engine will not take on).
[[noreturn]] void limit_exceeded(const std::string &field, const std::string &message, std::int64_t limit);

// Copies the elements of a JS array or typed array into out (n floats); the index of the first
// element that is not a number, or not finite as a float32, or -1.
int copy_numbers(const val &v, float *out, int n);

// Every element must be a finite number; `field` names the input in the message ("query", "keys[2]").
Vec to_vec(const val &v, const std::string &field);

Mat to_mat(const val &v, const std::string &field);

// 1 = attend, 0 = masked out; any JS value, judged by its truthiness.
std::vector<std::uint8_t> to_mask(const val &v, const std::string &field);

// A JS array holding to_item(item) for each item, in order: every list a binding returns (tokens,
// buckets, held-out pairs, names) is built this one way.
template <class Range, class F> val array_of(const Range &items, F &&to_item) {
    val out = val::array();
    for (const auto &item : items) out.call<void>("push", to_item(item));
    return out;
}

val to_js(const float *data, Eigen::Index size);
inline val to_js(const Vec &v) { return to_js(v.data(), v.size()); }
val to_js(const Mat &m);

} // namespace apg::wasm
