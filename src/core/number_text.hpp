// A number for a message, exactly: the shortest text that reads back as the same value (what JS's
// String(x) shows), so a refused 1000.0001 is not reported as "1000" nor 5e-324 as "0".
// (std::to_chars would do this, but the libc++ of the wasm toolchain has no floating-point one.)
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace apg {

inline std::string number_text(double x) {
    if (std::isnan(x)) return "NaN";
    if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
    char text[40];
    for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(text, sizeof text, "%.*g", digits, x);
        if (std::strtod(text, nullptr) == x) break;
    }
    return text;
}

// A float the engine holds: the shortest text that reads back as the same float.
inline std::string number_text(float x) {
    if (!std::isfinite(x)) return number_text(static_cast<double>(x));
    char text[40];
    for (int digits = 1; digits <= 9; ++digits) {
        std::snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(x));
        if (std::strtof(text, nullptr) == x) break;
    }
    return text;
}

} // namespace apg
