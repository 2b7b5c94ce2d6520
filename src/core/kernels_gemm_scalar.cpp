// The reference gemm: for each output, sum = 0; for p in order: sum += a·b (see kernels_gemm.hpp).
#include "core/kernels_gemm.hpp"
#include "core/shape_check.hpp"

namespace apg::core::scalar {

void gemm(Op op_a, Op op_b, cfspan a, cfspan b, fspan c, std::size_t m, std::size_t n, std::size_t k, bool accumulate) {
    require_size("gemm", "A", a.size(), m * k);
    require_size("gemm", "B", b.size(), k * n);
    require_size("gemm", "C", c.size(), m * n);
    // Strides of op(A)[i, p] and op(B)[p, j] in the stored arrays.
    const std::size_t a_row = op_a == Op::plain ? k : 1, a_col = op_a == Op::plain ? 1 : m;
    const std::size_t b_row = op_b == Op::plain ? n : 1, b_col = op_b == Op::plain ? 1 : k;
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            float sum = 0.0f;
            for (std::size_t p = 0; p < k; ++p) sum += a[i * a_row + p * a_col] * b[p * b_row + j * b_col];
            c[i * n + j] = accumulate ? c[i * n + j] + sum : sum;
        }
}

} // namespace apg::core::scalar
