#include "convert.hpp"

#include <emscripten/emscripten.h>

#include <cmath>
#include <cstdio>

// clang-format off
EM_JS(int, apg_copy_numbers_js, (emscripten::EM_VAL handle, float *out, int n), {
    const a = Emval.toValue(handle);
    const at = out >> 2;
    for (let i = 0; i < n; i++) {
        const x = a[i];
        if (typeof x !== 'number' || !isFinite(Math.fround(x))) return i;
        HEAPF32[at + i] = x;
    }
    return -1;
});

// A string's code points and UTF-8 bytes, counted without copying it (lone surrogates, which the
// entry guard has replaced already, would count as U+FFFD: three bytes).
EM_JS(void, apg_measure_text_js, (emscripten::EM_VAL handle, double *out), {
    const s = Emval.toValue(handle);
    let points = 0, bytes = 0;
    for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        points++;
        if (c < 0x80) bytes += 1;
        else if (c < 0x800) bytes += 2;
        else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
            bytes += 4;
            i++;
        } else bytes += 3;
    }
    HEAPF64[out >> 3] = points;
    HEAPF64[(out >> 3) + 1] = bytes;
});

// The string as UTF-8 into size bytes at out (measured by apg_measure_text_js).
EM_JS(void, apg_copy_text_js, (emscripten::EM_VAL handle, char *out, int size), {
    new TextEncoder().encodeInto(Emval.toValue(handle), HEAPU8.subarray(out, out + size));
});

// Object.keys, a key past 64 UTF-16 units cut there and marked.
EM_JS(emscripten::EM_VAL, apg_own_keys_js, (emscripten::EM_VAL handle), {
    const keys = Object.keys(Emval.toValue(handle));
    for (let i = 0; i < keys.length; i++) if (keys[i].length > 64) keys[i] = keys[i].slice(0, 64) + '\u2026';
    return Emval.toHandle(keys);
});
// clang-format on

