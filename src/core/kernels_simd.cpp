// The 128-bit SIMD kernels, written once in the vocabulary of core/simd_mappings.hpp (wasm_simd128 or
// SSE4.1). Each SIMD loop is followed by a plain tail loop for the last n % 4 elements. Without a
// vector ISA (the wasm-scalar build) every kernel forwards to the scalar reference.
//
// The matrix products are register-blocked: a small block of outputs stays in vector registers
// while the whole k loop runs, so each loaded vector feeds several multiply-adds (the blocks are
// in core/kernels_simd_blocks.hpp, shared with the packed GEMM and the fused attention).
#include "core/kernels.hpp"
#include "core/kernels_simd_blocks.hpp"
#include "core/kernels_simd_math.hpp"
#include "core/shape_check.hpp"
#include "core/simd_mappings.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace apg::core {

const char *simd_isa() { return APG_SIMD_ISA; }

} // namespace apg::core

#if APG_SIMD_WIDTH == 0

namespace apg::core::simd {
float dot(cfspan a, cfspan b) { return scalar::dot(a, b); }
void axpy(float alpha, cfspan x, fspan y) { scalar::axpy(alpha, x, y); }
void gemv(cfspan a, cfspan x, fspan y, std::size_t m, std::size_t n) { scalar::gemv(a, x, y, m, n); }
void gemv_t(cfspan a, cfspan x, fspan y, std::size_t m, std::size_t n) { scalar::gemv_t(a, x, y, m, n); }
void gemm_nt(cfspan a, cfspan b, fspan c, std::size_t m, std::size_t n, std::size_t k) {
    scalar::gemm_nt(a, b, c, m, n, k);
}
void gemm_nn(cfspan a, cfspan b, fspan c, std::size_t m, std::size_t n, std::size_t k) {
    scalar::gemm_nn(a, b, c, m, n, k);
}
void softmax(cfspan x, fspan y, mask_span mask, float temperature) { scalar::softmax(x, y, mask, temperature); }
void exp(cfspan x, fspan y) { scalar::exp(x, y); }
void tanh(cfspan x, fspan y) { scalar::tanh(x, y); }
void sigmoid(cfspan x, fspan y) { scalar::sigmoid(x, y); }
} // namespace apg::core::simd

#else

