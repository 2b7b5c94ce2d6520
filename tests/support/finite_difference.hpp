// Finite-difference gradient checks for the model tests.
//
// Float32 forward passes limit the precision of a central difference: with step ε the rounding
// error is about ε_float·|L|/ε ≈ 6e-8·|L|/1e-2, and the truncation error is O(ε²)·|L'''|. At the
// tiny sizes of these tests |L| stays below ~10, so an absolute tolerance of 2e-3 plus 2% of the
// gradient's size separates a correct gradient from a wrong one (a missing term is off by O(1)).
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <span>
#include <string>

namespace apg::test {

inline constexpr float fd_step = 1e-2f;

// Compares analytic[i] with (L(θ_i + ε) − L(θ_i − ε)) / 2ε for up to max_checks entries spread
// over the tensor. loss() must recompute the forward pass from the current parameter values.
inline void check_gradient(const std::string &name, std::span<float> param, std::span<const float> analytic,
                           const std::function<double()> &loss, std::size_t max_checks = 24) {
    REQUIRE(param.size() == analytic.size());
    const std::size_t n = param.size();
    const std::size_t stride = n <= max_checks ? 1 : n / max_checks;
    for (std::size_t i = 0; i < n; i += stride) {
        const float saved = param[i];
        param[i] = saved + fd_step;
        const double up = loss();
        param[i] = saved - fd_step;
        const double down = loss();
        param[i] = saved;
        const double numeric = (up - down) / (2.0 * fd_step);
        const double tolerance = 2e-3 + 2e-2 * std::abs(numeric);
        INFO(name << "[" << i << "]: analytic " << analytic[i] << ", numeric " << numeric);
        CHECK(std::abs(analytic[i] - numeric) <= tolerance);
    }
}

} // namespace apg::test
