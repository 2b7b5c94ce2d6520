// Placeholder until the SIMD kernels land: forwards to the scalar reference.
#include "core/kernels.hpp"

namespace apg::core {
namespace simd {
float dot(cfspan a, cfspan b) { return scalar::dot(a, b); }
void axpy(float alpha, cfspan x, fspan y) { scalar::axpy(alpha, x, y); }
void gemv(cfspan a, cfspan x, fspan y, std::size_t m, std::size_t n) { scalar::gemv(a, x, y, m, n); }
void gemv_t(cfspan a, cfspan x, fspan y, std::size_t m, std::size_t n) { scalar::gemv_t(a, x, y, m, n); }
void gemm_nt(cfspan a, cfspan b, fspan c, std::size_t m, std::size_t n, std::size_t k) { scalar::gemm_nt(a, b, c, m, n, k); }
void gemm_nn(cfspan a, cfspan b, fspan c, std::size_t m, std::size_t n, std::size_t k) { scalar::gemm_nn(a, b, c, m, n, k); }
void softmax(cfspan x, fspan y, mask_span mask, float t) { scalar::softmax(x, y, mask, t); }
void exp(cfspan x, fspan y) { scalar::exp(x, y); }
void tanh(cfspan x, fspan y) { scalar::tanh(x, y); }
void sigmoid(cfspan x, fspan y) { scalar::sigmoid(x, y); }
} // namespace simd
const char *simd_isa() { return "scalar"; }
} // namespace apg::core
