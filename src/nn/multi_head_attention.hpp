// Multi-head scaled dot-product attention whose queries come from one sequence and whose keys and
// values were projected from another: the Transformer decoder's cross-attention over the encoder
// states, and its masked self-attention at one decoding step over the key/value cache. The
// parameters are attention::SelfAttentionParams (the same eight tensors), and each head's scores,
// softmax and weighted sum are attention::head_forward, the encoder's self-attention kernel.
//
// Shapes: m = queries, n = keys, d = model size, h = heads, dk = d / h.
//   K = M W_kᵀ + b_k,  V = M W_vᵀ + b_v     n × d   (M: n × d, the memory; project_key_values)
//   Q = X W_qᵀ + b_q                        m × d   (X: m × d)
//   head i takes columns [i·dk, (i+1)·dk) of Q, K, V:
//     raw_scores = Q_i K_iᵀ                  m × n
//     scores     = raw_scores / √dk, −∞ where masked
//     weights    = softmax of each row of scores / τ
//     output     = weights V_i               m × dk
//   Y = [output_0 … output_{h−1}] W_oᵀ + b_o   m × d
#pragma once

#include "attention/self_attention.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace apg::nn {

// The keys and values of a memory, projected once and attended by any number of queries.
struct KeyValues {
    Mat key;   // n × d   M W_kᵀ + b_k
    Mat value; // n × d   M W_vᵀ + b_v
};

// memory: n × d. Throws std::invalid_argument when its width is not the parameters' d.
void project_key_values(const attention::SelfAttentionParams &params, const Mat &memory, KeyValues &out);

// Given dL/dK and dL/dV (n × d each), ACCUMULATES dL/d memory (n × d, sized already) and the
// gradients of W_k, b_k, W_v, b_v into grads.
void project_key_values_backward(const attention::SelfAttentionParams &params, const Mat &memory, const KeyValues &d_kv,
                                 Mat &d_memory, attention::SelfAttentionParams &grads);

// A what-if on one head at a decoding step (one query).
struct HeadEdit {
    std::span<const std::uint8_t> mask{}; // n bytes, 0 = hidden from this head too; empty = no mask of its own
    std::span<const float> weights{};     // n weights used instead of its softmax (summing to 1); empty = its own
    bool off = false;                     // its output is 0: Y gets nothing from it but b_o
};

struct MultiHeadOptions {
    int heads = 1;                           // h; d % h must be 0
    std::span<const std::uint8_t> allowed{}; // m × n bytes, row-major, 1 where query r may see key c; empty = all
    float temperature = 1.0f;                // weights = softmax(scores / τ) in every head
    std::span<const HeadEdit> edits{};       // h entries (one query only), or empty
};

struct MultiHeadResult {
    Mat query; // m × d, Q (bias included)
    std::vector<attention::SelfAttentionHead>
        heads;  // h: query, key, value, raw_scores, scores (before τ), weights, output
    Mat concat; // m × d, the head outputs side by side (0 for a head switched off)
    Mat output; // m × d, Y
};

// x: m × d, kv: projected keys and values (n × d). Throws std::invalid_argument for bad shapes,
// d % h != 0, an `allowed` of the wrong size, a row (with a head's own mask) with nothing to
// attend to, or edits for more than one query or of the wrong count. The caller checks τ and
// the pinned weights.
void multi_head_forward(const attention::SelfAttentionParams &params, const Mat &x, const KeyValues &kv,
                        const MultiHeadOptions &options, MultiHeadResult &out);

// The gradient of multi_head_forward without edits and at τ = 1 (training). ACCUMULATES dL/dx
// (m × d), dL/dK and dL/dV (d_kv: n × d each, sized already) and the gradients of W_q, b_q, W_o,
// b_o into grads; fwd is the forward result of the same params, x, kv and options.
void multi_head_backward(const attention::SelfAttentionParams &params, const Mat &x, const KeyValues &kv,
                         const MultiHeadOptions &options, const MultiHeadResult &fwd, const Mat &d_output, Mat &d_x,
                         KeyValues &d_kv, attention::SelfAttentionParams &grads);

} // namespace apg::nn
