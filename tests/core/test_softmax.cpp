// softmax: stable, masked, with a temperature; scalar and SIMD against a double-precision reference.
#include "core/kernels.hpp"
#include "reference.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <vector>

using namespace apg;
using apg::test::gamma_n;
using apg::test::u;

namespace {

void run_softmax(bool simd, core::cfspan x, core::fspan y, core::mask_span mask = {}, float temperature = 1.0f) {
    if (simd)
        core::simd::softmax(x, y, mask, temperature);
    else
        core::scalar::softmax(x, y, mask, temperature);
}

// Double-precision softmax of the float inputs, 0 at masked positions.
std::vector<double> softmax_ref(const std::vector<float> &x, const std::vector<std::uint8_t> &mask, double t) {
    double mx = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < x.size(); ++i)
        if (mask.empty() || mask[i]) mx = std::max(mx, static_cast<double>(x[i]));
    std::vector<double> y(x.size(), 0.0);
    double sum = 0;
    for (std::size_t i = 0; i < x.size(); ++i)
        if (mask.empty() || mask[i]) sum += y[i] = std::exp((x[i] - mx) / t);
    for (double &v : y) v /= sum;
    return y;
}

// Error budget of one weight y_i = e^{a_i} / Σ_j e^{a_j}, a_i = (x_i − max)/τ formed in float:
//   forming a_i: two roundings, so e^{a_i} is off by a factor (1 ± 2u|a_i|);
//   exp itself: ≤ 2u (one ulp, see test_elementwise.cpp);
//   the sum of n terms: γ_n; the reciprocal and the product: 2u.
// The numerator's error and the sum's (at most the largest term error) both count.
// |a| is capped at 104: beyond it the weight is 0 both in float and, below 1e-45, in double.
// The SIMD softmax flushes weights below FLT_MIN (1.2e-38) to 0, hence the absolute FLT_MIN.
void check_close(const std::vector<float> &got, const std::vector<double> &want, const std::vector<float> &x,
                 float temperature) {
    const std::size_t n = x.size();
    double mx = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < n; ++i)
        if (want[i] > 0) mx = std::max(mx, static_cast<double>(x[i]));
    double worst_arg = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (want[i] > 0) worst_arg = std::max(worst_arg, std::min(104.0, std::fabs(x[i] - mx) / temperature));
    const double term = 2 * u * worst_arg + 2 * u;
    const double rel = 2 * term + gamma_n(n) + 2 * u;
    for (std::size_t i = 0; i < n; ++i) {
        CAPTURE(i);
        CHECK(std::fabs(got[i] - want[i]) <= rel * want[i] + FLT_MIN);
    }
}

} // namespace

TEST_CASE("softmax matches the double-precision reference at every length, masked or not") {
    core::Rng rng(5);
    for (const auto &impl : test::implementations)
        for (std::size_t n : test::vector_lengths)
            for (bool masked : {false, true})
                for (float scale : {1.0f, 30.0f}) {
                    CAPTURE(impl.name);
                    CAPTURE(n);
                    CAPTURE(masked);
                    CAPTURE(scale);
                    auto x = test::random_vector(n, rng, -scale, scale);
                    std::vector<std::uint8_t> mask;
                    if (masked) {
                        mask.resize(n);
                        for (auto &m : mask) m = rng.below(3) != 0; // about a third masked
                        mask[rng.below(n)] = 1;                     // never all masked
                    }
                    std::vector<float> y(n, 99.0f);
                    run_softmax(impl.simd, x, y, mask);
                    check_close(y, softmax_ref(x, mask, 1.0), x, 1.0f);
                    for (std::size_t i = 0; i < n; ++i)
                        if (masked && !mask[i]) CHECK(y[i] == 0.0f); // exactly 0, not tiny
                }
}

TEST_CASE("softmax of equal scores is uniform") {
    for (const auto &impl : test::implementations)
        for (std::size_t n : test::vector_lengths) {
            CAPTURE(impl.name);
            CAPTURE(n);
            std::vector<float> x(n, 2.0f), y(n);
            run_softmax(impl.simd, x, y);
            // e^0 = 1 exactly, the sum n is exact, so each weight is 1/n rounded once or twice.
            for (float v : y) CHECK(std::fabs(v - 1.0 / n) <= 2 * u / n);
        }
}