namespace apg::core::simd {
namespace {

using namespace apg::core::vec;
using blocks::dot_n;
using blocks::panel_nt;
using blocks::row_nn;
using std::size_t;

// ---- elementwise approximations -------------------------------------------------------------

// tanh(x): for |x| < 1 the [7/6] Padé approximant x·P(x²)/Q(x²) (Lambert's continued fraction,
// relative error < 2.2e-12 there, so only float rounding remains); for |x| ≥ 1,
// sign(x)·(1 − 2/(e^{2|x|} + 1)), where the result is ≥ 0.76 and the subtraction loses nothing.
// Measured against double std::tanh on 400k points of [−20, 20]: max relative error 1.9e-7 (std::tanhf:
// 1.6e-7); the tests hold it to 2·2^-23.
inline f32x4 tanh4(f32x4 x) {
    f32x4 ax = abs(x);
    f32x4 z = mul(x, x);
    f32x4 num = madd(madd(madd(z, splat(1.0f), splat(378.0f)), z, splat(17325.0f)), z, splat(135135.0f));
    f32x4 den = madd(madd(madd(z, splat(28.0f), splat(3150.0f)), z, splat(62370.0f)), z, splat(135135.0f));
    f32x4 small = div(mul(x, num), den);
    f32x4 e = exp4(add(ax, ax));
    f32x4 large = sub(splat(1.0f), div(splat(2.0f), add(e, splat(1.0f))));
    return select(lt(ax, splat(1.0f)), small, copysign(large, x));
}

// sigmoid(x) = 1/(1 + e^{−x}): the error of exp4 plus one correctly rounded division.
// Measured on [−88, 30]: max relative error 1.4e-7 (tests: 2·2^-23). For x < −88.7, e^{−x} overflows
// and the result is 0 where the true value is below 3e-39.
inline f32x4 sigmoid4(f32x4 x) { return div(splat(1.0f), add(splat(1.0f), exp4(sub(zero(), x)))); }

template <class F, class Scalar> void map(const char *name, cfspan x, fspan y, F vector_op, Scalar scalar_op) {
    require_size(name, "y", y.size(), x.size());
    const size_t n = x.size();
    size_t i = 0;
    for (; i + 4 <= n; i += 4) store(y.data() + i, vector_op(load(x.data() + i)));
    for (; i < n; ++i) y[i] = scalar_op(x[i]);
}

// C[R × 4·V] block of A B: R rows of A (stride lda) times the k × 4V panel of B (stride ldb).
// Each step of p loads V vectors of B's row p and broadcasts R numbers of A's column p.
template <int R, int V>
[[gnu::noinline]] void block_nn(const float *a, size_t lda, const float *b, size_t ldb, float *c, size_t ldc,
                                size_t k) {
    f32x4 acc[R][V];
    for (int r = 0; r < R; ++r)
        for (int j = 0; j < V; ++j) acc[r][j] = zero();
    for (size_t p = 0; p < k; ++p) {
        f32x4 bv[V];
        for (int j = 0; j < V; ++j) bv[j] = load(b + p * ldb + 4 * j);
        for (int r = 0; r < R; ++r) {
            f32x4 av = load_splat(a + r * lda + p);
            for (int j = 0; j < V; ++j) acc[r][j] = madd(av, bv[j], acc[r][j]);
        }
    }
    for (int r = 0; r < R; ++r)
        for (int j = 0; j < V; ++j) store(c + r * ldc + 4 * j, acc[r][j]);
}

} // namespace

// ---- the kernels ----------------------------------------------------------------------------

float dot(cfspan a, cfspan b) {
    require_size("dot", "b", b.size(), a.size());
    return dot_n(a.data(), b.data(), a.size());
}

void axpy(float alpha, cfspan x, fspan y) {
    require_size("axpy", "y", y.size(), x.size());
    const size_t n = x.size();
    const f32x4 va = splat(alpha);
    float *py = y.data();
    const float *px = x.data();
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        store(py + i, madd(va, load(px + i), load(py + i)));
        store(py + i + 4, madd(va, load(px + i + 4), load(py + i + 4)));
    }
    for (; i + 4 <= n; i += 4) store(py + i, madd(va, load(px + i), load(py + i)));
    for (; i < n; ++i) py[i] += alpha * px[i];
}

void gemv(cfspan a, cfspan x, fspan y, size_t m, size_t n) {
    require_size("gemv", "A", a.size(), m * n);
    require_size("gemv", "x", x.size(), n);
    require_size("gemv", "y", y.size(), m);
    // Four rows at a time share each loaded piece of x: y[i..i+4] = A[i..i+4, :] x.
    panel_nt<1>(x.data(), 0, a.data(), n, y.data(), m, n, 0);
}

void gemv_t(cfspan a, cfspan x, fspan y, size_t m, size_t n) {
    require_size("gemv_t", "A", a.size(), m * n);
    require_size("gemv_t", "x", x.size(), m);
    require_size("gemv_t", "y", y.size(), n);
    // y = Σ_i x_i A[i, :]: one row of the product xᵀ A.
    row_nn(x.data(), a.data(), n, y.data(), n, m);
}

void gemm_nt(cfspan a, cfspan b, fspan c, size_t m, size_t n, size_t k) {
    require_size("gemm_nt", "A", a.size(), m * k);
    require_size("gemm_nt", "B", b.size(), n * k);
    require_size("gemm_nt", "C", c.size(), m * n);
    const float *pa = a.data(), *pb = b.data();
    float *pc = c.data();
    size_t i = 0;
    for (; i + 2 <= m; i += 2) panel_nt<2>(pa + i * k, k, pb, k, pc + i * n, n, k, n);
    for (; i < m; ++i) panel_nt<1>(pa + i * k, k, pb, k, pc + i * n, n, k, n);
}

