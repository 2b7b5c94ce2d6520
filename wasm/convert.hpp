// Type conversion between JS values and the library's Eigen types. Nothing here computes.
//
// JS side, accepted as input:
//   vector  number[] | Float32Array | Float64Array (any array-like of numbers)
//   matrix  rows as vectors (number[][]), or {data, rows, cols} with data row-major
// JS side, produced as output (always copies, never views of the wasm memory, TOOLCHAIN.md #9):
//   vector  Float32Array
//   matrix  {data: Float32Array (row-major), rows, cols}
#pragma once

#include "core/tensor.hpp"

#include <emscripten/val.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace apg::wasm {

using emscripten::val;

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

inline std::string describe(const val &v) {
    if (v.isUndefined()) return "nothing";
    if (v.isNull()) return "null";
    return "a " + v.typeOf().as<std::string>();
}

// Every element must be a finite number; `field` names the input in the message ("query", "keys[2]").
inline Vec to_vec(const val &v, const std::string &field) {
    if (!is_array_like(v)) throw std::invalid_argument(field + ": expected an array of numbers, got " + describe(v));
    // Number() on every element; "abc" becomes NaN and is reported below.
    const std::vector<float> numbers = emscripten::convertJSArrayToNumberVector<float>(v);
    Vec out(static_cast<Eigen::Index>(numbers.size()));
    for (std::size_t i = 0; i < numbers.size(); ++i) {
        if (!std::isfinite(numbers[i]))
            throw std::invalid_argument(field + "[" + std::to_string(i) + "] is not a finite number");
        out[static_cast<Eigen::Index>(i)] = numbers[i];
    }
    return out;
}

inline Mat to_mat(const val &v, const std::string &field) {
    if (v.isArray()) {
        const auto rows = v["length"].as<unsigned>();
        Mat out;
        for (unsigned r = 0; r < rows; ++r) {
            const std::string row_field = field + "[" + std::to_string(r) + "]";
            const Vec row = to_vec(v[r], row_field);
            if (r == 0) out.resize(rows, row.size());
            if (row.size() != out.cols())
                throw std::invalid_argument(row_field + " has " + std::to_string(row.size()) + " numbers but " + field +
                                            "[0] has " + std::to_string(out.cols()));
            out.row(r) = row.transpose();
        }
        return out;
    }
    if (v.typeOf().as<std::string>() == "object" && !v.isNull() && v.hasOwnProperty("data")) {
        const auto rows = v["rows"].isNumber() ? v["rows"].as<int>() : -1;
        const auto cols = v["cols"].isNumber() ? v["cols"].as<int>() : -1;
        if (rows < 0 || cols < 0)
            throw std::invalid_argument(field + ": {data, rows, cols} needs whole numbers rows and cols");
        const Vec data = to_vec(v["data"], field + ".data");
        if (data.size() != Eigen::Index{rows} * cols)
            throw std::invalid_argument(field + ".data has " + std::to_string(data.size()) +
                                        " numbers, rows × cols = " + std::to_string(rows) + " × " +
                                        std::to_string(cols));
        return Eigen::Map<const Mat>(data.data(), rows, cols);
    }
    throw std::invalid_argument(field + ": expected rows of numbers or {data, rows, cols}, got " + describe(v));
}

// 1 = attend, 0 = masked out; any JS value, judged by its truthiness.
inline std::vector<std::uint8_t> to_mask(const val &v, const std::string &field) {
    if (!v.isArray()) throw std::invalid_argument(field + ": expected an array of 0/1 or booleans, got " + describe(v));
    const auto n = v["length"].as<unsigned>();
    std::vector<std::uint8_t> out(n);
    for (unsigned i = 0; i < n; ++i) out[i] = v[i].as<bool>() ? 1 : 0;
    return out;
}

inline val to_js(const float *data, Eigen::Index size) {
    // new Float32Array(view) copies out of the wasm memory.
    return val::global("Float32Array").new_(emscripten::typed_memory_view(static_cast<std::size_t>(size), data));
}
inline val to_js(const Vec &v) { return to_js(v.data(), v.size()); }
inline val to_js(const Mat &m) {
    val out = val::object();
    out.set("data", to_js(m.data(), m.size()));
    out.set("rows", static_cast<int>(m.rows()));
    out.set("cols", static_cast<int>(m.cols()));
    return out;
}

} // namespace apg::wasm
