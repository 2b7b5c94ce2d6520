#include "nn/positional_encoding.hpp"

#include "core/shape_text.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace apg::nn {

Mat positional_encoding(Eigen::Index n, Eigen::Index d) {
    if (n < 0 || d <= 0)
        throw std::invalid_argument("positional_encoding: asked for " + core::shape_text(n, d) +
                                    ", expected n ≥ 0 positions and d > 0 columns");
    Mat pe(n, d);
    for (Eigen::Index i = 0; 2 * i < d; ++i) {
        // In double: at p ~ 100 the angle needs more than float's 7 digits to give the same sin everywhere.
        const double inv_wavelength = std::pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(d));
        for (Eigen::Index p = 0; p < n; ++p) {
            const double angle = static_cast<double>(p) * inv_wavelength;
            pe(p, 2 * i) = static_cast<float>(std::sin(angle));
            if (2 * i + 1 < d) pe(p, 2 * i + 1) = static_cast<float>(std::cos(angle));
        }
    }
    return pe;
}

void add_positional_encoding(Mat &x) { x += positional_encoding(x.rows(), x.cols()); }

} // namespace apg::nn
