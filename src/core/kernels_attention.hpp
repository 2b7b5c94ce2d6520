// One head of scaled dot-product attention as one fused kernel:
//   out = softmax(scale · Q Kᵀ, masked) V
// computed without forming the nq × nk matrices of scores and weights: the keys are taken in tiles,
// and each query row keeps a running maximum and sum of its weights (an online softmax), so Q, K
// and V are each read once and the tiles stay in L1. The page's trace needs those matrices, so
// attention::head_forward only takes this path when no record asks for them.
//
// Shapes: nq queries, nk keys, dk the query and key width, dv the value width.
//   q    nq × dk          k    nk × dk          v    nk × dv          out  nq × dv
// Each operand is a strided view of rows, so one head's columns of a wider Q, K or V (n × d, head h
// at columns h·dk …) are read in place; keys and values may come from another sequence than the
// queries (a decoder's cross-attention: queries from the target, keys and values from the encoder).
//
// Like the other kernels it exists twice: scalar:: is the plain reference (one query row and one
// key at a time), simd:: the blocked one; core::fused_attention picks one at compile time.
#pragma once

#include "core/kernels.hpp"

#include <cstddef>

namespace apg::core {

// rows × cols floats, row r starting at data[r · stride]; data must hold (rows − 1)·stride + cols.
struct ConstRows {
    cfspan data;
    std::size_t rows = 0, cols = 0, stride = 0;
};
struct Rows {
    fspan data;
    std::size_t rows = 0, cols = 0, stride = 0;
};

// Which keys each query may see. Query r sees key c when every given part allows it:
struct AttentionMask {
    mask_span keys{};            // nk bytes, 0 = padding: no query sees that key; empty = no padding
    mask_span allowed{};         // nq × nk bytes row-major, 0 = query r may not see key c; empty = all
    bool causal = false;         // query r sees key c only when c ≤ first_query + r
    std::size_t first_query = 0; // the key position of query 0: 0 for self-attention over a whole
                                 // sequence, nk − nq when the last nq positions are being decoded
};

#define APG_ATTENTION_DECLARATION                                                                                      \
    /* out = softmax(scale · q kᵀ, mask) v. Throws std::invalid_argument for views whose sizes do not fit           \
       (naming them), or when a query has no key to see (naming it); out is then left as it was. */                    \
    void fused_attention(ConstRows q, ConstRows k, ConstRows v, Rows out, float scale, const AttentionMask &mask = {});

namespace scalar {
APG_ATTENTION_DECLARATION
} // namespace scalar

namespace simd {
APG_ATTENTION_DECLARATION
} // namespace simd

#undef APG_ATTENTION_DECLARATION

// The checks both versions make before touching out (kernels_attention_check.cpp).
void check_attention(const char *op, const ConstRows &q, const ConstRows &k, const ConstRows &v, const Rows &out,
                     const AttentionMask &mask);

} // namespace apg::core
