// The packed gemm (contract in kernels_gemm.hpp). For m ≥ 4: op(B) is packed once per call into
// panels of 8 columns (k × 8 each) and op(A) into panels of 4 rows (k × 4 each); then, panel of B
// by panel, every 4 × 8 block of C is one call of the register tile, so a B panel (k × 8: 16 KB at
// k = 512) stays in L1 while all of A's panels pass it. Blocks at the edges are computed whole on
// the zero padding of the panels and only their real rows and columns are stored.
#include "core/kernels_gemm.hpp"
#include "core/kernels_simd_blocks.hpp"
#include "core/scratch.hpp"
#include "core/shape_check.hpp"

#include <algorithm>
#include <vector>

#if APG_SIMD_WIDTH == 0

namespace apg::core::simd {
void gemm(Op op_a, Op op_b, cfspan a, cfspan b, fspan c, std::size_t m, std::size_t n, std::size_t k, bool accumulate) {
    scalar::gemm(op_a, op_b, a, b, c, m, n, k, accumulate);
}
} // namespace apg::core::simd

#else

namespace apg::core::simd {

namespace {

using namespace apg::core::vec;
using std::size_t;

// Working memory, grown once and reused.
struct GemmScratch {
    std::vector<float> a_panels, b_panels; // ⌈m/4⌉ panels of k × 4, ⌈n/8⌉ panels of k × 8
    std::vector<float> rows;               // m < 4: op(A)'s rows when A is transposed
    std::vector<float> product;            // m < 4 with accumulate: the product before it is added
};
GemmScratch &gemm_scratch() {
    thread_local GemmScratch s;
    return s;
}

// m < 4: the row kernels on the operands in place (op(A)'s rows gathered first when A is stored
// transposed), the product written to `out` (m × n).
void few_rows(Op op_a, Op op_b, const float *a, const float *b, float *out, size_t m, size_t n, size_t k,
              GemmScratch &s) {
    if (op_a == Op::transposed) {
        float *rows = sized(s.rows, m * k);
        for (size_t i = 0; i < m; ++i)
            for (size_t p = 0; p < k; ++p) rows[i * k + p] = a[p * m + i];
        a = rows;
    }
    if (op_b == Op::transposed) { // B is n × k: dot products of rows, as gemm_nt
        size_t i = 0;
        for (; i + 2 <= m; i += 2) blocks::panel_nt<2>(a + i * k, k, b, k, out + i * n, n, k, n);
        for (; i < m; ++i) blocks::panel_nt<1>(a + i * k, k, b, k, out + i * n, n, k, n);
    } else {
        for (size_t i = 0; i < m; ++i) blocks::row_nn(a + i * k, b, n, out + i * n, n, k);
    }
}

} // namespace

void gemm(Op op_a, Op op_b, cfspan a, cfspan b, fspan c, size_t m, size_t n, size_t k, bool accumulate) {
    require_size("gemm", "A", a.size(), m * k);
    require_size("gemm", "B", b.size(), k * n);
    require_size("gemm", "C", c.size(), m * n);
    if (m == 0 || n == 0) return;
    float *pc = c.data();
    if (k == 0) {
        if (!accumulate) std::fill(c.begin(), c.end(), 0.0f);
        return;
    }
    GemmScratch &s = gemm_scratch();
    if (m < 4) {
        float *out = accumulate ? sized(s.product, m * n) : pc;
        few_rows(op_a, op_b, a.data(), b.data(), out, m, n, k, s);
        if (accumulate)
            for (size_t i = 0; i < m * n; ++i) pc[i] += out[i];
        return;
    }

    float *b_panels = sized(s.b_panels, (n + 7) / 8 * 8 * k);
    for (size_t j = 0; j < n; j += 8) {
        const size_t count = std::min<size_t>(8, n - j);
        if (op_b == Op::plain)
            blocks::pack_cols(b.data() + j, n, count, k, b_panels + j * k);
        else
            blocks::pack_transposed_cols(b.data() + j * k, k, count, k, b_panels + j * k);
    }
    float *a_panels = sized(s.a_panels, (m + 3) / 4 * 4 * k);
    for (size_t i = 0; i < m; i += 4) {
        const size_t count = std::min<size_t>(4, m - i);
        if (op_a == Op::plain)
            blocks::pack_rows(a.data() + i * k, k, count, k, a_panels + i * k);
        else
            blocks::pack_transposed_rows(a.data() + i, m, count, k, a_panels + i * k);
    }

    alignas(16) float tile[32];
    for (size_t j = 0; j < n; j += 8) {
        const size_t cols = std::min<size_t>(8, n - j);
        for (size_t i = 0; i < m; i += 4) {
            blocks::multiply(a_panels + i * k, b_panels + j * k, k, tile, false);
            const size_t rows = std::min<size_t>(4, m - i);
            for (size_t r = 0; r < rows; ++r) {
                float *dst = pc + (i + r) * n + j;
                const float *src = tile + 8 * r;
                if (cols == 8 && accumulate) {
                    store(dst, add(load(dst), load(src))), store(dst + 4, add(load(dst + 4), load(src + 4)));
                } else if (cols == 8) {
                    store(dst, load(src)), store(dst + 4, load(src + 4));
                } else {
                    for (size_t t = 0; t < cols; ++t) dst[t] = accumulate ? dst[t] + src[t] : src[t];
                }
            }
        }
    }
}

} // namespace apg::core::simd

#endif // APG_SIMD_WIDTH
