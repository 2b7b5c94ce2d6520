// Softmax cross-entropy against double-precision references, above all on near-certain
// predictions, where −log p_y and p_y − 1 in float32 lose most of their digits.
#include "nn/cross_entropy.hpp"

#include "core/kernels.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

using namespace apg;

namespace {

// logsumexp(z) − z_y and softmax(z) − onehot(y), the plain way in long double (64-bit mantissa:
// log(1 + 2e-9) still has 10 correct digits there, where double would keep 8).
struct Reference {
    double loss;
    std::vector<double> grad;
};

Reference reference(const std::vector<float> &z, int y) {
    long double top = z[0];
    for (float v : z) top = std::max(top, static_cast<long double>(v));
    long double sum = 0;
    for (float v : z) sum += std::exp(v - top);
    Reference r{static_cast<double>(std::log(sum) + top - z[static_cast<std::size_t>(y)]), {}};
    for (std::size_t i = 0; i < z.size(); ++i) {
        const long double p = std::exp(z[i] - top) / sum;
        r.grad.push_back(static_cast<double>(static_cast<int>(i) == y ? -(1 - p) : p));
    }
    return r;
}

double relative(double got, double want) { return std::abs(got - want) / std::abs(want); }

} // namespace

TEST_CASE("cross-entropy equals logsumexp minus the target's logit") {
    // z = [1, 2, 3], y = 0: log(e + e² + e³) − 1 = 3.40760596 − 1
    const std::vector<float> z = {1, 2, 3};
    CHECK(nn::cross_entropy(z, 0) == doctest::Approx(2.40760596444438).epsilon(1e-12));
    CHECK(nn::cross_entropy(z, 2) == doctest::Approx(0.40760596444438).epsilon(1e-12));
    // equal logits: ln V
    CHECK(nn::cross_entropy(std::vector<float>(4, 0.5f), 1) == doctest::Approx(std::log(4.0)).epsilon(1e-12));
}

TEST_CASE("a near-certain prediction keeps its loss and gradient to float precision") {
    // The target leads every other logit by 12 to 20: p_y = 1 − 1.2e-5 … 1 − 2e-9, where float32's
    // p_y (spacing 6e-8 near 1) holds few or none of the digits of 1 − p_y.
    for (const float margin : {12.0f, 16.0f, 20.0f}) {
        CAPTURE(margin);
        const std::vector<float> z = {-1.5f, 0.25f, margin, -3.0f, 0.0f, -0.75f};
        const int y = 2;
        const Reference want = reference(z, y);
        CHECK(relative(nn::cross_entropy(z, y), want.loss) < 1e-8);

        std::vector<float> probs(z.size()), grad(z.size());
        core::softmax(z, probs);
        nn::cross_entropy_backward(probs, y, 1.0f, grad);
        for (std::size_t i = 0; i < z.size(); ++i) {
            CAPTURE(i);
            CHECK(relative(grad[i], want.grad[i]) < 1e-5);
        }
        // What the unstable form gives here: p_y − 1 is off by ≥ 3e-3 relative (often 100 %).
        const double naive = static_cast<double>(probs[y] - 1.0f);
        CHECK(relative(naive, want.grad[y]) > 3e-3);
    }
}

TEST_CASE("the gradient is scaled, may overwrite the probabilities, and sums to zero") {
    std::vector<float> z = {0.3f, -1.2f, 2.0f, 0.0f};
    std::vector<float> probs(z.size());
    core::softmax(z, probs);
    const Reference want = reference(z, 1);
    nn::cross_entropy_backward(probs, 1, 0.25f, probs); // in place
    double sum = 0;
    for (std::size_t i = 0; i < z.size(); ++i) {
        CHECK(probs[i] == doctest::Approx(0.25 * want.grad[i]).epsilon(1e-6));
        sum += probs[i];
    }
    CHECK(std::abs(sum) < 1e-7);
}

TEST_CASE("cross-entropy rejects an empty row, a target out of range and rows of different sizes") {
    const std::vector<float> z = {1, 2};
    std::vector<float> d(3);
    CHECK_THROWS_AS(nn::cross_entropy(std::vector<float>{}, 0), std::invalid_argument);
    CHECK_THROWS_WITH_AS(nn::cross_entropy(z, 2), doctest::Contains("target 2 is outside [0, 2)"),
                         std::invalid_argument);
    CHECK_THROWS_AS(nn::cross_entropy(z, -1), std::invalid_argument);
    CHECK_THROWS_WITH_AS(nn::cross_entropy_backward(z, 0, 1.0f, d), doctest::Contains("3 elements for 2 classes"),
                         std::invalid_argument);
}
