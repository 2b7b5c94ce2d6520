// Central-difference gradient checks in float32, shared by the attention tests.
//
// Every library buffer is float32, so the check perturbs the float inputs themselves (using the step
// actually taken after rounding) and takes the loss in double. Error budget with step h = 1e-2 on
// inputs and outputs of order 1:
//   - rounding: each float output carries ~6e-8 relative error; a loss summing a few dozen of them
//     is off by ~1e-6 at worst, which the division by 2h turns into ~5e-5;
//   - truncation: (h²/6)·|f'''| ≈ 2e-5·|f'''|, and f''' of tanh/softmax stays of order 1 here.
// Tolerance: |numeric − analytic| ≤ 1e-4 + 2e-3·|numeric|. The attention suite still passes at a
// quarter of that (measured when it was written), so there is margin for other kernels and the wasm
// libm; a wrong gradient (a missing term, a factor off by 5%) exceeds it, and the control test in
// test_gradcheck.cpp shows that it does.
#pragma once

#include "core/rng.hpp"
#include "core/tensor.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>

namespace apg::test {

struct GradTolerance {
    float step = 1e-2f;
    double atol = 1e-4;
    double rtol = 2e-3;
};

// The worst |numeric − analytic| / (atol + rtol·|numeric|) over the elements of x: ≤ 1 passes.
// loss() is re-evaluated with one element of x moved at a time; x is restored afterwards.
template <class Loss>
double gradient_error(std::span<float> x, std::span<const float> analytic, Loss &&loss, GradTolerance tol = {}) {
    if (x.size() != analytic.size()) throw std::invalid_argument("gradient_error: x and analytic differ in size");
    double worst = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const float saved = x[i];
        // The step actually taken in float, not the nominal one: x + h rounds.
        const float up = saved + tol.step, down = saved - tol.step;
        x[i] = up;
        const double loss_up = loss();
        x[i] = down;
        const double loss_down = loss();
        x[i] = saved;
        const double numeric = (loss_up - loss_down) / (static_cast<double>(up) - static_cast<double>(down));
        const double err = std::abs(numeric - analytic[i]) / (tol.atol + tol.rtol * std::abs(numeric));
        worst = std::max(worst, err);
    }
    return worst;
}

inline std::span<float> span_of(Mat &m) { return {m.data(), static_cast<std::size_t>(m.size())}; }
inline std::span<float> span_of(Vec &v) { return {v.data(), static_cast<std::size_t>(v.size())}; }
inline std::span<const float> span_of(const Mat &m) { return {m.data(), static_cast<std::size_t>(m.size())}; }
inline std::span<const float> span_of(const Vec &v) { return {v.data(), static_cast<std::size_t>(v.size())}; }

inline Mat random_mat(Eigen::Index rows, Eigen::Index cols, core::Rng &rng, float scale = 1.0f) {
    Mat m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = rng.uniform(-scale, scale);
    return m;
}
inline Vec random_vec(Eigen::Index size, core::Rng &rng, float scale = 1.0f) {
    Vec v(size);
    for (Eigen::Index i = 0; i < size; ++i) v[i] = rng.uniform(-scale, scale);
    return v;
}

// Σ coeffs ⊙ x in double: a loss whose gradient w.r.t. x is exactly coeffs.
inline double weighted_sum(std::span<const float> x, std::span<const float> coeffs) {
    double sum = 0;
    for (std::size_t i = 0; i < x.size(); ++i) sum += static_cast<double>(coeffs[i]) * x[i];
    return sum;
}

// The message of the std::invalid_argument that f throws, or "" when it throws nothing.
template <class F> std::string invalid_argument_message(F &&f) {
    try {
        f();
    } catch (const std::invalid_argument &e) {
        return e.what();
    }
    return "";
}

} // namespace apg::test
