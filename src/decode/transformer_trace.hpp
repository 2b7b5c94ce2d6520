// The trace of a Transformer encoder pass: one record per layer (kind "self_attention", index =
// layer), so the page reads every stage of every head by name, like the decoder's steps.
// Shapes: n = sequence length, d = model size, h = heads, dh = d / h, f = feed-forward size.
//   "input"       n × d        the layer's input (layer 0: embedding + positional code)
//   "query"       h × n × dh   each head's columns of Q = X W_qᵀ + b_q
//   "key"         h × n × dh
//   "value"       h × n × dh
//   "raw_scores"  h × n × n    Q_i K_iᵀ
//   "scores"      h × n × n    raw_scores / √dh, −∞ at masked keys (null in JSON)
//   "weights"     h × n × n    row-wise softmax (each row sums to 1)
//   "context"     h × n × dh   weights · value, each head's output
//   "attention"   n × d        the heads concatenated and projected by W_o (+ b_o)
//   "norm1"       n × d        LayerNorm1(input + attention)
//   "ffn_hidden"  n × f        the feed-forward block's activations
//   "output"      n × d        LayerNorm2(norm1 + FFN(norm1)): the next layer's input (the last one's is H)
// Fields: "layer", "heads", "mask" (n bytes, 1 = real token).
// The .npy export stacks a buffer over the layers ("weights.npy": L × h × n × n).
#pragma once

#include "models/transformer_encoder.hpp"
#include "trace/trace.hpp"

#include <vector>

namespace apg::decode {

trace::StepRecord to_record(const models::TransformerLayerCache &layer, const Mat &input, std::span<const std::uint8_t> mask,
                            int index);

// One record per layer of the pass, in order.
std::vector<trace::StepRecord> to_records(const models::TransformerEncoderCache &cache);

} // namespace apg::decode
