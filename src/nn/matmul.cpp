#include "nn/matmul.hpp"

#include "core/kernels_gemm.hpp"
#include "core/shape_text.hpp"

#include <stdexcept>
#include <string>

namespace apg::nn {

namespace {

void fail(const char *op, const CMatMap &a, const CMatMap &b, const MatMap &c) {
    throw std::invalid_argument(std::string(op) + ": shapes do not fit: A " + core::shape_text(a.rows(), a.cols()) +
                                ", B " + core::shape_text(b.rows(), b.cols()) + ", C " +
                                core::shape_text(c.rows(), c.cols()));
}

std::size_t sz(Eigen::Index v) { return static_cast<std::size_t>(v); }

// C (+)= op(A) op(B) with op(A) m × k; the maps are contiguous and row-major.
void product(core::Op op_a, core::Op op_b, const CMatMap &a, const CMatMap &b, MatMap &c, Eigen::Index k,
             bool accumulate) {
    core::gemm(op_a, op_b, {a.data(), sz(a.size())}, {b.data(), sz(b.size())}, {c.data(), sz(c.size())}, sz(c.rows()),
               sz(c.cols()), sz(k), accumulate);
}

} // namespace

void matmul_nt(CMatMap a, CMatMap b, MatMap c, bool accumulate) {
    if (a.cols() != b.cols() || c.rows() != a.rows() || c.cols() != b.rows()) fail("matmul_nt", a, b, c);
    product(core::Op::plain, core::Op::transposed, a, b, c, a.cols(), accumulate);
}

void matmul_nn(CMatMap a, CMatMap b, MatMap c, bool accumulate) {
    if (a.cols() != b.rows() || c.rows() != a.rows() || c.cols() != b.cols()) fail("matmul_nn", a, b, c);
    product(core::Op::plain, core::Op::plain, a, b, c, a.cols(), accumulate);
}

void matmul_tn(CMatMap a, CMatMap b, MatMap c, bool accumulate) {
    if (a.rows() != b.rows() || c.rows() != a.cols() || c.cols() != b.cols()) fail("matmul_tn", a, b, c);
    product(core::Op::transposed, core::Op::plain, a, b, c, a.rows(), accumulate);
}

} // namespace apg::nn
