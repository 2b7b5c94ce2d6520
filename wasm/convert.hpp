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

// A number for a message: "NaN", "Infinity", "1e+300", "2.5".
std::string number_text(double d);

// A bad JS value: code bad_argument, with the name of the input it came in.
[[noreturn]] void bad_argument(const std::string &field, const std::string &message);
// The same with details.limit, the largest value accepted.
[[noreturn]] void bad_argument(const std::string &field, const std::string &message, std::int64_t limit);

// A JS number that must be a whole number from lo to hi; checked before any cast, which would be
// undefined for NaN or a number out of range.
std::int64_t whole_number(const val &v, const std::string &field, std::int64_t lo, std::int64_t hi);

// A softmax temperature: a number finite as a float32 (the library checks that it is positive).
float to_temperature(const val &v);

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

val to_js(const float *data, Eigen::Index size);
inline val to_js(const Vec &v) { return to_js(v.data(), v.size()); }
val to_js(const Mat &m);

} // namespace apg::wasm
