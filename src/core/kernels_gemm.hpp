// The matrix product of the layers (nn/matmul.hpp): every batched product of training and of the
// encoders goes through it.
//   C[m×n] = op(A) op(B), or C += op(A) op(B) with accumulate
// op(A) is m × k: A as stored (m × k, plain) or its transpose (A stored k × m); op(B) is k × n: B
// as stored (k × n) or its transpose (B stored n × k). All row-major and contiguous.
//
// Each output is one sum over p = 0 … k − 1 in order, starting from 0, added to C at the end when
// accumulating. scalar:: is that loop as written; simd:: packs op(B) once per call into panels of 8
// columns and op(A) into panels of 4 rows, and runs the 4 × 8 register tile of
// kernels_simd_blocks.hpp over them, with the same order of operations, so for m ≥ 4 the two give
// the same numbers bit for bit. For m < 4 (a single sequence's step) packing would cost as much as
// the product, and simd:: reads the operands in place with the row kernels, whose sums are split
// across vector lanes (within Higham's bound of the exact product, like gemm_nt).
#pragma once

#include "core/kernels.hpp"

#include <cstdint>

namespace apg::core {

// How gemm reads an operand: as stored, or as its transpose.
enum class Op : std::uint8_t { plain, transposed };

#define APG_GEMM_DECLARATION                                                                                           \
    /* Throws std::invalid_argument naming the operand whose size is not its shape's. */                               \
    void gemm(Op op_a, Op op_b, cfspan a, cfspan b, fspan c, std::size_t m, std::size_t n, std::size_t k,              \
              bool accumulate = false);

namespace scalar {
APG_GEMM_DECLARATION
} // namespace scalar

namespace simd {
APG_GEMM_DECLARATION
} // namespace simd

#undef APG_GEMM_DECLARATION

} // namespace apg::core
