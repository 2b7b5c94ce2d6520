// The gradient checker itself must be able to fail, or every gradient test built on it proves nothing.
#include "gradcheck.hpp"

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
