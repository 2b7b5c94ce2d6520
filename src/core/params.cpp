#include "core/params.hpp"

#include <stdexcept>

namespace apg::core {

std::string ParamList::path(std::string_view name) const {
    return prefix_.empty() ? std::string(name) : prefix_ + "." + std::string(name);
}

void ParamList::mismatch(std::string_view name, const std::string &has, const std::string &want) const {
    throw std::logic_error(path(name) + " is " + has + ", its config wants " + want);
}

void ParamList::add(std::string_view name, Mat &m, Eigen::Index rows, Eigen::Index cols) {
    if (zeroing()) {
        m.setZero(rows, cols);
        return;
    }
    if (mode_ == Mode::shape) {
        out_->push_back({path(name), {rows, cols}, {}});
        return;
    }
    if (m.rows() != rows || m.cols() != cols)
        mismatch(name, std::to_string(m.rows()) + "x" + std::to_string(m.cols()),
                 std::to_string(rows) + "x" + std::to_string(cols));
    out_->push_back({path(name), {rows, cols}, view(m)});
}

void ParamList::add(std::string_view name, Vec &v, Eigen::Index size) {
    if (zeroing()) {
        v.setZero(size);
        return;
    }
    if (mode_ == Mode::shape) {
        out_->push_back({path(name), {size}, {}});
        return;
    }
    if (v.size() != size) mismatch(name, std::to_string(v.size()) + " long", std::to_string(size));
    out_->push_back({path(name), {size}, view(v)});
}

void ParamList::setting(std::string_view name, int &value, int want) {
    if (mode_ != Mode::view)
        value = want;
    else if (value != want)
        mismatch(name, std::to_string(value), std::to_string(want));
}

void ParamList::setting(std::string_view name, float &value, float want) {
    if (mode_ != Mode::view)
        value = want;
    else if (value != want)
        mismatch(name, std::to_string(value), std::to_string(want));
}

} // namespace apg::core