void gemm_nn(cfspan a, cfspan b, fspan c, size_t m, size_t n, size_t k) {
    require_size("gemm_nn", "A", a.size(), m * k);
    require_size("gemm_nn", "B", b.size(), k * n);
    require_size("gemm_nn", "C", c.size(), m * n);
    const float *pa = a.data(), *pb = b.data();
    float *pc = c.data();
    const size_t n8 = n / 8 * 8, n4 = n / 4 * 4;
    // The last n % 4 columns of a row: plain loops.
    auto tail_columns = [&](size_t row) {
        for (size_t j = n4; j < n; ++j) {
            float sum = 0.0f;
            for (size_t p = 0; p < k; ++p) sum += pa[row * k + p] * pb[p * n + j];
            pc[row * n + j] = sum;
        }
    };
    size_t i = 0;
    for (; i + 4 <= m; i += 4) {
        for (size_t j = 0; j < n8; j += 8) block_nn<4, 2>(pa + i * k, k, pb + j, n, pc + i * n + j, n, k);
        if (n4 > n8) block_nn<4, 1>(pa + i * k, k, pb + n8, n, pc + i * n + n8, n, k);
        for (size_t r = i; r < i + 4; ++r) tail_columns(r);
    }
    for (; i < m; ++i) row_nn(pa + i * k, pb, n, pc + i * n, n, k);
}

void softmax(cfspan x, fspan y, mask_span mask, float temperature) {
    require_size("softmax", "y", y.size(), x.size());
    if (!mask.empty()) require_size("softmax", "mask", mask.size(), x.size());
    if (!(temperature > 0.0f) || !std::isfinite(temperature))
        throw std::invalid_argument("softmax: temperature must be a positive finite number");
    const size_t n = x.size();
    float *py = y.data();
    // With a mask, y first holds the scores with −inf at masked positions, whose exp is exactly 0.
    // Weights below FLT_MIN (1.2e-38) come out as 0 (see exp_nonpositive4).
    // The mask is checked before y is touched, so a fully masked row leaves y as it was.
    size_t on = n;
    if (!mask.empty()) on = static_cast<size_t>(std::count_if(mask.begin(), mask.end(), [](auto m) { return m != 0; }));
    if (on == 0)
        throw std::invalid_argument("softmax: every one of the " + std::to_string(n) +
                                    " positions is masked, so there is nothing to attend to");
    const float *src = x.data();
    if (!mask.empty()) {
        for (size_t i = 0; i < n; ++i) py[i] = mask[i] != 0 ? x[i] : -std::numeric_limits<float>::infinity();
        src = py;
    }
    // Subtracting the maximum keeps exp() from overflowing; it cancels in the ratio.
    f32x4 vmax = splat(-std::numeric_limits<float>::infinity());
    size_t i = 0;
    for (; i + 4 <= n; i += 4) vmax = max(vmax, load(src + i));
    float mx = hmax(vmax);
    for (; i < n; ++i) mx = std::max(mx, src[i]);

    const float inv_t = 1.0f / temperature;
    const f32x4 vmx = splat(mx), vinv_t = splat(inv_t);
    f32x4 vsum = zero();
    for (i = 0; i + 4 <= n; i += 4) {
        f32x4 e = exp_nonpositive4(mul(sub(load(src + i), vmx), vinv_t));
        store(py + i, e);
        vsum = add(vsum, e);
    }
    float sum = hsum(vsum);
    for (; i < n; ++i) {
        py[i] = std::exp((src[i] - mx) * inv_t);
        sum += py[i];
    }
    const float inv_sum = 1.0f / sum;
    const f32x4 vinv_sum = splat(inv_sum);
    for (i = 0; i + 4 <= n; i += 4) store(py + i, mul(load(py + i), vinv_sum));
    for (; i < n; ++i) py[i] *= inv_sum;
}

void exp(cfspan x, fspan y) {
    map(
        "exp", x, y, [](f32x4 v) { return exp4(v); }, [](float v) { return std::exp(v); });
}

void tanh(cfspan x, fspan y) {
    map(
        "tanh", x, y, [](f32x4 v) { return tanh4(v); }, [](float v) { return std::tanh(v); });
}

void sigmoid(cfspan x, fspan y) {
    map(
        "sigmoid", x, y, [](f32x4 v) { return sigmoid4(v); }, [](float v) { return 1.0f / (1.0f + std::exp(-v)); });
}

} // namespace apg::core::simd

#endif // APG_SIMD_WIDTH
