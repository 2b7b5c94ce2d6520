#include "nn/positional_encoding.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace apg;
using namespace apg::nn;

TEST_CASE("positional encodings have the hand-computed sin and cos values") {
    const Mat pe = positional_encoding(4, 4);
    // Column pair 0 has wavelength 2π (rate 1); pair 1 has rate 10000^(−2/4) = 0.01.
    for (int j = 0; j < 4; ++j) CHECK(pe(0, j) == doctest::Approx(j % 2 == 0 ? 0.0f : 1.0f));
    CHECK(pe(1, 0) == doctest::Approx(0.8414710f));  // sin 1
    CHECK(pe(1, 1) == doctest::Approx(0.5403023f));  // cos 1
    CHECK(pe(1, 2) == doctest::Approx(0.0099998f));  // sin 0.01
    CHECK(pe(1, 3) == doctest::Approx(0.9999500f));  // cos 0.01
    CHECK(pe(3, 0) == doctest::Approx(0.1411200f));  // sin 3
    CHECK(pe(3, 1) == doctest::Approx(-0.9899925f)); // cos 3
    CHECK(pe(3, 2) == doctest::Approx(0.0299955f));  // sin 0.03
}

TEST_CASE("an odd model size ends with a lone sin column") {
    const Mat pe = positional_encoding(3, 5);
    // Pair 2 (column 4) has rate 10000^(−4/5) = 6.309573e-4.
    CHECK(pe(2, 4) == doctest::Approx(0.0012619f).epsilon(1e-4)); // sin(2 · 6.309573e-4)
    CHECK(pe(2, 3) == doctest::Approx(0.9987384f).epsilon(1e-5)); // cos(2 · 10000^(−2/5)) = cos(0.0502377)
}

TEST_CASE("adding positional encodings shifts each row by its position's code") {
    Mat x = Mat::Constant(3, 6, 2.0f);
    add_positional_encoding(x);
    const Mat pe = positional_encoding(3, 6);
    CHECK(((x - pe).array() - 2.0f).abs().maxCoeff() <= 2e-7f); // one float rounding of 2 + pe
    CHECK(x.row(1) != x.row(2));
}

TEST_CASE("positional encodings reject a non-positive model size") {
    CHECK_THROWS_WITH_AS(positional_encoding(3, 0),
                         "positional_encoding: asked for 3×0, expected n ≥ 0 positions and d > 0 columns",
                         std::invalid_argument);
}
