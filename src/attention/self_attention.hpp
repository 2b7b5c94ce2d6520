// Multi-head scaled dot-product self-attention over one sequence (no batch): queries, keys and
// values all come from the same rows X. The building block of a Transformer encoder layer
// (which adds residuals, layer norm and the feed-forward block around it).
//
// Shapes: n = sequence length, d = model size, h = heads, dk = d / h (d % h == 0): one head's
// query, key and value width (d_k in Vaswani et al.); head_forward: nq queries, nk keys (n, n here).
//   Q = X W_qᵀ + b_q,  K = X W_kᵀ + b_k,  V = X W_vᵀ + b_v     n × d   (W_*: d × d, out × in)
//   head i takes columns [i·dk, (i+1)·dk) of Q, K, V:         n × dk
//     raw_scores = Q_i K_iᵀ                                     n × n
//     scores     = raw_scores / √dk, −∞ where masked            n × n
//     weights    = softmax of each row of scores                n × n   (0 where masked)
//     output     = weights V_i                                  n × dk
//   concat = [output_0 … output_{h−1}]                          n × d
//   Y = concat W_oᵀ + b_o                                       n × d
// Row r (the query at position r) may attend to column c (the key at position c) when
// padding_mask[c] != 0 (or the mask is empty) and, with causal, c <= r.
//
// Two ways to the same outputs: keeping every intermediate above (what the page's trace shows and
// the backward pass reads), or only the outputs, through the fused kernel of
// core/kernels_attention.hpp, which forms no n × n matrix (an online softmax over tiles of keys)
// and reads each head's columns of Q, K, V in place. The two agree within the bound of
// tests/core/test_attention.cpp, not bit for bit (their sums run in different orders).
#pragma once

#include "core/kernels_attention.hpp"
#include "core/params.hpp"
#include "core/rng.hpp"
#include "core/tensor.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace apg::attention {

struct SelfAttentionParams {
    Mat w_q, w_k, w_v, w_o; // d × d each (out × in)
    Vec b_q, b_k, b_v, b_o; // d each

    // The tensors, once, in checkpoint order: w_q, b_q, w_k, b_k, w_v, b_v, w_o, b_o.
    void list(core::ParamList out, Eigen::Index d);
    // Weights uniform in ±1/√d, biases zero, from a deterministic generator.
    static SelfAttentionParams init(Eigen::Index d, core::Rng &rng);
    // Same shapes, all zeros: the accumulator for gradients.
    SelfAttentionParams zeros_like() const { return core::zeros<SelfAttentionParams>(dim()); }
    // The model size d; check() has made sure every member agrees with it.
    Eigen::Index dim() const { return w_q.rows(); }
    // Throws std::invalid_argument naming the member whose shape is not d × d (or d).
    void check() const;
};

// What a forward pass keeps: every head's intermediates, or only the outputs (the fused kernel).
enum class Keep { everything, outputs };

struct SelfAttentionOptions {
    int heads = 1;                                // h; d % h must be 0
    std::span<const std::uint8_t> padding_mask{}; // n bytes, 1 = real token, 0 = padding; empty = no padding
    bool causal = false;                          // position r attends only to positions <= r
    Keep keep = Keep::everything;                 // outputs: heads stays empty, concat and output are filled
};

// Every intermediate of one head, kept for the page and the backward pass.
struct SelfAttentionHead {
    Mat query;      // n × dk, this head's columns of Q
    Mat key;        // n × dk
    Mat value;      // n × dk
    Mat raw_scores; // n × n, Q_i K_iᵀ
    Mat scores;     // n × n, raw_scores / √dk with −∞ at masked entries
    Mat weights;    // n × n, row-wise softmax, rows sum to 1, 0 at masked entries
    Mat output;     // n × dk, weights · value
};

struct SelfAttentionResult {
    Mat query, key, value;                // n × d projections (bias included)
    std::vector<std::uint8_t> allowed;    // n × n row-major, 1 where row r may attend to column c
    std::vector<SelfAttentionHead> heads; // h
    Mat concat;                           // n × d, the head outputs side by side
    Mat output;                           // n × d, Y
};

// One head's scaled dot-product attention, the hot path of self_attention_forward (and of the
// attention benchmark): from head.query (nq × dk), head.key and head.value (nk × dk) it fills
// output (nq × dk) and, with Keep::everything, raw_scores, scores and weights (nq × nk); with
// Keep::outputs those three are left as they were and the fused kernel computes the output.
// allowed: nq × nk bytes, row-major, 1 where query r may attend to key c; every row needs one.
// scale: 1/√dk. Shapes unchecked.
void head_forward(SelfAttentionHead &head, std::span<const std::uint8_t> allowed, float scale,
                  Keep keep = Keep::everything);

// x: n × d. With options.keep == Keep::outputs, out.heads is left empty (backward then refuses it).
// Throws std::invalid_argument for bad shapes, d % h != 0, a padding mask of the wrong
// size, or a row with nothing to attend to (every key padded or, with causal, before it).
void self_attention_forward(const SelfAttentionParams &params, const Mat &x, const SelfAttentionOptions &options,
                            SelfAttentionResult &out);

// Given dL/dY (n × d), ACCUMULATES (+=) dL/dX (n × d) and dL/d params (shapes as params, e.g.
// from zeros_like()). fwd must be the forward result for the same params, x and options.
void self_attention_backward(const SelfAttentionParams &params, const Mat &x, const SelfAttentionOptions &options,
                             const SelfAttentionResult &fwd, const Mat &d_output, Mat &d_x,
                             SelfAttentionParams &d_params);

} // namespace apg::attention
