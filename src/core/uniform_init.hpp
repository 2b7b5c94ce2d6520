// The initialisation of the score functions' and self-attention's weights: uniform in ±1/√fan_in,
// the fan-in being the number of columns (the input size of a row-major W x).
#pragma once

#include "core/rng.hpp"
#include "core/tensor.hpp"

#include <algorithm>
#include <cmath>

namespace apg::core {

inline Mat uniform_matrix(Eigen::Index rows, Eigen::Index cols, Rng &rng) {
    const float bound = 1.0f / std::sqrt(static_cast<float>(std::max<Eigen::Index>(cols, 1)));
    Mat m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = rng.uniform(-bound, bound);
    return m;
}

} // namespace apg::core
