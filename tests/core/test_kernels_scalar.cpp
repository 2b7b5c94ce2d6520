#include "core/kernels.hpp"

#include <doctest/doctest.h>

#include <vector>

TEST_CASE("softmax of equal scores is uniform") {
    std::vector<float> x{2.0f, 2.0f, 2.0f, 2.0f}, y(4);
    apg::core::scalar::softmax(x, y);
    for (float v : y) CHECK(v == doctest::Approx(0.25f));
}
