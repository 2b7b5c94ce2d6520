#include "trace/compare.hpp"

#include <doctest/doctest.h>

#include <limits>

using apg::Mat;
using apg::trace::largest_weight_difference;

TEST_CASE("the largest weight difference is the cell with the largest |a - b|, with both weights") {
    Mat a(2, 3), b(2, 3);
    // binary fractions, so every |Δ| is exact and the tie below is a real tie
    a << 0.5f, 0.25f, 0.25f, //
        0.125f, 0.75f, 0.125f;
    b << 0.375f, 0.375f, 0.25f, //
        0.625f, 0.25f, 0.125f;
    const auto d = largest_weight_difference(a, b);
    // |Δ|: row 0 = 0.125, 0.125, 0; row 1 = 0.5, 0.5, 0 → the first of the two 0.5 cells
    CHECK(d.row == 1);
    CHECK(d.col == 0);
    CHECK(d.value == 0.5f);
    CHECK(d.a == 0.125f);
    CHECK(d.b == 0.625f);
    // ½ (0.125 + 0.125 + 0) = 0.125 and ½ (0.5 + 0.5 + 0) = 0.5: their mean 0.3125
    CHECK(d.mean_distance == 0.3125f);
}

TEST_CASE("the mean distance is 1 for alignments on different positions at every step, 0 for the same") {
    Mat a(2, 2), b(2, 2);
    a << 1.0f, 0.0f, //
        0.0f, 1.0f;
    b << 0.0f, 1.0f, //
        1.0f, 0.0f;
    CHECK(largest_weight_difference(a, b).mean_distance == 1.0f);
    CHECK(largest_weight_difference(a, a).mean_distance == 0.0f);
}

TEST_CASE("two decodes of different lengths are compared over the steps and positions both have") {
    Mat a(3, 2), b(1, 3);
    a << 0.5f, 0.5f, //
        0.0f, 1.0f,  //
        1.0f, 0.0f;  // rows 1 and 2 have no partner in b
    b << 0.5f, 0.25f, 0.25f;
    const auto d = largest_weight_difference(a, b);
    CHECK(d.row == 0);
    CHECK(d.col == 1);
    CHECK(d.value == doctest::Approx(0.25f));
    // over row 0 and columns 0 and 1 only: ½ (0 + 0.25)
    CHECK(d.mean_distance == doctest::Approx(0.125f));
}

TEST_CASE("identical weights differ by 0 at the first cell") {
    Mat a = Mat::Constant(2, 2, 0.5f);
    const auto d = largest_weight_difference(a, a);
    CHECK(d.value == 0.0f);
    CHECK(d.row == 0);
    CHECK(d.col == 0);
}

TEST_CASE("a cell that is not finite is skipped, not reported") {
    Mat a(1, 2), b(1, 2);
    a << std::numeric_limits<float>::quiet_NaN(), 0.75f;
    b << 0.0f, 0.25f;
    const auto d = largest_weight_difference(a, b);
    CHECK(d.col == 1);
    CHECK(d.value == doctest::Approx(0.5f));
}

TEST_CASE("weights with no cell in common are rejected with both shapes") {
    Mat a(0, 3), b(2, 3);
    CHECK_THROWS_WITH_AS(largest_weight_difference(a, b),
                         "weight difference: weights of 0 × 3 and 2 × 3 have no step and source position in common",
                         std::invalid_argument);
}
