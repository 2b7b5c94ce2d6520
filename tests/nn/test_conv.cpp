#include "nn/conv.hpp"

#include "support/gradcheck.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace apg;
using namespace apg::nn;

namespace {

// The convolution written out as its definition: seven loops, no patches, no products.
Mat direct_conv(const Conv2dParams &p, const Conv2dShape &s, const Mat &x, int batch) {
    const int Ho = s.out_height(), Wo = s.out_width();
    Mat y(static_cast<Eigen::Index>(batch) * Ho * Wo, s.out_channels);
    for (int b = 0; b < batch; ++b)
        for (int oy = 0; oy < Ho; ++oy)
            for (int ox = 0; ox < Wo; ++ox)
                for (int o = 0; o < s.out_channels; ++o) {
                    double sum = p.b(o);
                    for (int ky = 0; ky < s.kernel; ++ky)
                        for (int kx = 0; kx < s.kernel; ++kx)
                            for (int c = 0; c < s.in_channels; ++c) {
                                const int iy = oy * s.stride + ky - s.padding, ix = ox * s.stride + kx - s.padding;
                                if (iy < 0 || iy >= s.height || ix < 0 || ix >= s.width) continue;
                                sum += static_cast<double>(p.w(o, (ky * s.kernel + kx) * s.in_channels + c)) *
                                       x((b * s.height + iy) * s.width + ix, c);
                            }
                    y((b * Ho + oy) * Wo + ox, o) = static_cast<float>(sum);
                }
    return y;
}

// The odd sizes of every test: 7 rows × 5 columns, 3 channels, stride 2, padding 1, two images.
Conv2dShape odd_shape() {
    Conv2dShape s;
    s.height = 7;
    s.width = 5;
    s.in_channels = 3;
    s.out_channels = 4;
    s.kernel = 3;
    s.stride = 2;
    s.padding = 1;
    return s;
}

double weighted_sum(const Mat &y, const Mat &r) { return (y.cast<double>().array() * r.cast<double>().array()).sum(); }

} // namespace

TEST_CASE("conv2d output size follows (H + 2p − k) / s + 1") {
    const Conv2dShape s = odd_shape();
    CHECK(s.out_height() == 4); // (7 + 2 − 3) / 2 + 1
    CHECK(s.out_width() == 3);  // (5 + 2 − 3) / 2 + 1
    CHECK(s.patch() == 27);
}

TEST_CASE("conv2d through im2col and the matmul kernels equals the direct convolution") {
    core::Rng rng(3);
    for (int stride : {1, 2})
        for (int padding : {0, 1, 2}) {
            Conv2dShape s = odd_shape();
            s.kernel = 3;
            s.stride = stride;
            s.padding = padding;
            const Conv2dParams p = Conv2dParams::init(s, rng);
            const Mat x = test::normal_mat(2 * 7 * 5, 3, rng);
            Mat y;
            Conv2dCache cache;
            conv2d_forward(p, s, x, 2, y, cache);
            const Mat want = direct_conv(p, s, x, 2);
            INFO("stride " << stride << ", padding " << padding);
            REQUIRE(y.rows() == want.rows());
            CHECK((y - want).cwiseAbs().maxCoeff() < 1e-5f);
        }
}

TEST_CASE("conv2d of a hand-computed case: a 3x3 sum kernel over a ramp") {
    Conv2dShape s;
    s.height = 3;
    s.width = 3;
    s.in_channels = 1;
    s.out_channels = 1;
    s.kernel = 3;
    s.padding = 1;
    Conv2dParams p = core::zeros<Conv2dParams>(s);
    p.w.setOnes();
    p.b(0) = 0.5f;
    Mat x(9, 1);
    x << 1, 2, 3, 4, 5, 6, 7, 8, 9;
    Mat y;
    Conv2dCache cache;
    conv2d_forward(p, s, x, 1, y, cache);
    // corner (0,0): 1+2+4+5 = 12; centre: 45; edge (0,1): 1+2+3+4+5+6 = 21; plus the bias
    CHECK(y(0, 0) == doctest::Approx(12.5f));
    CHECK(y(1, 0) == doctest::Approx(21.5f));
    CHECK(y(4, 0) == doctest::Approx(45.5f));
    CHECK(y(8, 0) == doctest::Approx(5 + 6 + 8 + 9 + 0.5f));
}

TEST_CASE("conv2d gradients match finite differences at odd sizes (7x5, 3 channels, stride 2, padding 1)") {
    core::Rng rng(5);
    const Conv2dShape s = odd_shape();
    Conv2dParams p = Conv2dParams::init(s, rng);
    p.b = test::normal_vec(s.out_channels, rng);
    Mat x = test::normal_mat(2 * 7 * 5, 3, rng);
    const Mat r = test::normal_mat(2 * s.out_height() * s.out_width(), s.out_channels, rng);
    auto loss = [&] {
        Mat y;
        Conv2dCache c;
        conv2d_forward(p, s, x, 2, y, c);
        return weighted_sum(y, r);
    };
    Mat y;
    Conv2dCache cache;
    conv2d_forward(p, s, x, 2, y, cache);
    Conv2dParams grads = core::zeros<Conv2dParams>(s);
    Mat dx;
    conv2d_backward(p, s, cache, r, grads, &dx);
    test::check_gradient("w", view(p.w), view(grads.w), loss, test::GradCheck::composed(40));
    test::check_gradient("b", view(p.b), view(grads.b), loss, test::GradCheck::composed(24));
    test::check_gradient("x", view(x), view(dx), loss, test::GradCheck::composed(70));
}

