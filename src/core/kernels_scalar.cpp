// The scalar reference kernels: plain loops in float, summing left to right. The SIMD kernels are
// tested against them, and the wasm-scalar benchmark build runs them.
#include "core/kernels.hpp"
#include "core/shape_check.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace apg::core::scalar {

float dot(cfspan a, cfspan b) {
    require_size("dot", "b", b.size(), a.size());
    float sum = 0.0f;
    for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
    return sum;
}

void axpy(float alpha, cfspan x, fspan y) {
    require_size("axpy", "y", y.size(), x.size());
    for (std::size_t i = 0; i < x.size(); ++i) y[i] += alpha * x[i];
}

void gemv(cfspan a, cfspan x, fspan y, std::size_t m, std::size_t n) {
    require_size("gemv", "A", a.size(), m * n);
    require_size("gemv", "x", x.size(), n);
    require_size("gemv", "y", y.size(), m);
    for (std::size_t i = 0; i < m; ++i) y[i] = dot(a.subspan(i * n, n), x);
}

void gemv_t(cfspan a, cfspan x, fspan y, std::size_t m, std::size_t n) {
    require_size("gemv_t", "A", a.size(), m * n);
    require_size("gemv_t", "x", x.size(), m);
    require_size("gemv_t", "y", y.size(), n);
    for (std::size_t j = 0; j < n; ++j) y[j] = 0.0f;
    for (std::size_t i = 0; i < m; ++i) axpy(x[i], a.subspan(i * n, n), y);
}

void gemm_nt(cfspan a, cfspan b, fspan c, std::size_t m, std::size_t n, std::size_t k) {
    require_size("gemm_nt", "A", a.size(), m * k);
    require_size("gemm_nt", "B", b.size(), n * k);
    require_size("gemm_nt", "C", c.size(), m * n);
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) c[i * n + j] = dot(a.subspan(i * k, k), b.subspan(j * k, k));
}

void gemm_nn(cfspan a, cfspan b, fspan c, std::size_t m, std::size_t n, std::size_t k) {
    require_size("gemm_nn", "A", a.size(), m * k);
    require_size("gemm_nn", "B", b.size(), k * n);
    require_size("gemm_nn", "C", c.size(), m * n);
    for (std::size_t i = 0; i < m; ++i) {
        fspan row = c.subspan(i * n, n);
        for (float &v : row) v = 0.0f;
        for (std::size_t p = 0; p < k; ++p) axpy(a[i * k + p], b.subspan(p * n, n), row);
    }
}

void softmax(cfspan x, fspan y, mask_span mask, float temperature) {
    require_size("softmax", "y", y.size(), x.size());
    if (!mask.empty()) require_size("softmax", "mask", mask.size(), x.size());
    if (!(temperature > 0.0f) || !std::isfinite(temperature))
        throw std::invalid_argument("softmax: temperature must be a positive finite number");
    auto on = [&](std::size_t i) { return mask.empty() || mask[i] != 0; };
    // Subtracting the maximum keeps exp() from overflowing; it cancels in the ratio.
    float max = -std::numeric_limits<float>::infinity();
    bool any = false;
    for (std::size_t i = 0; i < x.size(); ++i)
        if (on(i)) {
            any = true;
            if (x[i] > max) max = x[i];
        }
    if (!any)
        throw std::invalid_argument("softmax: every one of the " + std::to_string(x.size()) +
                                    " positions is masked, so there is nothing to attend to");
    float sum = 0.0f;
    for (std::size_t i = 0; i < x.size(); ++i) {
        y[i] = on(i) ? std::exp((x[i] - max) / temperature) : 0.0f;
        sum += y[i];
    }
    for (std::size_t i = 0; i < x.size(); ++i) y[i] /= sum;
}

void exp(cfspan x, fspan y) {
    require_size("exp", "y", y.size(), x.size());
    for (std::size_t i = 0; i < x.size(); ++i) y[i] = std::exp(x[i]);
}

void tanh(cfspan x, fspan y) {
    require_size("tanh", "y", y.size(), x.size());
    for (std::size_t i = 0; i < x.size(); ++i) y[i] = std::tanh(x[i]);
}

void sigmoid(cfspan x, fspan y) {
    require_size("sigmoid", "y", y.size(), x.size());
    for (std::size_t i = 0; i < x.size(); ++i) y[i] = 1.0f / (1.0f + std::exp(-x[i]));
}

} // namespace apg::core::scalar
