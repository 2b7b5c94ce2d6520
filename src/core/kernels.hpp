// Float32 kernels on contiguous spans. Every kernel exists twice: `scalar::` is the plain
// reference, `simd::` the 128-bit SIMD version (wasm_simd128 in the wasm build, SSE natively).
// The unqualified names in `apg::core` pick one at compile time (APG_SIMD).
//
// Shapes: row-major; m, n, k as in BLAS. A span's size must match the shape arguments,
// otherwise std::invalid_argument is thrown with the shapes in its message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace apg::core {

using fspan = std::span<float>;
using cfspan = std::span<const float>;
// A mask has one byte per position: 1 = attend, 0 = masked out. An empty mask attends to all.
using mask_span = std::span<const std::uint8_t>;

#define APG_KERNEL_DECLARATIONS                                                                                        \
    /* a · b, both n */                                                                                               \
    float dot(cfspan a, cfspan b);                                                                                     \
    /* y += alpha * x, both n */                                                                                       \
    void axpy(float alpha, cfspan x, fspan y);                                                                         \
    /* y[m] = A[m×n] x[n] */                                                                                          \
    void gemv(cfspan a, cfspan x, fspan y, std::size_t m, std::size_t n);                                              \
    /* y[n] = A[m×n]ᵀ x[m] */                                                                                       \
    void gemv_t(cfspan a, cfspan x, fspan y, std::size_t m, std::size_t n);                                            \
    /* C[m×n] = A[m×k] B[n×k]ᵀ  (both operands row-major with k contiguous: scores = Q Kᵀ) */                   \
    void gemm_nt(cfspan a, cfspan b, fspan c, std::size_t m, std::size_t n, std::size_t k);                            \
    /* C[m×n] = A[m×k] B[k×n]  (weights × values) */                                                               \
    void gemm_nn(cfspan a, cfspan b, fspan c, std::size_t m, std::size_t n, std::size_t k);                            \
    /* y = softmax(x / temperature) over the unmasked positions, 0 at masked ones.                                     \
       Throws std::invalid_argument when every position is masked or temperature <= 0. */                              \
    void softmax(cfspan x, fspan y, mask_span mask = {}, float temperature = 1.0f);                                    \
    /* elementwise; y may alias x */                                                                                   \
    void exp(cfspan x, fspan y);                                                                                       \
    void tanh(cfspan x, fspan y);                                                                                      \
    void sigmoid(cfspan x, fspan y);

namespace scalar {
APG_KERNEL_DECLARATIONS
} // namespace scalar

namespace simd {
APG_KERNEL_DECLARATIONS
} // namespace simd

#undef APG_KERNEL_DECLARATIONS

#if APG_SIMD
using namespace simd;
#else
using namespace scalar;
#endif

// Name of the ISA the simd:: kernels were compiled for: "wasm_simd128", "sse4.1" or "scalar".
const char *simd_isa();

} // namespace apg::core
