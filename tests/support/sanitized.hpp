// Whether this build runs under AddressSanitizer (the native-asan preset). The suite's heaviest
// value checks, which score the shipped models over hundreds of held-out samples, take a smaller
// sample there: the unoptimised, instrumented build runs them ~70 times slower, the native and
// wasm suites check the full numbers, and the smaller sample still runs every line of those paths
// under the sanitizers.
#pragma once

#include <cmath>
#include <cstddef>

// (clang, which builds the sanitizer preset, says so through __has_feature, not the macro GCC sets)
#if defined(__SANITIZE_ADDRESS__)
#define APG_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define APG_TEST_SANITIZED 1
#endif
#endif
#ifndef APG_TEST_SANITIZED
#define APG_TEST_SANITIZED 0
#endif

namespace apg::test {

inline constexpr bool sanitized = APG_TEST_SANITIZED;

// How far a share measured on n of the held-out samples may fall short of the whole split's p by
// sampling alone: three standard deviations, √(p(1−p)/n), plus one sample, so the check does not
// flake while a broken model (near 0) still fails it.
inline double sample_tolerance(double p, std::size_t n) {
    return 3 * std::sqrt(p * (1 - p) / static_cast<double>(n)) + 1.0 / static_cast<double>(n);
}

} // namespace apg::test
