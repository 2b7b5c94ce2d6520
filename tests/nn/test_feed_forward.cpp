#include "nn/feed_forward.hpp"

#include "support/gradcheck.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace apg;
using namespace apg::nn;

namespace {

// d = 2, f = 3, chosen so that pre = x W1ᵀ + b1 = (1, −0.5, 0) for x = (1, −1).
FeedForwardParams hand_made(Activation activation) {
    FeedForwardParams p;
    p.activation = activation;
    p.w1.resize(3, 2);
    p.w1 << 1.0f, 0.0f, //
        0.5f, 1.0f,     //
        1.0f, 1.0f;
    p.b1.resize(3);
    p.b1 << 0.0f, 0.0f, 0.0f;
    p.w2.resize(2, 3);
    p.w2 << 1.0f, 1.0f, 1.0f, //
        2.0f, 0.0f, -1.0f;
    p.b2.resize(2);
    p.b2 << 0.5f, -0.5f;
    return p;
}

} // namespace

TEST_CASE("feed-forward block computes the hand-checked values for ReLU and GELU") {
    Mat x(1, 2);
    x << 1.0f, -1.0f;
    Mat y;
    FeedForwardCache cache;
    SUBCASE("relu") {
        // hidden = relu(1, −0.5, 0) = (1, 0, 0); y = (1 + 0.5, 2 − 0.5)
        feed_forward_forward(hand_made(Activation::relu), x, y, cache);
        CHECK(cache.pre(0, 0) == doctest::Approx(1.0f));
        CHECK(cache.pre(0, 1) == doctest::Approx(-0.5f));
        CHECK(cache.hidden(0, 1) == 0.0f);
        CHECK(y(0, 0) == doctest::Approx(1.5f));
        CHECK(y(0, 1) == doctest::Approx(1.5f));
    }
    SUBCASE("gelu") {
        // GELU(1) = Φ(1) = 0.8413447, GELU(−0.5) = −0.5 Φ(−0.5) = −0.1542687, GELU(0) = 0
        feed_forward_forward(hand_made(Activation::gelu), x, y, cache);
        CHECK(cache.hidden(0, 0) == doctest::Approx(0.8413447f));
        CHECK(cache.hidden(0, 1) == doctest::Approx(-0.1542687f));
        CHECK(cache.hidden(0, 2) == 0.0f);
        CHECK(y(0, 0) == doctest::Approx(0.8413447f - 0.1542687f + 0.5f));
        CHECK(y(0, 1) == doctest::Approx(2.0f * 0.8413447f - 0.5f));
    }
}

TEST_CASE("feed-forward gradients match finite differences for inputs and every parameter") {
    const Eigen::Index n = 3, d = 4, f = 6;
    for (Activation activation : {Activation::gelu, Activation::relu}) {
        CAPTURE(name(activation));
        core::Rng rng(activation == Activation::relu ? 7 : 21);
        FeedForwardParams p = FeedForwardParams::init(d, f, activation, rng);
        Mat x = test::normal_mat(n, d, rng);
        const Mat r = test::normal_mat(n, d, rng);
        Mat y;
        FeedForwardCache cache;
        feed_forward_forward(p, x, y, cache);
        if (activation == Activation::relu) {
            // A difference quotient across ReLU's kink is meaningless: this seed keeps every
            // pre-activation ≥ 0.02 away from 0, more than a step of h = 2.5e-3 can move it.
            REQUIRE(cache.pre.cwiseAbs().minCoeff() > 0.02f);
            REQUIRE((cache.pre.array() < 0.0f).any()); // and some units are off, so the mask is tested
        }
        Mat dx = Mat::Zero(n, d);
        FeedForwardParams grads = p.zeros_like();
        feed_forward_backward(p, x, cache, r, dx, grads);

        auto loss = [&] {
            Mat out;
            FeedForwardCache c;
            feed_forward_forward(p, x, out, c);
            return test::weighted_sum(out, r);
        };
        test::check_gradient("x", view(x), view(dx), loss, test::nonzero_gradient);
        test::check_gradient("w1", view(p.w1), view(grads.w1), loss, test::nonzero_gradient);
        test::check_gradient("b1", view(p.b1), view(grads.b1), loss, test::nonzero_gradient);
        test::check_gradient("w2", view(p.w2), view(grads.w2), loss, test::nonzero_gradient);
        test::check_gradient("b2", view(p.b2), view(grads.b2), loss, test::nonzero_gradient);
    }
}

TEST_CASE("feed-forward block rejects bad shapes with a message naming them") {
    core::Rng rng(1);
    FeedForwardParams p = FeedForwardParams::init(4, 8, Activation::relu, rng);
    Mat y;
    FeedForwardCache cache;
    Mat x = Mat::Zero(2, 3);
    CHECK_THROWS_WITH_AS(feed_forward_forward(p, x, y, cache), "feed_forward_forward: x is 2×3, expected 2×4",
                         std::invalid_argument);
    FeedForwardParams bad = p;
    bad.w2 = Mat::Zero(4, 7);
    Mat x4 = Mat::Zero(2, 4);
    CHECK_THROWS_WITH_AS(feed_forward_forward(bad, x4, y, cache),
                         "feed_forward_forward: parameters do not fit: w1 8×4, b1 8, w2 4×7, b2 4 "
                         "(expected w1 f×d, b1 f, w2 d×f, b2 d with d, f > 0)",
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(parse_activation("tanh"), "unknown activation \"tanh\" (expected relu or gelu)",
                         std::invalid_argument);
    CHECK(parse_activation(name(Activation::gelu)) == Activation::gelu);
}
