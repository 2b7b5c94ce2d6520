// The suite's one gradient checker: central differences in float32 against a backward pass.
//
// Every library buffer is float32, so the check moves the float inputs themselves by ±h (dividing
// by the step actually taken after rounding) and takes the loss in double. An entry passes when
//     |numeric − analytic| ≤ atol + rtol · |numeric|.
// The error of the difference quotient has two parts: rounding, each float output off by ~6e-8
// relative, so the loss by ~6e-8 · Σ|terms| and the quotient by that over h; and truncation,
// (h²/6) · |L'''|. Which budget covers them depends on what the loss runs through:
//   - one layer or one attention stage (the default, GradCheck{}): h = 1e-2, inputs and outputs of
//     order 1, a loss of a few dozen terms: rounding ~5e-5, truncation ~2e-5 · |L'''|. 1e-4 +
//     2e-3·|numeric| is above both (the attention suite passed at a quarter of it when written).
//   - a stack of layers or a whole model (GradCheck::composed()): the nudge passes through many
//     float32 layers (GRU steps, layer norms, softmaxes) whose roundings add up, and the loss
//     (a mean cross-entropy, a weighted sum of dozens of outputs) is up to ~10: 2e-3 + 2e-2·|numeric|.
//     A model with ReLU kinks or max pooling takes h = 1e-3 (composed().at_step(1e-3)), so that a
//     nudge rarely crosses one; rounding is then ~6e-8 · 10 / 1e-3 ≈ 6e-4, still inside.
// A real mistake (a missing term, a factor off by 5%) exceeds either budget: the control cases in
// tests/support/test_gradcheck.cpp show that the checker fails then.
//
// Under the sanitizers (native-asan) a tensor's check visits at most `sanitized_checks` entries,
// spread over it as max_checks spreads them: the backward pass still runs whole, which is what the
// sanitizers watch, while the finite differences, two forward passes an entry in an unoptimised
// instrumented build, were most of that run's time (the native run checks every entry).
#pragma once

#include "core/rng.hpp"
#include "core/tensor.hpp"
#include "support/sanitized.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>

namespace apg::test {

inline constexpr std::size_t sanitized_checks = 2;

struct GradCheck {
    float step = 1e-2f;
    double atol = 1e-4, rtol = 2e-3;
    // Entries checked, spread evenly over the tensor (0: every one): for a model's large tensors.
    std::size_t max_checks = 0;
    // What the analytic gradient must be beyond matching: anything, somewhere nonzero (so a
    // backward that writes nothing cannot pass), or zero by the maths.
    enum class Expect { any, nonzero, zero } expect = Expect::any;

    static GradCheck composed(std::size_t max_checks = 0) {
        GradCheck c;
        c.atol = 2e-3;
        c.rtol = 2e-2;
        c.max_checks = max_checks;
        return c;
    }
    GradCheck at_step(float h) const {
        GradCheck c = *this;
        c.step = h;
        return c;
    }
    GradCheck expecting(Expect e) const {
        GradCheck c = *this;
        c.expect = e;
        return c;
    }
};

// A stack of layers whose every tensor must get some gradient.
inline const GradCheck nonzero_gradient = GradCheck::composed().expecting(GradCheck::Expect::nonzero);

struct GradReport {
    double worst = 0; // max over the checked entries of |numeric − analytic| / (atol + rtol·|numeric|)
    std::size_t worst_index = 0;
    double numeric = 0, analytic = 0; // at worst_index
    double largest = 0;               // max |analytic| over every entry, checked or not
};

// loss() is re-evaluated with one entry of x moved at a time; x is restored afterwards.
template <class Loss>
GradReport gradient_report(std::span<float> x, std::span<const float> analytic, Loss &&loss, const GradCheck &c = {}) {
    if (x.size() != analytic.size()) throw std::invalid_argument("gradient check: x and analytic differ in size");
    GradReport r;
    for (const float a : analytic) r.largest = std::max(r.largest, std::abs(static_cast<double>(a)));
    std::size_t most = c.max_checks;
    if (sanitized) most = most == 0 ? sanitized_checks : std::min(most, sanitized_checks);
    const std::size_t stride = most == 0 || x.size() <= most ? 1 : x.size() / most;
    for (std::size_t i = 0; i < x.size(); i += stride) {
        const float saved = x[i];
        const float up = saved + c.step, down = saved - c.step;
        x[i] = up;
        const double loss_up = loss();
        x[i] = down;
        const double loss_down = loss();
        x[i] = saved;
        const double numeric = (loss_up - loss_down) / (static_cast<double>(up) - static_cast<double>(down));
        const double err = std::abs(numeric - analytic[i]) / (c.atol + c.rtol * std::abs(numeric));
        if (i == 0 || err > r.worst) {
            r.worst = err;
            r.worst_index = i;
            r.numeric = numeric;
            r.analytic = analytic[i];
        }
    }
    return r;
}

// The worst ratio alone: ≤ 1 passes.
template <class Loss>
double gradient_error(std::span<float> x, std::span<const float> analytic, Loss &&loss, const GradCheck &c = {}) {
    return gradient_report(x, analytic, loss, c).worst;
}

// The check as doctest assertions, naming the tensor and its worst entry.
template <class Loss>
void check_gradient(const std::string &what, std::span<float> x, std::span<const float> analytic, Loss &&loss,
                    const GradCheck &c = {}) {
    INFO("gradient of ", what);
    REQUIRE(x.size() == analytic.size());
    const GradReport r = gradient_report(x, analytic, loss, c);
    INFO("worst entry ", r.worst_index, ": numeric ", r.numeric, ", analytic ", r.analytic);
    CHECK(r.worst <= 1.0);
    if (c.expect == GradCheck::Expect::nonzero) CHECK(r.largest > 1e-3);
    if (c.expect == GradCheck::Expect::zero) CHECK(r.largest <= 1e-5);
}

inline std::span<float> span_of(Mat &m) { return {m.data(), static_cast<std::size_t>(m.size())}; }
inline std::span<float> span_of(Vec &v) { return {v.data(), static_cast<std::size_t>(v.size())}; }
inline std::span<const float> span_of(const Mat &m) { return {m.data(), static_cast<std::size_t>(m.size())}; }
inline std::span<const float> span_of(const Vec &v) { return {v.data(), static_cast<std::size_t>(v.size())}; }

// Σ coeffs ⊙ x in double: a loss whose gradient with respect to x is exactly coeffs.
inline double weighted_sum(std::span<const float> x, std::span<const float> coeffs) {
    double sum = 0;
    for (std::size_t i = 0; i < x.size(); ++i) sum += static_cast<double>(coeffs[i]) * x[i];
    return sum;
}
inline double weighted_sum(const Mat &y, const Mat &r) { return weighted_sum(span_of(y), span_of(r)); }

// Uniform in [−scale, scale] and normal with standard deviation scale.
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
inline Mat normal_mat(Eigen::Index rows, Eigen::Index cols, core::Rng &rng, float scale = 1.0f) {
    Mat m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = scale * rng.normal();
    return m;
}
inline Vec normal_vec(Eigen::Index n, core::Rng &rng, float scale = 1.0f) {
    Vec v(n);
    for (Eigen::Index i = 0; i < n; ++i) v(i) = scale * rng.normal();
    return v;
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
