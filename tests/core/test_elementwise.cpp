// exp, tanh, sigmoid: the SIMD polynomial approximations and the scalar reference (std::) against
// double precision, over whole ranges and on inputs that overflow a naive exp.
#include "core/kernels.hpp"
#include "reference.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

using namespace apg;

namespace {

using Kernel = void (*)(core::cfspan, core::fspan);

struct MeasuredError {
    double max_relative = 0; // over results ≥ FLT_MIN
    double max_absolute = 0; // over results below FLT_MIN (subnormal or zero)
};

MeasuredError measure(Kernel kernel, double (*ref)(double), double lo, double hi, std::size_t points) {
    std::vector<float> x(points), y(points);
    for (std::size_t i = 0; i < points; ++i) x[i] = static_cast<float>(lo + (hi - lo) * i / (points - 1));
    kernel(x, y);
    MeasuredError e;
    for (std::size_t i = 0; i < points; ++i) {
        const double want = ref(x[i]), diff = std::fabs(y[i] - want);
        if (std::fabs(want) >= FLT_MIN)
            e.max_relative = std::max(e.max_relative, diff / std::fabs(want));
        else
            e.max_absolute = std::max(e.max_absolute, diff);
    }
    return e;
}

double exp_ref(double x) { return std::exp(x); }
double tanh_ref(double x) { return std::tanh(x); }
double sigmoid_ref(double x) { return 1.0 / (1.0 + std::exp(-x)); }

constexpr double ulp1 = 0x1p-23; // one ulp of a float in [1, 2), relative
constexpr double inf = std::numeric_limits<double>::infinity();

} // namespace

// The bounds are the ones documented beside the kernels in kernels_simd.cpp (measured there with
// the same sweep): the SIMD versions are within 1 ulp (exp) and 2 ulp (tanh, sigmoid) of the
// true value; std:: is at least as good. 400 001 points so every region of the range is hit
// (the x step 5e-4 is coarser than float spacing, but the polynomial error varies smoothly).
TEST_CASE("exp is within one ulp of the double-precision value over its whole range") {
    for (Kernel k : {Kernel(core::simd::exp), Kernel(core::scalar::exp)}) {
        MeasuredError e = measure(k, exp_ref, -110.0, 88.72, 400001);
        CHECK(e.max_relative <= ulp1);
        CHECK(e.max_absolute <= 2e-45); // a subnormal result is off by at most one subnormal step (1.4e-45)
    }
}

TEST_CASE("tanh is within two ulp of the double-precision value, near zero too") {
    for (Kernel k : {Kernel(core::simd::tanh), Kernel(core::scalar::tanh)}) {
        CHECK(measure(k, tanh_ref, -20.0, 20.0, 400001).max_relative <= 2 * ulp1);
        CHECK(measure(k, tanh_ref, -1e-3, 1e-3, 100001).max_relative <= 2 * ulp1);
    }
}

TEST_CASE("sigmoid is within two ulp of the double-precision value") {
    for (Kernel k : {Kernel(core::simd::sigmoid), Kernel(core::scalar::sigmoid)}) {
        MeasuredError e = measure(k, sigmoid_ref, -110.0, 30.0, 400001);
        CHECK(e.max_relative <= 2 * ulp1);
        CHECK(e.max_absolute <= 3e-39); // below FLT_MIN the result may be flushed to 0
    }
}

TEST_CASE("elementwise kernels handle inputs that overflow a naive exp") {
    // ±1e4 and 88.8 overflow expf; 88.7 and -103 are just inside the float range.
    std::vector<float> x{1e4f, -1e4f, 88.8f, 88.7f, -88.8f, -103.0f, 0.0f, -0.0f, 1.0f};
    for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{4}, std::size_t{5}, std::size_t{9}}) {
        CAPTURE(n); // lengths below, at and above the vector width put each input in lanes and in the tail
        core::cfspan in(x.data(), n);
        std::vector<float> e(n), t(n), s(n);
        core::simd::exp(in, e);
        core::simd::tanh(in, t);
        core::simd::sigmoid(in, s);
        for (std::size_t i = 0; i < n; ++i) {
            CAPTURE(x[i]);
            const double want_exp = std::exp(static_cast<double>(x[i]));
            if (want_exp > FLT_MAX)
                CHECK(e[i] == inf);
            else
                CHECK(std::fabs(e[i] - want_exp) <= ulp1 * want_exp + 2e-45);
            CHECK(std::fabs(t[i] - std::tanh(static_cast<double>(x[i]))) <= 2 * ulp1);
            CHECK(std::fabs(s[i] - sigmoid_ref(x[i])) <= 2 * ulp1);
            CHECK(!std::isnan(e[i]));
            CHECK(!std::isnan(t[i]));
            CHECK(!std::isnan(s[i]));
        }
    }
}

TEST_CASE("exp of 0 is exactly 1 and tanh, sigmoid keep their symmetry") {
    std::vector<float> x{0.0f, 0.5f, -0.5f, 3.0f, -3.0f}, e(5), t(5), s(5);
    core::simd::exp(x, e);
    core::simd::tanh(x, t);
    core::simd::sigmoid(x, s);
    CHECK(e[0] == 1.0f);
    CHECK(t[0] == 0.0f);
    CHECK(s[0] == 0.5f);
    CHECK(t[1] == -t[2]); // tanh is odd by construction (both branches work on |x|, sign copied back)
    CHECK(t[3] == -t[4]);
    CHECK(s[3] + s[4] == doctest::Approx(1.0).epsilon(2 * ulp1));
}

TEST_CASE("elementwise kernels work in place and reject mismatched lengths") {
    std::vector<float> x{-1.0f, 0.0f, 1.0f, 2.0f, 3.0f};
    auto y = x;
    core::simd::exp(y, y);
    for (std::size_t i = 0; i < x.size(); ++i) CHECK(y[i] == doctest::Approx(std::exp(x[i])).epsilon(ulp1));
    std::vector<float> shorter(4);
    test::check_throws_mentioning([&] { core::simd::tanh(x, shorter); }, {"tanh", "4", "5"});
    test::check_throws_mentioning([&] { core::scalar::sigmoid(x, shorter); }, {"sigmoid", "4", "5"});
}