namespace apg::wasm {

std::string describe(const val &v) {
    if (v.isUndefined()) return "nothing";
    if (v.isNull()) return "null";
    return "a " + v.typeOf().as<std::string>();
}

std::string text_from_js(const val &v, const std::string &field, const TextLimit &limit) {
    if (!v.isString()) bad_argument(field, ": expected a string, got " + describe(v));
    double size[2]; // code points, UTF-8 bytes
    apg_measure_text_js(v.as_handle(), size);
    const double length = size[limit.bytes ? 1 : 0];
    if (length > static_cast<double>(limit.max))
        throw InputError(limit.code,
                         limit.who + " has " + number_text(length) + (limit.bytes ? " bytes" : " characters") +
                             ", at most " + std::to_string(limit.max) + " are accepted",
                         {{"name", field},
                          {"length", static_cast<std::int64_t>(length)},
                          {"limit", limit.max},
                          {"unit", std::string(limit.bytes ? "bytes" : "characters")}});
    std::string out(static_cast<std::size_t>(size[1]), '\0');
    apg_copy_text_js(v.as_handle(), out.data(), static_cast<int>(out.size()));
    return out;
}

std::string name_from_js(const val &v, const std::string &field) { return text_from_js(v, field, {64, field}); }

std::vector<std::string> own_keys(const val &object) {
    const val keys = val::take_ownership(apg_own_keys_js(object.as_handle()));
    const auto count = static_cast<unsigned>(keys["length"].as<double>());
    std::vector<std::string> out;
    out.reserve(count);
    for (unsigned i = 0; i < count; ++i) out.push_back(name_from_js(keys[i], "key"));
    return out;
}

void bad_argument(const std::string &field, const std::string &message) {
    throw InputError(ErrorCode::bad_argument, field + message, {{"name", field}});
}

void bad_argument(const std::string &field, const std::string &message, std::int64_t limit) {
    throw InputError(ErrorCode::bad_argument, field + message, {{"name", field}, {"limit", limit}});
}

void limit_exceeded(const std::string &field, const std::string &message, std::int64_t limit) {
    throw InputError(ErrorCode::limit_exceeded, field + message, {{"name", field}, {"limit", limit}});
}

std::int64_t whole_number(const val &v, const std::string &field, std::int64_t lo, std::int64_t hi) {
    if (!v.isNumber()) bad_argument(field, ": expected a whole number, got " + describe(v));
    const double d = v.as<double>();
    if (!(d >= static_cast<double>(lo) && d <= static_cast<double>(hi) && d == std::floor(d)))
        bad_argument(field,
                     ": expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " +
                         number_text(d),
                     hi);
    return static_cast<std::int64_t>(d);
}

float to_temperature(const val &v, const std::string &field) {
    if (!v.isNumber()) bad_argument(field, ": expected a number, got " + describe(v));
    const double d = v.as<double>();
    // The range is the float's the engine will use (0.001 as a double is just below 1e-3f), and
    // the message shows the number given, not its float: 5e-324 is not 0, 1000.0001 not 1000.
    // details.name: the field for a value no float holds (NaN, infinite, past float32's range),
    // 'temperature' (the engine's own check's name) for a float out of the range.
    const bool a_float = std::abs(d) <= 3.4e38;
    const float t = a_float ? static_cast<float>(d) : std::nanf("");
    if (!(t >= limits::min_temperature && t <= limits::max_temperature))
        throw InputError(ErrorCode::bad_argument,
                         field + ": temperature must be from " + number_text(limits::min_temperature) + " to " +
                             number_text(limits::max_temperature) + ", got " + number_text(d),
                         {{"name", a_float ? std::string("temperature") : field}});
    return t;
}

Vec to_vec(const val &v, const std::string &field) {
    if (!is_array_like(v)) bad_argument(field, ": expected an array of numbers, got " + describe(v));
    const double length = v["length"].as<double>();
    if (!(length >= 0 && length <= kMaxVectorLength))
        bad_argument(field, ": more than " + std::to_string(kMaxVectorLength) + " numbers", kMaxVectorLength);
    Vec out(static_cast<Eigen::Index>(length));
    const int bad = copy_numbers(v, out.data(), static_cast<int>(out.size()));
    if (bad >= 0) {
        const val element = v[bad];
        bad_argument(field + "[" + std::to_string(bad) + "]",
                     " is not a finite number: got " +
                         (element.isNumber() ? number_text(element.as<double>()) : describe(element)));
    }
    return out;
}

Mat to_mat(const val &v, const std::string &field) {
    if (v.isArray()) {
        const auto rows = static_cast<unsigned>(whole_number(v["length"], field + ".length", 0, kMaxVectorLength));
        Mat out;
        for (unsigned r = 0; r < rows; ++r) {
            const std::string row_field = field + "[" + std::to_string(r) + "]";
            const Vec row = to_vec(v[r], row_field);
            if (r == 0) {
                if (std::int64_t{rows} * row.size() > kMaxVectorLength)
                    bad_argument(field, ": more than " + std::to_string(kMaxVectorLength) + " numbers",
                                 kMaxVectorLength);
                out.resize(rows, row.size());
            }
            if (row.size() != out.cols())
                bad_argument(row_field, " has " + std::to_string(row.size()) + " numbers but " + field + "[0] has " +
                                            std::to_string(out.cols()));
            out.row(r) = row.transpose();
        }
        return out;
    }
    if (v.typeOf().as<std::string>() == "object" && !v.isNull() && v.hasOwnProperty("data")) {
        if (!v["rows"].isNumber() || !v["cols"].isNumber())
            bad_argument(field, ": {data, rows, cols} needs whole numbers rows and cols");
        const std::int64_t rows = whole_number(v["rows"], field + ".rows", 0, kMaxVectorLength);
        const std::int64_t cols = whole_number(v["cols"], field + ".cols", 0, kMaxVectorLength);
        const Vec data = to_vec(v["data"], field + ".data");
        if (data.size() != rows * cols)
            bad_argument(field, ".data has " + std::to_string(data.size()) +
                                    " numbers, rows × cols = " + std::to_string(rows) + " × " + std::to_string(cols));
        return Eigen::Map<const Mat>(data.data(), rows, cols);
    }
    bad_argument(field, ": expected rows of numbers or {data, rows, cols}, got " + describe(v));
}

std::vector<std::uint8_t> to_mask(const val &v, const std::string &field) {
    if (!v.isArray()) bad_argument(field, ": expected an array of 0/1 or booleans, got " + describe(v));
    const auto n = static_cast<unsigned>(whole_number(v["length"], field + ".length", 0, kMaxVectorLength));
    std::vector<std::uint8_t> out(n);
    for (unsigned i = 0; i < n; ++i) out[i] = v[i].as<bool>() ? 1 : 0;
    return out;
}

val to_js(const float *data, Eigen::Index size) {
    // new Float32Array(view) copies out of the wasm memory.
    return val::global("Float32Array").new_(emscripten::typed_memory_view(static_cast<std::size_t>(size), data));
}

val to_js(const Mat &m) {
    val out = val::object();
    out.set("data", to_js(m.data(), m.size()));
    out.set("rows", static_cast<int>(m.rows()));
    out.set("cols", static_cast<int>(m.cols()));
    return out;
}

int copy_numbers(const val &v, float *out, int n) { return apg_copy_numbers_js(v.as_handle(), out, n); }

} // namespace apg::wasm
