#include "attention/softmax_terms.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using apg::Vec;
using namespace apg::attention;

TEST_CASE("softmax terms of the running example spell out 0.6 / 0.2 / 0.2") {
    Vec e(3);
    e << std::log(3.0f), 0.0f, 0.0f; // exp: 3, 1, 1 → sum 5
    const SoftmaxTerms t = softmax_terms(e);
    CHECK(t.max_score == doctest::Approx(std::log(3.0f)));
    // shifted by the maximum: exp(0) = 1, exp(−ln 3) = 1/3
    CHECK(t.exps[0] == doctest::Approx(1.0f));
    CHECK(t.exps[1] == doctest::Approx(1.0f / 3));
    CHECK(t.exp_sum == doctest::Approx(5.0f / 3));
    CHECK(t.exps[0] / t.exp_sum == doctest::Approx(0.6f));
    // −(0.6 ln 0.6 + 2 · 0.2 ln 0.2) = 0.950271
    CHECK(t.entropy == doctest::Approx(0.950271f).epsilon(1e-5));
    CHECK(t.max_entropy == doctest::Approx(std::log(3.0f)));
}

TEST_CASE("the terms divide to the weights the step computes, at any temperature and mask") {
    Vec q(2), e(4);
    q << 1, 0;
    e << 2.0f, -1.0f, 0.5f, 3.0f;
    const std::vector<std::uint8_t> mask{1, 1, 0, 1};
    for (float tau : {0.25f, 1.0f, 4.0f}) {
        StepOptions options{mask, tau};
        const SoftmaxTerms t = softmax_terms(e, options);
        Vec weights(4);
        apg::core::softmax(apg::view(e), apg::view(weights), mask, tau);
        for (int j = 0; j < 4; ++j) CHECK(t.exps[j] / t.exp_sum == doctest::Approx(weights[j]).epsilon(1e-6));
        CHECK(t.exps[2] == 0.0f);
        CHECK(t.max_entropy == doctest::Approx(std::log(3.0f)));
    }
}

TEST_CASE("a higher temperature raises the entropy towards its maximum") {
    Vec e(3);
    e << 3.0f, 1.0f, 0.0f;
    float previous = -1;
    for (float tau : {0.1f, 0.5f, 1.0f, 2.0f, 10.0f, 1000.0f}) {
        const float h = softmax_terms(e, {{}, tau}).entropy;
        CHECK(h > previous);
        previous = h;
    }
    CHECK(previous == doctest::Approx(std::log(3.0f)).epsilon(1e-3));
    CHECK(softmax_terms(e, {{}, 0.01f}).entropy == doctest::Approx(0.0f).epsilon(1e-6));
}

TEST_CASE("softmax terms refuse what the softmax refuses") {
    Vec e(2);
    e << 1, 2;
    const std::vector<std::uint8_t> none{0, 0}, short_mask{1};
    CHECK_THROWS_AS(softmax_terms(e, {none, 1.0f}), std::invalid_argument);
    CHECK_THROWS_AS(softmax_terms(e, {short_mask, 1.0f}), std::invalid_argument);
    CHECK_THROWS_AS(softmax_terms(e, {{}, 0.0f}), std::invalid_argument);
}
