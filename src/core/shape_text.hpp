// Shapes as the library's error messages write them: a matrix "3×4", a vector by its length "4",
// a tensor's dimensions "[3, 4]".
#pragma once

#include "core/tensor.hpp"

#include <cstdint>
#include <span>
#include <string>

namespace apg::core {

std::string shape_text(const Mat &m);
std::string shape_text(const Vec &v);
std::string shape_text(Eigen::Index rows, Eigen::Index cols);
std::string shape_text(std::span<const std::int64_t> dims);

} // namespace apg::core
