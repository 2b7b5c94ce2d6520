#include "attention/cosine_bound.hpp"

#include "attention/score.hpp"
#include "attention/step.hpp"
#include "core/error.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

using namespace apg;
using apg::attention::cosine_weight_bound;

TEST_CASE("the cosine weight bound is e^{2g} / (e^{2g} + n - 1), computed by hand") {
    CHECK(cosine_weight_bound(1) == 1.0);
    CHECK(cosine_weight_bound(3) == doctest::Approx(0.7869860421615985).epsilon(1e-14));
    CHECK(cosine_weight_bound(4) == doctest::Approx(0.7112345942275938).epsilon(1e-14));
    CHECK(cosine_weight_bound(10) == doctest::Approx(0.4508530603792838).epsilon(1e-14));
    CHECK(cosine_weight_bound(10, 2.0) == doctest::Approx(0.858486449758214).epsilon(1e-14));
    CHECK(cosine_weight_bound(3, 0.0) == doctest::Approx(1.0 / 3).epsilon(1e-14)); // no scale: uniform
    CHECK(cosine_weight_bound(10, -2.0) == cosine_weight_bound(10, 2.0));
    CHECK(cosine_weight_bound(1000, 400.0) == 1.0); // no overflow to NaN
}

TEST_CASE("cosine attention reaches the bound when one key points along the query and the rest against it") {
    Vec q(2);
    q << 3, 4;
    Mat keys(4, 2);
    keys << 6, 8, -3, -4, -0.3f, -0.4f, -9, -12;
    attention::ScoreParams params;
    params.kind = attention::ScoreKind::cosine;
    const auto step = attention::attend(params, q, keys, keys);
    CHECK(step.weights[0] == doctest::Approx(cosine_weight_bound(4)).epsilon(1e-6));
    // and no arrangement does better: a random one stays under it
    Mat other(4, 2);
    other << 1, 0, 0, 1, -1, 1, 2, -1;
    const auto again = attention::attend(params, q, other, other);
    CHECK(again.weights.maxCoeff() < cosine_weight_bound(4));
}

TEST_CASE("the cosine weight bound refuses no keys and a scale that is not a number") {
    CHECK_THROWS_AS(cosine_weight_bound(0), std::invalid_argument);
    try {
        cosine_weight_bound(0);
    } catch (const Error &e) {
        CHECK(e.code() == ErrorCode::bad_argument);
    }
    CHECK_THROWS_AS(cosine_weight_bound(3, std::nan("")), InputError);
    CHECK_THROWS_AS(cosine_weight_bound(3, INFINITY), InputError);
}
