// A number for a message, exactly: the shortest text that reads back as the same value (what JS's
// String(x) shows), so a refused 1000.0001 is not reported as "1000" nor 5e-324 as "0".
// (std::to_chars would do this, but the libc++ of the wasm toolchain has no floating-point one.)
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace apg {

namespace detail {

// x with `digits` significant digits, as JS writes it: positional from 1e-6 up to 1e21
// ("1000", "0.001"), with an exponent of no leading zero outside that ("1e+21", "1e-7").
inline std::string js_digits(double x, int digits) {
    char text[400];
    std::snprintf(text, sizeof text, "%.*e", digits - 1, x);
    const int exponent = std::atoi(std::strchr(text, 'e') + 1);
    if (x != 0 && (exponent < -6 || exponent >= 21)) {
        std::snprintf(text, sizeof text, "%.*g", digits, x);
        std::string out = text;
        const std::size_t e = out.find('e');
        if (e != std::string::npos && out[e + 2] == '0') out.erase(e + 2, 1);
        return out;
    }
    std::snprintf(text, sizeof text, "%.*f", digits - 1 - exponent > 0 ? digits - 1 - exponent : 0, x);
    return text;
}

} // namespace detail

inline std::string number_text(double x) {
    if (std::isnan(x)) return "NaN";
    if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
    std::string text;
    for (int digits = 1; digits <= 17; ++digits) {
        text = detail::js_digits(x, digits);
        if (std::strtod(text.c_str(), nullptr) == x) break;
    }
    return text;
}

// A float the engine holds: the shortest text that reads back as the same float.
inline std::string number_text(float x) {
    if (!std::isfinite(x)) return number_text(static_cast<double>(x));
    std::string text;
    for (int digits = 1; digits <= 9; ++digits) {
        text = detail::js_digits(static_cast<double>(x), digits);
        if (std::strtof(text.c_str(), nullptr) == x) break;
    }
    return text;
}

} // namespace apg
