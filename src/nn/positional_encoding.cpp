#include "nn/positional_encoding.hpp"

#include "core/shape_text.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace apg::nn {

namespace {

// sin and cos of p / 10000^(2i/d) into columns 2i and 2i + 1 of `out` (d values), for each i.
// In double: at p ~ 100 the angle needs more than float's 7 digits to give the same sin everywhere.
template <class InvWavelength> void fill_row(Eigen::Index p, core::fspan out, InvWavelength inv_wavelength) {
    const auto d = static_cast<Eigen::Index>(out.size());
    for (Eigen::Index i = 0; 2 * i < d; ++i) {
        const double angle = static_cast<double>(p) * inv_wavelength(i);
        out[static_cast<std::size_t>(2 * i)] = static_cast<float>(std::sin(angle));
        if (2 * i + 1 < d) out[static_cast<std::size_t>(2 * i + 1)] = static_cast<float>(std::cos(angle));
    }
}

double inv_wavelength(Eigen::Index i, Eigen::Index d) {
    return std::pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(d));
}

} // namespace

Mat positional_encoding(Eigen::Index n, Eigen::Index d) {
    if (n < 0 || d <= 0)
        throw std::invalid_argument("positional_encoding: asked for " + core::shape_text(n, d) +
                                    ", expected n ≥ 0 positions and d > 0 columns");
    std::vector<double> inv((static_cast<std::size_t>(d) + 1) / 2);
    for (std::size_t i = 0; i < inv.size(); ++i) inv[i] = inv_wavelength(static_cast<Eigen::Index>(i), d);
    Mat pe(n, d);
    for (Eigen::Index p = 0; p < n; ++p) fill_row(p, row(pe, p), [&](Eigen::Index i) { return inv[i]; });
    return pe;
}

void positional_encoding_row(Eigen::Index p, core::fspan out) {
    const auto d = static_cast<Eigen::Index>(out.size());
    fill_row(p, out, [d](Eigen::Index i) { return inv_wavelength(i, d); });
}

void add_positional_encoding(Mat &x) { x += positional_encoding(x.rows(), x.cols()); }

} // namespace apg::nn
