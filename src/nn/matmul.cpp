#include "nn/matmul.hpp"

#include "core/shape_text.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#if defined(__EMSCRIPTEN__)
#define APG_MATMUL_CORE 1
#else
#define APG_MATMUL_CORE 0
#endif

namespace apg::nn {

namespace {

void fail(const char *op, const CMatMap &a, const CMatMap &b, const MatMap &c) {
    throw std::invalid_argument(std::string(op) + ": shapes do not fit: A " + core::shape_text(a.rows(), a.cols()) +
                                ", B " + core::shape_text(b.rows(), b.cols()) + ", C " +
                                core::shape_text(c.rows(), c.cols()));
}

#if APG_MATMUL_CORE
// Scratch for the accumulate and transpose paths; grows once, then reused (no allocation per call).
std::vector<float> &scratch(std::size_t n) {
    static std::vector<float> buffer;
    if (buffer.size() < n) buffer.resize(n);
    return buffer;
}
std::vector<float> &scratch2(std::size_t n) {
    static std::vector<float> buffer;
    if (buffer.size() < n) buffer.resize(n);
    return buffer;
}
std::size_t sz(Eigen::Index v) { return static_cast<std::size_t>(v); }
#endif

} // namespace

void matmul_nt(CMatMap a, CMatMap b, MatMap c, bool accumulate) {
    if (a.cols() != b.cols() || c.rows() != a.rows() || c.cols() != b.rows()) fail("matmul_nt", a, b, c);
    if (c.size() == 0) return;
    if (a.cols() == 0) {
        if (!accumulate) c.setZero();
        return;
    }
#if APG_MATMUL_CORE
    const std::size_t m = sz(a.rows()), n = sz(b.rows()), k = sz(a.cols());
    core::cfspan as{a.data(), m * k}, bs{b.data(), n * k};
    if (!accumulate) {
        core::gemm_nt(as, bs, {c.data(), m * n}, m, n, k);
    } else {
        auto &tmp = scratch(m * n);
        core::gemm_nt(as, bs, {tmp.data(), m * n}, m, n, k);
        core::axpy(1.0f, {tmp.data(), m * n}, {c.data(), m * n});
    }
#else
    if (accumulate)
        c.noalias() += a * b.transpose();
    else
        c.noalias() = a * b.transpose();
#endif
}

void matmul_nn(CMatMap a, CMatMap b, MatMap c, bool accumulate) {
    if (a.cols() != b.rows() || c.rows() != a.rows() || c.cols() != b.cols()) fail("matmul_nn", a, b, c);
    if (c.size() == 0) return;
    if (a.cols() == 0) {
        if (!accumulate) c.setZero();
        return;
    }
#if APG_MATMUL_CORE
    const std::size_t m = sz(a.rows()), n = sz(b.cols()), k = sz(a.cols());
    core::cfspan as{a.data(), m * k}, bs{b.data(), k * n};
    if (!accumulate) {
        core::gemm_nn(as, bs, {c.data(), m * n}, m, n, k);
    } else {
        auto &tmp = scratch(m * n);
        core::gemm_nn(as, bs, {tmp.data(), m * n}, m, n, k);
        core::axpy(1.0f, {tmp.data(), m * n}, {c.data(), m * n});
    }
#else
    if (accumulate)
        c.noalias() += a * b;
    else
        c.noalias() = a * b;
#endif
}

void matmul_tn(CMatMap a, CMatMap b, MatMap c, bool accumulate) {
    if (a.rows() != b.rows() || c.rows() != a.cols() || c.cols() != b.cols()) fail("matmul_tn", a, b, c);
    if (c.size() == 0) return;
    if (a.rows() == 0) {
        if (!accumulate) c.setZero();
        return;
    }
#if APG_MATMUL_CORE
    // Aᵀ is copied once (k×m → m×k) so the product is a plain gemm_nn.
    const std::size_t m = sz(a.cols()), n = sz(b.cols()), k = sz(a.rows());
    auto &at = scratch2(m * k);
    Eigen::Map<Mat>(at.data(), a.cols(), a.rows()) = a.transpose();
    matmul_nn(CMatMap(at.data(), a.cols(), a.rows()), b, c, accumulate);
    (void)n;
#else
    if (accumulate)
        c.noalias() += a.transpose() * b;
    else
        c.noalias() = a.transpose() * b;
#endif
}

} // namespace apg::nn