TEST_CASE("conv2d backward accumulates the weight gradients") {
    core::Rng rng(9);
    const Conv2dShape s = odd_shape();
    const Conv2dParams p = Conv2dParams::init(s, rng);
    const Mat x = test::normal_mat(7 * 5, 3, rng);
    const Mat r = test::normal_mat(s.out_height() * s.out_width(), s.out_channels, rng);
    Mat y;
    Conv2dCache cache;
    conv2d_forward(p, s, x, 1, y, cache);
    Conv2dParams once = core::zeros<Conv2dParams>(s), twice = core::zeros<Conv2dParams>(s);
    conv2d_backward(p, s, cache, r, once, nullptr);
    conv2d_backward(p, s, cache, r, twice, nullptr);
    conv2d_backward(p, s, cache, r, twice, nullptr);
    CHECK((twice.w - 2 * once.w).cwiseAbs().maxCoeff() < 1e-5f);
    CHECK((twice.b - 2 * once.b).cwiseAbs().maxCoeff() < 1e-5f);
}

TEST_CASE("relu forward and backward") {
    Mat x(2, 3);
    x << -1, 0, 2, //
        3, -0.5f, 0.25f;
    Mat y;
    relu_forward(x, y);
    Mat want(2, 3);
    want << 0, 0, 2, 3, 0, 0.25f;
    CHECK(y == want);
    Mat dy = Mat::Constant(2, 3, 7.0f), dx;
    relu_backward(y, dy, dx);
    Mat dwant(2, 3);
    dwant << 0, 0, 7, 7, 0, 7;
    CHECK(dx == dwant);
}

TEST_CASE("max and average pooling of a hand-computed 5x3 image (the last row dropped)") {
    PoolShape s;
    s.height = 5;
    s.width = 3;
    s.channels = 1;
    s.size = 2;
    Mat x(15, 1);
    x << 1, 9, 0,  //
        3, 2, 0,   //
        -1, -2, 0, //
        -4, -3, 0, //
        8, 8, 8;
    Mat y;
    PoolCache cache;
    pool_forward(s, x, 1, y, cache);
    REQUIRE(y.rows() == 2);
    CHECK(y(0, 0) == 9.0f);
    CHECK(y(1, 0) == -1.0f);
    Mat dx;
    pool_backward(s, cache, Mat::Constant(2, 1, 1.0f), dx);
    CHECK(dx(1, 0) == 1.0f); // the 9
    CHECK(dx(6, 0) == 1.0f); // the −1
    CHECK(dx.sum() == 2.0f);
    s.kind = PoolKind::average;
    pool_forward(s, x, 1, y, cache);
    CHECK(y(0, 0) == doctest::Approx(15.0f / 4));
    CHECK(y(1, 0) == doctest::Approx(-10.0f / 4));
}

TEST_CASE("pooling gradients match finite differences at odd sizes (7x5, 3 channels)") {
    for (PoolKind kind : {PoolKind::max, PoolKind::average}) {
        core::Rng rng(13);
        PoolShape s;
        s.height = 7;
        s.width = 5;
        s.channels = 3;
        s.size = 2;
        s.kind = kind;
        // Values far apart (steps of 0.1 over a shuffled ramp) so ±ε never changes a window's maximum.
        Mat x(2 * 35, 3);
        for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = 0.1f * static_cast<float>(i);
        for (Eigen::Index i = x.size() - 1; i > 0; --i)
            std::swap(x.data()[i], x.data()[rng.below(static_cast<std::uint64_t>(i) + 1)]);
        const Mat r = test::normal_mat(2 * 3 * 2, 3, rng);
        auto loss = [&] {
            Mat y;
            PoolCache c;
            pool_forward(s, x, 2, y, c);
            return weighted_sum(y, r);
        };
        Mat y, dx;
        PoolCache cache;
        pool_forward(s, x, 2, y, cache);
        pool_backward(s, cache, r, dx);
        INFO((kind == PoolKind::max ? "max" : "average"));
        test::check_gradient("x", view(x), view(dx), loss, test::GradCheck::composed(210));
    }
}

TEST_CASE("conv and pool shapes out of bounds are refused") {
    Conv2dShape s = odd_shape();
    s.padding = 3;
    CHECK_THROWS_AS(s.validate(), std::invalid_argument);
    s = odd_shape();
    s.stride = 0;
    CHECK_THROWS_AS(s.validate(), std::invalid_argument);
    s = odd_shape();
    core::Rng rng(1);
    const Conv2dParams p = Conv2dParams::init(s, rng);
    Mat y;
    Conv2dCache cache;
    CHECK_THROWS_AS(conv2d_forward(p, s, Mat::Zero(34, 3), 1, y, cache), std::invalid_argument);
    PoolShape q;
    q.height = 1;
    q.width = 5;
    q.channels = 1;
    CHECK_THROWS_AS(q.validate(), std::invalid_argument);
}
