// The trace of a Transformer encoder pass: one record per layer (kind "self_attention", index =
// layer), so the page reads every stage of every head by name, like the decoder's steps. Its
// fields are listed in the table below (record_schema.hpp says what reads it). The .npy export
// stacks a buffer over the layers ("weights.npy": L × h × n × n); in JSON, −∞ becomes null.
// Shape letters: n = sequence length, d = model size, h = heads, dh = d / h, f = feed-forward size.
#pragma once

#include "decode/record_schema.hpp"
#include "models/transformer_encoder.hpp"
#include "trace/trace.hpp"

#include <vector>

namespace apg::decode {

namespace record {

inline constexpr std::string_view self_attention_kind[] = {"self_attention"};

// In the order of the page's object.
inline constexpr Field self_attention_layer[] = {
    {"kind", Type::label, "", false, "what produced the record", nullptr, self_attention_kind},
    {"index", Type::integer, "", false, "the layer, from 0"},
    {"layer", Type::integer, "", false, "the layer, from 0 (as index)"},
    {"heads", Type::integer, "", false, "h"},
    {"mask", Type::ints, "n", false, "1 = real token"},
    {"input", Type::tensor, "n d", false, "the layer's input (layer 0: embedding + positional code)"},
    {"w_q", Type::tensor, "h dh d", false, "each head's rows of W_q (out × in): q = W_q x + b_q"},
    {"b_q", Type::tensor, "h dh", false, "each head's part of b_q"},
    {"w_k", Type::tensor, "h dh d", false, "each head's rows of W_k: k = W_k x + b_k"},
    {"b_k", Type::tensor, "h dh", false, "each head's part of b_k"},
    {"w_v", Type::tensor, "h dh d", false, "each head's rows of W_v: v = W_v x + b_v"},
    {"b_v", Type::tensor, "h dh", false, "each head's part of b_v"},
    {"query", Type::tensor, "h n dh", false, "each head's columns of Q = X W_qᵀ + b_q"},
    {"key", Type::tensor, "h n dh", false, "each head's K"},
    {"value", Type::tensor, "h n dh", false, "each head's V"},
    {"raw_scores", Type::tensor, "h n n", false, "Q Kᵀ"},
    {"scores", Type::tensor, "h n n", false, "rawScores / √dh, −Infinity at masked keys"},
    {"weights", Type::tensor, "h n n", false, "row-wise softmax of scores"},
    {"context", Type::tensor, "h n dh", false, "weights · value, each head's output"},
    {"attention", Type::tensor, "n d", false, "the heads concatenated, projected by W_o"},
    {"norm1", Type::tensor, "n d", false, "LayerNorm1(input + attention)"},
    {"ffn_hidden", Type::tensor, "n f", false, "the feed-forward block's activations"},
    {"output", Type::tensor, "n d", false, "LayerNorm2(norm1 + FFN(norm1)), the next layer's input"},
};

} // namespace record

// The record of one layer: its parameters' projections (where q, k and v come from) and its pass.
trace::StepRecord to_record(const models::TransformerLayerParams &params, const models::TransformerLayerCache &layer,
                            const Mat &input, std::span<const std::uint8_t> mask, int index);

// One record per layer of the pass, in order; `params` made the pass.
std::vector<trace::StepRecord> to_records(const models::TransformerEncoderParams &params,
                                          const models::TransformerEncoderCache &cache);

} // namespace apg::decode
