// Helpers shared by the kernel tests: double-precision references, random inputs, error bounds.
#pragma once

#include "core/kernels.hpp"
#include "core/rng.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

namespace apg::test {

// Unit roundoff of float: every correctly rounded float operation has relative error ≤ u.
inline constexpr double u = 0x1p-24;
// Higham's γ_n = n·u / (1 − n·u): the relative bound on a sum of n float products in ANY order,
// scaled by Σ|terms|. It is a proven bound, so exceeding it means a wrong result, not bad luck.
inline double gamma_n(std::size_t n) { return static_cast<double>(n) * u / (1.0 - static_cast<double>(n) * u); }

inline std::vector<float> random_vector(std::size_t n, core::Rng &rng, float lo = -1.0f, float hi = 1.0f) {
    std::vector<float> v(n);
    for (float &x : v) x = rng.uniform(lo, hi);
    return v;
}

// The sizes the blocked kernels are checked at: below, at and above the 4-row blocks and the
// 8-wide register tiles, and a size past several blocks with a remainder.
inline constexpr std::size_t block_sizes[] = {1, 3, 4, 5, 8, 17, 64, 65};
// The vector lengths the row kernels are checked at: below, at, above and at multiples of the
// vector width, and a long odd one.
inline constexpr std::size_t vector_lengths[] = {1, 3, 4, 5, 8, 17, 64, 257};

// The kernel-set under test: the scalar reference or the SIMD version.
struct Impl {
    const char *name;
    bool simd;
};
inline constexpr Impl implementations[] = {{"scalar", false}, {"simd", true}};

// Calls f() and checks it throws std::invalid_argument whose message contains every fragment.
inline void check_throws_mentioning(const std::function<void()> &f, std::initializer_list<std::string> fragments) {
    try {
        f();
        FAIL("expected std::invalid_argument");
    } catch (const std::invalid_argument &e) {
        const std::string what = e.what();
        for (const std::string &fragment : fragments) {
            INFO("message: " << what);
            CHECK(what.find(fragment) != std::string::npos);
        }
    }
}

} // namespace apg::test
