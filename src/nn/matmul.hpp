// Matrix products of the model code on row-major views, with an accumulate flag, all through the
// one packed GEMM of core/kernels_gemm.hpp (wasm_simd128 in the wasm build, SSE natively; Eigen 3.4
// has no wasm SIMD packets). Each output is one sum in order over the inner index, so the
// products are deterministic and, for m ≥ 4 rows, the same in every build.
//   matmul_nt  C[m×n] (+)= A[m×k] B[n×k]ᵀ     (x Wᵀ: a batch of rows times a weight matrix)
//   matmul_nn  C[m×n] (+)= A[m×k] B[k×n]      (dY W: gradient back to the input)
//   matmul_tn  C[m×n] (+)= A[k×m]ᵀ B[k×n]     (dYᵀ X: gradient of a weight matrix)
#pragma once

#include "core/tensor.hpp"

namespace apg::nn {

using MatMap = Eigen::Map<Mat>;
using CMatMap = Eigen::Map<const Mat>;

// Rows [first, first + count) of a row-major matrix, as a view (contiguous because row-major).
inline MatMap rows(Mat &m, Eigen::Index first, Eigen::Index count) {
    return MatMap(m.data() + first * m.cols(), count, m.cols());
}
inline CMatMap rows(const Mat &m, Eigen::Index first, Eigen::Index count) {
    return CMatMap(m.data() + first * m.cols(), count, m.cols());
}
inline MatMap whole(Mat &m) { return MatMap(m.data(), m.rows(), m.cols()); }
inline CMatMap whole(const Mat &m) { return CMatMap(m.data(), m.rows(), m.cols()); }

// Each throws std::invalid_argument naming the shapes when they do not fit.
void matmul_nt(CMatMap a, CMatMap b, MatMap c, bool accumulate = false);
void matmul_nn(CMatMap a, CMatMap b, MatMap c, bool accumulate = false);
void matmul_tn(CMatMap a, CMatMap b, MatMap c, bool accumulate = false);

} // namespace apg::nn
