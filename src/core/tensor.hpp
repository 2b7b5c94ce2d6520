// The matrix and vector types of the model code (Eigen, row-major, float32) and views of them
// as the spans the kernels take.
#pragma once

#include "core/kernels.hpp"

#include <Eigen/Core>

namespace apg {

using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vec = Eigen::VectorXf;

inline core::cfspan view(const Mat &m) { return {m.data(), static_cast<std::size_t>(m.size())}; }
inline core::fspan view(Mat &m) { return {m.data(), static_cast<std::size_t>(m.size())}; }
inline core::cfspan view(const Vec &v) { return {v.data(), static_cast<std::size_t>(v.size())}; }
inline core::fspan view(Vec &v) { return {v.data(), static_cast<std::size_t>(v.size())}; }
// Row i of a row-major matrix.
inline core::cfspan row(const Mat &m, Eigen::Index i) {
    return {m.data() + i * m.cols(), static_cast<std::size_t>(m.cols())};
}
inline core::fspan row(Mat &m, Eigen::Index i) { return {m.data() + i * m.cols(), static_cast<std::size_t>(m.cols())}; }

} // namespace apg