TEST_CASE("softmax of huge scores neither overflows nor produces NaN") {
    // A naive exp(1e4) is inf and inf/inf is NaN; subtracting the maximum first avoids both.
    std::vector<float> x{1e4f, -1e4f, 88.8f, 0.0f, 1e4f - 1.0f, -3e38f, 3e38f - 1e32f, 1e4f};
    for (const auto &impl : test::implementations) {
        CAPTURE(impl.name);
        std::vector<float> small(x.begin(), x.begin() + 5), y(5);
        run_softmax(impl.simd, small, y);
        const double e1 = std::exp(-1.0); // weights of 1e4 and 1e4 − 1
        CHECK(y[0] == doctest::Approx(1.0 / (1.0 + e1)).epsilon(1e-6));
        CHECK(y[4] == doctest::Approx(e1 / (1.0 + e1)).epsilon(1e-6));
        CHECK(y[1] == 0.0f);
        CHECK(y[2] == 0.0f);
        CHECK(y[3] == 0.0f);
        std::vector<float> y8(8);
        run_softmax(impl.simd, x, y8); // scores near ±FLT_MAX: x − max overflows to −inf, whose exp is 0
        for (float v : y8) CHECK(!std::isnan(v));
        CHECK(y8[6] == 1.0f);
    }
}

TEST_CASE("softmax with a partial mask equals softmax over the unmasked positions") {
    std::vector<float> x{1.0f, 5.0f, 2.0f, 3.0f, 50.0f}; // the masked 50 would otherwise take all weight
    std::vector<std::uint8_t> mask{1, 0, 1, 1, 0};
    const double z = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
    for (const auto &impl : test::implementations) {
        CAPTURE(impl.name);
        std::vector<float> y(5);
        run_softmax(impl.simd, x, y, mask);
        CHECK(y[0] == doctest::Approx(std::exp(1.0) / z).epsilon(1e-6));
        CHECK(y[1] == 0.0f);
        CHECK(y[2] == doctest::Approx(std::exp(2.0) / z).epsilon(1e-6));
        CHECK(y[3] == doctest::Approx(std::exp(3.0) / z).epsilon(1e-6));
        CHECK(y[4] == 0.0f);
    }
}

TEST_CASE("softmax of a fully masked row throws and leaves the output untouched") {
    for (const auto &impl : test::implementations)
        for (std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{17}}) {
            CAPTURE(impl.name);
            CAPTURE(n);
            std::vector<float> x(n, 1.0f), y(n, 7.0f);
            std::vector<std::uint8_t> mask(n, 0);
            test::check_throws_mentioning([&] { run_softmax(impl.simd, x, y, mask); },
                                          {"softmax", std::to_string(n), "masked"});
            for (float v : y) CHECK(v == 7.0f); // no NaN written anywhere
        }
}

TEST_CASE("softmax with a temperature equals softmax of the scaled scores") {
    core::Rng rng(6);
    for (const auto &impl : test::implementations)
        for (float t : {0.25f, 2.0f, 10.0f}) {
            CAPTURE(impl.name);
            CAPTURE(t);
            auto x = test::random_vector(17, rng, -4, 4);
            std::vector<float> y(17);
            run_softmax(impl.simd, x, y, {}, t);
            check_close(y, softmax_ref(x, {}, t), x, t);
        }
    // A very low temperature makes the weights one-hot on the maximum.
    std::vector<float> x{1.0f, 3.0f, 2.9f}, y(3);
    core::simd::softmax(x, y, {}, 1e-3f);
    CHECK(y[1] == 1.0f);
    CHECK(y[2] < 1e-40f);
}

TEST_CASE("softmax rejects a bad temperature, mismatched lengths and an empty row") {
    std::vector<float> x{1, 2, 3}, y(3), y2(2);
    std::vector<std::uint8_t> mask(2, 1);
    for (const auto &impl : test::implementations) {
        CAPTURE(impl.name);
        for (float t : {0.0f, -1.0f, std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()})
            test::check_throws_mentioning([&] { run_softmax(impl.simd, x, y, {}, t); }, {"temperature"});
        test::check_throws_mentioning([&] { run_softmax(impl.simd, x, y2); }, {"softmax", "y", "2", "3"});
        test::check_throws_mentioning([&] { run_softmax(impl.simd, x, y, mask); }, {"softmax", "mask", "2", "3"});
        test::check_throws_mentioning([&] { run_softmax(impl.simd, {}, {}); }, {"softmax", "0"});
    }
}
