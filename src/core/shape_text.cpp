#include "core/shape_text.hpp"

#include "core/small.hpp"

namespace apg::core {

// Out of line and small: only error paths call these.
APG_SMALL std::string shape_text(Eigen::Index rows, Eigen::Index cols) {
    return std::to_string(rows) + "×" + std::to_string(cols);
}

APG_SMALL std::string shape_text(const Mat &m) { return shape_text(m.rows(), m.cols()); }

APG_SMALL std::string shape_text(const Vec &v) { return std::to_string(v.size()); }

APG_SMALL std::string shape_text(std::span<const std::int64_t> dims) {
    std::string text = "[";
    for (std::size_t i = 0; i < dims.size(); ++i) text += (i ? ", " : "") + std::to_string(dims[i]);
    return text + "]";
}

} // namespace apg::core
