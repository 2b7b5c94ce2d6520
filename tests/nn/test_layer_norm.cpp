#include "nn/layer_norm.hpp"

#include "support/gradcheck.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

using namespace apg;
using namespace apg::nn;

TEST_CASE("layer norm of a known row matches the hand computation") {
    LayerNormParams p = LayerNormParams::init(4, 1e-5f);
    p.gain << 1.0f, 2.0f, 1.0f, 0.5f;
    p.bias << 0.0f, 0.0f, 1.0f, -1.0f;
    Mat x(2, 4);
    x << 1, 2, 3, 4, //
        5, 5, 5, 5;
    Mat y;
    LayerNormCache cache;
    layer_norm_forward(p, x, y, cache);
    // Row 0: μ = 2.5, σ² = 1.25, 1/σ = 0.894427; x̂ = (−1.5, −0.5, 0.5, 1.5) · 0.894427
    // = (−1.341641, −0.447214, 0.447214, 1.341641); y = gain ⊙ x̂ + bias.
    CHECK(cache.inv_std(0) == doctest::Approx(0.894427f).epsilon(1e-5));
    CHECK(y(0, 0) == doctest::Approx(-1.341641f).epsilon(1e-5));
    CHECK(y(0, 1) == doctest::Approx(-0.894427f).epsilon(1e-5));
    CHECK(y(0, 2) == doctest::Approx(1.447214f).epsilon(1e-5));
    CHECK(y(0, 3) == doctest::Approx(-0.329180f).epsilon(1e-5));
    // Row 1 is constant: x̂ = 0 and y = bias; 1/√eps = 316.2278.
    CHECK(cache.inv_std(1) == doctest::Approx(316.2278f).epsilon(1e-4));
    for (int j = 0; j < 4; ++j) CHECK(y(1, j) == doctest::Approx(p.bias(j)));
}

TEST_CASE("layer norm with unit gain and zero bias gives rows of mean 0 and variance 1") {
    core::Rng rng(7);
    Mat x = test::normal_mat(5, 16, rng, 3.0f);
    x.array() += 100.0f; // a large common offset must not spoil the variance
    Mat y;
    LayerNormCache cache;
    layer_norm_forward(LayerNormParams::init(16), x, y, cache);
    for (Eigen::Index i = 0; i < y.rows(); ++i) {
        CHECK(y.row(i).mean() == doctest::Approx(0.0f).epsilon(1e-4).scale(1.0));
        CHECK(y.row(i).squaredNorm() / 16.0f == doctest::Approx(1.0f).epsilon(1e-3));
    }
}

TEST_CASE("layer norm gradients match finite differences for inputs, gain and bias") {
    core::Rng rng(11);
    const Eigen::Index n = 3, d = 5;
    LayerNormParams p = LayerNormParams::init(d);
    p.gain = test::normal_vec(d, rng);
    p.bias = test::normal_vec(d, rng);
    Mat x = test::normal_mat(n, d, rng, 2.0f);
    const Mat r = test::normal_mat(n, d, rng);

    Mat y;
    LayerNormCache cache;
    layer_norm_forward(p, x, y, cache);
    Mat dx = Mat::Zero(n, d);
    LayerNormParams grads = p.zeros_like();
    layer_norm_backward(p, cache, r, dx, grads);

    auto loss = [&] {
        Mat out;
        LayerNormCache c;
        layer_norm_forward(p, x, out, c);
        return test::weighted_sum(out, r);
    };
    test::check_gradient("x", view(x), view(dx), loss, test::nonzero_gradient);
    test::check_gradient("gain", view(p.gain), view(grads.gain), loss, test::nonzero_gradient);
    test::check_gradient("bias", view(p.bias), view(grads.bias), loss, test::nonzero_gradient);
}

TEST_CASE("layer norm backward accumulates into its outputs") {
    core::Rng rng(3);
    LayerNormParams p = LayerNormParams::init(4);
    Mat x = test::normal_mat(2, 4, rng), y;
    const Mat dy = test::normal_mat(2, 4, rng);
    LayerNormCache cache;
    layer_norm_forward(p, x, y, cache);
    Mat once = Mat::Zero(2, 4), twice = Mat::Zero(2, 4);
    LayerNormParams g1 = p.zeros_like(), g2 = p.zeros_like();
    layer_norm_backward(p, cache, dy, once, g1);
    layer_norm_backward(p, cache, dy, twice, g2);
    layer_norm_backward(p, cache, dy, twice, g2);
    CHECK((twice - 2.0f * once).norm() <= 1e-5f * once.norm());
    CHECK((g2.gain - 2.0f * g1.gain).norm() <= 1e-5f * g1.gain.norm());
    CHECK(once.norm() > 0.0f);
}

TEST_CASE("layer norm rejects bad shapes with a message naming them") {
    LayerNormParams p = LayerNormParams::init(5);
    Mat y;
    LayerNormCache cache;
    Mat x = Mat::Zero(3, 4);
    CHECK_THROWS_WITH_AS(layer_norm_forward(p, x, y, cache), "layer_norm_forward: x is 3×4, expected 3×5",
                         std::invalid_argument);
    LayerNormParams uneven = p;
    uneven.bias = Vec::Zero(4);
    Mat x5 = Mat::Zero(3, 5);
    CHECK_THROWS_WITH_AS(layer_norm_forward(uneven, x5, y, cache),
                         "layer_norm_forward: gain has 5 elements and bias 4, expected the same positive size",
                         std::invalid_argument);
    layer_norm_forward(p, x5, y, cache);
    Mat dx = Mat::Zero(3, 5), dy = Mat::Zero(2, 5);
    LayerNormParams grads = p.zeros_like();
    CHECK_THROWS_WITH_AS(layer_norm_backward(p, cache, dy, dx, grads), "layer_norm_backward: dy is 2×5, expected 3×5",
                         std::invalid_argument);
}
