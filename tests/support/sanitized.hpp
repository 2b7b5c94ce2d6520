// Whether this build runs under AddressSanitizer (the native-asan preset). The suite's heaviest
// value checks, which score the shipped models over hundreds of held-out samples, take a smaller
// sample there: the unoptimised, instrumented build runs them ~70 times slower, the native and
// wasm suites check the full numbers, and the smaller sample still runs every line of those paths
// under the sanitizers.
#pragma once

#include <cmath>
#include <cstddef>

namespace apg::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool sanitized = true;
#else
inline constexpr bool sanitized = false;
#endif
#else
inline constexpr bool sanitized = false;
#endif

// How far a share measured on n of the held-out samples may fall short of the whole split's p by
// sampling alone: three standard deviations, √(p(1−p)/n), plus one sample, so the check does not
// flake while a broken model (near 0) still fails it.
inline double sample_tolerance(double p, std::size_t n) {
    return 3 * std::sqrt(p * (1 - p) / static_cast<double>(n)) + 1.0 / static_cast<double>(n);
}

} // namespace apg::test
