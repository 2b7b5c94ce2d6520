// Scaled dot-product attention forward for several queries at once (the hot path of
// self-attention and of the benchmark):
//   scores  S = scale · Q Kᵀ                        nq × nk
//   weights P = softmax of each row of S (masked)   nq × nk
//   context O = P V                                 nq × dv
// Shapes: nq queries, nk keys, d = query/key size, dv = value size; all row-major, so Q is nq × d,
// K is nk × d (one key per row, as the keys are stored) and V is nk × dv.
//
// S, P and O are written to caller buffers and kept: the page shows all three. At masked
// positions S still holds the scaled score and P holds exactly 0.
#pragma once

#include "core/kernels.hpp"

#include <cstddef>

namespace apg::core {

struct SdpaShape {
    std::size_t nq = 0, nk = 0, d = 0, dv = 0;
};

struct SdpaOptions {
    float scale = 1.0f;      // usually 1/√d
    mask_span key_mask = {}; // nk bytes, 1 = attend (padding mask shared by every query); empty = all
    // Query i attends to key j only when j ≤ i + (nk − nq): the queries are the last nq positions
    // of the key sequence (nq == nk gives the usual j ≤ i). Needs nq ≤ nk.
    bool causal = false;
};

// Throws std::invalid_argument naming the shapes when a span does not fit the shape, when any
// size is 0, when causal has nq > nk, or when a query's row is fully masked.
#define APG_SDPA_DECLARATION                                                                                           \
    void sdpa_forward(const SdpaShape &shape, cfspan q, cfspan k, cfspan v, const SdpaOptions &options, fspan scores,  \
                      fspan weights, fspan context);

namespace scalar {
APG_SDPA_DECLARATION
} // namespace scalar
namespace simd {
APG_SDPA_DECLARATION
} // namespace simd

#undef APG_SDPA_DECLARATION

} // namespace apg::core
