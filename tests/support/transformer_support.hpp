// Test helpers for the transformer modules: random fills and a central-difference gradient check.
#pragma once

#include "core/rng.hpp"
#include "core/tensor.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <span>
#include <string>

namespace apg::tt {

inline Mat random_mat(Eigen::Index rows, Eigen::Index cols, core::Rng &rng, float scale = 1.0f) {
    Mat m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = scale * rng.normal();
    return m;
}

inline Vec random_vec(Eigen::Index n, core::Rng &rng, float scale = 1.0f) {
    Vec v(n);
    for (Eigen::Index i = 0; i < n; ++i) v(i) = scale * rng.normal();
    return v;
}

// L = Σ r ⊙ y summed in double, so dL/dy = r: a loss that weighs every output differently.
inline double weighted_sum(const Mat &y, const Mat &r) {
    double s = 0.0;
    for (Eigen::Index i = 0; i < y.size(); ++i) s += static_cast<double>(y.data()[i]) * r.data()[i];
    return s;
}

// Compares `analytic` with (L(v + h) − L(v − h)) / 2h for every entry v of `values`.
// Error model (float32 forward, L accumulated in double): the float rounding of the O(1) outputs
// puts ~1e-6 of noise on L, i.e. ~1e-6 / 2h ≈ 2e-4 on a difference quotient at h = 2.5e-3, and the
// truncation error h²·L'''/6 is ~1e-6; so an entry passes when |num − ana| ≤ 2e-3 + 1e-2·|num|,
// several times above that noise and far below the size of a real mistake (a dropped term is O(|ana|)).
// Unless expect_zero, also requires the gradient to be nonzero somewhere, so a backward that writes
// nothing cannot pass; expect_zero is for a tensor whose gradient is 0 by the maths (the key bias:
// softmax ignores the constant qᵀb_k it adds to a whole row of scores).
template <class Loss>
void check_gradient(const std::string &what, core::fspan values, core::cfspan analytic, Loss &&loss,
                    bool expect_zero = false, float h = 2.5e-3f, double abs_tol = 2e-3, double rel_tol = 1e-2) {
    INFO("gradient of ", what);
    REQUIRE(values.size() == analytic.size());
    double worst = 0.0, largest = 0.0;
    std::size_t worst_index = 0;
    double worst_num = 0.0, worst_ana = 0.0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const float saved = values[i];
        values[i] = saved + h;
        const double plus = loss();
        values[i] = saved - h;
        const double minus = loss();
        values[i] = saved;
        const double num = (plus - minus) / (2.0 * static_cast<double>(h));
        const double ana = analytic[i];
        const double ratio = std::abs(num - ana) / (abs_tol + rel_tol * std::abs(num));
        largest = std::max(largest, std::abs(ana));
        if (ratio > worst) {
            worst = ratio;
            worst_index = i;
            worst_num = num;
            worst_ana = ana;
        }
    }
    INFO("worst entry ", worst_index, ": numeric ", worst_num, ", analytic ", worst_ana);
    CHECK(worst <= 1.0);
    if (expect_zero)
        CHECK(largest <= 1e-5);
    else
        CHECK(largest > 1e-3);
}

} // namespace apg::tt
