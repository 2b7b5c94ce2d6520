// The gradient checker itself must be able to fail, or every gradient test built on it proves nothing.
#include "support/gradcheck.hpp"

#include <doctest/doctest.h>

#include <cmath>

using apg::Vec;
using apg::test::gradient_error;
using apg::test::span_of;

TEST_CASE("the gradient checker accepts the true gradient of tanh and rejects a wrong one") {
    Vec x(3);
    x << -0.7f, 0.1f, 1.3f;
    auto loss = [&] {
        double sum = 0;
        for (float v : x) sum += std::tanh(static_cast<double>(v));
        return sum;
    };
    Vec exact(3);
    for (int i = 0; i < 3; ++i) exact[i] = 1.0f - std::tanh(x[i]) * std::tanh(x[i]);
    CHECK(gradient_error(span_of(x), span_of(exact), loss) <= 1.0);

    SUBCASE("a gradient 5% too large fails") {
        const Vec wrong = 1.05f * exact;
        CHECK(gradient_error(span_of(x), span_of(wrong), loss) > 1.0);
    }
    SUBCASE("a gradient with one element zeroed fails") {
        Vec wrong = exact;
        wrong[1] = 0.0f;
        CHECK(gradient_error(span_of(x), span_of(wrong), loss) > 1.0);
    }
}

TEST_CASE("the composed budget still rejects a gradient 5% off, and the expectations hold their tensor to them") {
    Vec x(4);
    x << -1.2f, -0.3f, 0.4f, 2.0f;
    // A loss of order 10, like a model's summed cross-entropy.
    auto loss = [&] {
        double sum = 0;
        for (float v : x) sum += 10 * std::log1p(std::exp(static_cast<double>(v)));
        return sum;
    };
    Vec exact(4);
    for (int i = 0; i < 4; ++i) exact[i] = 10.0f / (1.0f + std::exp(-x[i]));
    const auto composed = apg::test::GradCheck::composed();
    CHECK(gradient_error(span_of(x), span_of(exact), loss, composed) <= 1.0);
    const Vec wrong = 1.05f * exact;
    CHECK(gradient_error(span_of(x), span_of(wrong), loss, composed) > 1.0);
    // Every other entry, when told to check at most half of them: a wrong entry 1 goes unseen,
    // a wrong entry 2 does not. "Somewhere nonzero" reads every entry, checked or not.
    Vec odd = exact;
    odd[1] *= 1.05f;
    CHECK(gradient_error(span_of(x), span_of(odd), loss, apg::test::GradCheck::composed(2)) <= 1.0);
    Vec even = exact;
    even[2] *= 1.05f;
    CHECK(gradient_error(span_of(x), span_of(even), loss, apg::test::GradCheck::composed(2)) > 1.0);
    CHECK(apg::test::gradient_report(span_of(x), span_of(exact), loss, apg::test::GradCheck::composed(2)).largest ==
          doctest::Approx(exact.cwiseAbs().maxCoeff()));
}
