#include "trace/compare.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace apg::trace {

WeightDifference largest_weight_difference(const Mat &a, const Mat &b) {
    const Eigen::Index rows = std::min(a.rows(), b.rows());
    const Eigen::Index cols = std::min(a.cols(), b.cols());
    const auto shape = [](const Mat &m) { return std::to_string(m.rows()) + " × " + std::to_string(m.cols()); };
    if (rows == 0 || cols == 0)
        throw std::invalid_argument("weight difference: weights of " + shape(a) + " and " + shape(b) +
                                    " have no step and source position in common");
    WeightDifference out;
    bool found = false;
    double distance = 0; // summed in double: the mean stays exact to float over long decodes
    for (Eigen::Index i = 0; i < rows; ++i)
        for (Eigen::Index j = 0; j < cols; ++j) {
            const float d = std::abs(a(i, j) - b(i, j));
            if (!std::isfinite(d)) continue;
            distance += d;
            if (found && !(d > out.value)) continue;
            out = {d, static_cast<int>(i), static_cast<int>(j), a(i, j), b(i, j)};
            found = true;
        }
    out.mean_distance = static_cast<float>(0.5 * distance / static_cast<double>(rows));
    return out;
}

} // namespace apg::trace
