// The reference fused attention: one query row at a time, one key at a time, with the online
// softmax in its plainest form. After key c the row holds m = the largest score so far,
// l = Σ e^{s − m} and o = Σ e^{s − m} v over the keys so far; a larger score rescales l and o by
// e^{m_old − m_new} ≤ 1, so no exponent is ever positive and nothing overflows.
// Also the argument checks both versions share.
#include "core/kernels_attention.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace apg::core {

namespace {

[[noreturn]] void fail(const char *op, const std::string &what) {
    throw std::invalid_argument(std::string(op) + ": " + what);
}

std::string dims(std::size_t rows, std::size_t cols) { return std::to_string(rows) + "×" + std::to_string(cols); }

void check_view(const char *op, const char *name, std::size_t size, std::size_t rows, std::size_t cols,
                std::size_t stride) {
    if (rows > 1 && stride < cols)
        fail(op, std::string(name) + " has rows of " + std::to_string(cols) + " floats " + std::to_string(stride) +
                     " apart, so they overlap");
    const std::size_t need = rows == 0 ? 0 : (rows - 1) * stride + cols;
    if (size < need)
        fail(op, std::string(name) + " is " + dims(rows, cols) + " with stride " + std::to_string(stride) +
                     ", which needs " + std::to_string(need) + " floats, but holds " + std::to_string(size));
}

// Whether query r may see key c (the parts of the mask as documented in the header).
bool visible(const AttentionMask &mask, std::size_t nk, std::size_t r, std::size_t c) {
    return (mask.keys.empty() || mask.keys[c] != 0) && (mask.allowed.empty() || mask.allowed[r * nk + c] != 0) &&
           (!mask.causal || c <= mask.first_query + r);
}

} // namespace

void check_attention(const char *op, const ConstRows &q, const ConstRows &k, const ConstRows &v, const Rows &out,
                     const AttentionMask &mask) {
    const std::size_t nq = q.rows, nk = k.rows;
    if (k.cols != q.cols)
        fail(op, "queries are " + dims(nq, q.cols) + " but keys " + dims(nk, k.cols) + " (the widths must agree)");
    if (v.rows != nk) fail(op, "keys are " + dims(nk, k.cols) + " but values " + dims(v.rows, v.cols));
    if (out.rows != nq || out.cols != v.cols)
        fail(op, "out is " + dims(out.rows, out.cols) + ", expected " + dims(nq, v.cols));
    check_view(op, "q", q.data.size(), q.rows, q.cols, q.stride);
    check_view(op, "k", k.data.size(), k.rows, k.cols, k.stride);
    check_view(op, "v", v.data.size(), v.rows, v.cols, v.stride);
    check_view(op, "out", out.data.size(), out.rows, out.cols, out.stride);
    if (!mask.keys.empty() && mask.keys.size() != nk)
        fail(op, "the key mask has " + std::to_string(mask.keys.size()) + " bytes for " + std::to_string(nk) + " keys");
    if (!mask.allowed.empty() && mask.allowed.size() != nq * nk)
        fail(op, "the allowed mask has " + std::to_string(mask.allowed.size()) + " bytes, expected " + dims(nq, nk) +
                     " = " + std::to_string(nq * nk));
    if (nq == 0) return;
    // Without an allowed matrix, query 0 sees the fewest keys (causal) or all queries see the same.
    const std::size_t rows_to_check = mask.allowed.empty() ? 1 : nq;
    for (std::size_t r = 0; r < rows_to_check; ++r) {
        bool any = false;
        for (std::size_t c = 0; c < nk && !any; ++c) any = visible(mask, nk, r, c);
        if (!any)
            fail(op, "query " + std::to_string(r) + " of " + std::to_string(nq) + " has no key to attend to among " +
                         std::to_string(nk) + " (every key it may see is masked)");
    }
}

void scalar::fused_attention(ConstRows q, ConstRows k, ConstRows v, Rows out, float scale, const AttentionMask &mask) {
    check_attention("fused_attention", q, k, v, out, mask);
    const std::size_t nq = q.rows, nk = k.rows, dk = q.cols, dv = v.cols;
    std::vector<float> o(dv);
    for (std::size_t r = 0; r < nq; ++r) {
        const float *qr = q.data.data() + r * q.stride;
        float m = -std::numeric_limits<float>::infinity(), l = 0.0f;
        std::fill(o.begin(), o.end(), 0.0f);
        for (std::size_t c = 0; c < nk; ++c) {
            if (!visible(mask, nk, r, c)) continue;
            const float *kc = k.data.data() + c * k.stride, *vc = v.data.data() + c * v.stride;
            float dot = 0.0f;
            for (std::size_t p = 0; p < dk; ++p) dot += qr[p] * kc[p];
            const float s = scale * dot;
            if (s > m) {
                const float rescale = std::exp(m - s); // 0 for the first key (m = −∞)
                l *= rescale;
                for (float &x : o) x *= rescale;
                m = s;
            }
            const float w = std::exp(s - m);
            l += w;
            for (std::size_t j = 0; j < dv; ++j) o[j] += w * vc[j];
        }
        float *out_r = out.data.data() + r * out.stride;
        for (std::size_t j = 0; j < dv; ++j) out_r[j] = o[j] / l;
    }
}

} // namespace apg::core
