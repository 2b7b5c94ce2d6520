// The records of the trace, each described once by a table of its fields: the decoder's step
// here, a Transformer encoder layer's in transformer_trace.hpp. Everything that names a record's
// fields reads its table: the trace record for the JSON and .npy exports (the decoder's built by
// walking the table, in session_record.cpp; the layer's checked against it by a test), the packing
// of a step for the page (wasm/step_record.cpp), and, generated from the tables by
// wasm/generate-types.mjs, the step's JS unpacker (wasm/step_record_unpack.inc) and the
// TypeScript declarations in wasm/playground.d.ts (a test fails when a committed file differs).
//
// A field's name is its trace name (snake_case); on the page it is the camelCase of it
// ("prev_state" → prevState). Shape letters of the decoder's step:
//   n   source tokens          da  additive attention size   dh  encoder state size
//   Hd  decoder state size     Vt  target vocabulary         k   top-k tokens reported
//   kf  location filters
// and of the Transformer decoder's (models/transformer_decoder.hpp), whose step fills the fields
// above from its last layer's cross-attention (heads averaged) and the rows from "decoder" on:
//   L   layers                 h   heads                     dk  d / h, one head's width
//   d   model size             f   feed-forward size         t   tokens fed so far (index + 1)
#pragma once

#include "decode/session.hpp"
#include "models/transformer_decoder.hpp"

#include <array>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace apg::decode::record {

enum class Type {
    integer, // a whole number
    number,  // a float32 scalar
    label,   // one of the field's labels, carried as its index
    token,   // the target token (a string) whose id is the field named by `of`
    vector,  // float32, one shape letter
    matrix,  // float32, row-major, two shape letters
    top,     // the k most probable tokens: ids and probabilities, most probable first
    ints,    // whole numbers, one shape letter (a JS number[])
    tensor,  // float32, row-major, any number of shape letters (a JS {data, shape})
};
// By Type, for the tables sent to JS and the declarations.
inline constexpr std::string_view type_names[] = {"integer", "number", "label", "token", "vector",
                                                  "matrix",  "top",    "ints",  "tensor"};

// What a getter reads from a step; only the members of the field's type are set.
struct Value {
    double number = 0;           // integer, number; label: the index into labels
    const float *data = nullptr; // vector, matrix (row-major), top (probabilities)
    std::int64_t rows = 0;       // vector: its size; matrix: rows; top: k
    std::int64_t cols = 1;       // matrix
    const int *ids = nullptr;    // top
    int rank = 0;                // tensor: its dimensions (0: no tensor), sizes in dims
    std::array<std::int64_t, 4> dims{};
};

using Getter = Value (*)(const SessionStep &step, int index);

struct Field {
    std::string_view name; // trace name; the page's is its camelCase
    Type type;
    std::string_view shape;                     // shape letters, space-separated; "" for scalars
    bool optional;                              // vector, matrix: empty → not in the trace, null on the page
    std::string_view doc;                       // one line for the declaration
    Getter get = nullptr;                       // decoder steps: nullptr only for a token (read from `of`)
    std::span<const std::string_view> labels{}; // label
    std::string_view of{};                      // token: the integer field holding its id
};

inline constexpr std::string_view kind_labels[] = {"decoder"};
// In the order of decode::Choice.
inline constexpr std::string_view choice_labels[] = {"greedy", "forced"};
// How the step's context was made: from its weights, or (a model without attention) the fixed vector.
inline constexpr std::string_view context_labels[] = {"weights", "fixed_vector"};
// In the order of decode::Pin.
inline constexpr std::string_view pin_labels[] = {"none", "token", "weights"};
// In the order of models::DecoderKind.
inline constexpr std::string_view decoder_labels[] = {"gru", "transformer"};

inline Value vec(const Vec &v) { return {.data = v.data(), .rows = v.size()}; }
inline Value scalar(double x) { return {.number = x}; }

// A Transformer decoder step's flat L × h × … buffer with its shape (sizes after L and h in
// `rest`); no tensor for a GRU decoder or a buffer it did not keep.
using TransformerStep = models::TransformerDecoderStep;
inline Value heads_tensor(const SessionStep &s, const std::vector<float> TransformerStep::*member,
                          std::initializer_list<std::int64_t> rest) {
    const TransformerStep *t = s.step.transformer.get();
    if (!t || (t->*member).empty()) return {};
    Value v{.data = (t->*member).data(), .rank = 2};
    v.dims[0] = t->layers;
    v.dims[1] = t->heads;
    for (std::int64_t size : rest) v.dims[static_cast<std::size_t>(v.rank++)] = size;
    return v;
}
// Its sizes (0 for a GRU decoder, whose step has none of these tensors).
inline std::int64_t fed(const SessionStep &s) { return s.step.transformer ? s.step.transformer->position + 1 : 0; }
inline std::int64_t source(const SessionStep &s) { return s.step.transformer ? s.step.transformer->source : 0; }
inline std::int64_t key_width(const SessionStep &s) { return s.step.transformer ? s.step.transformer->key_width : 0; }
// An L × (d or f) matrix of the step as a tensor.
inline Value layers_tensor(const SessionStep &s, const Mat TransformerStep::*member) {
    const TransformerStep *t = s.step.transformer.get();
    if (!t) return {};
    const Mat &m = t->*member;
    Value v{.data = m.data(), .rank = 2};
    v.dims[0] = m.rows();
    v.dims[1] = m.cols();
    return v;
}

// In the order of the page's object (and of the packing).
inline constexpr Field decoder_step[] = {
    {"index", Type::integer, "", false, "the step's position in the session, from 0",
     [](const SessionStep &, int index) { return scalar(index); }},
    {"kind", Type::label, "", false, "what produced the record", [](const SessionStep &, int) { return scalar(0); },
     kind_labels},
    {"token_id", Type::integer, "", false, "the token taken at this step ('</s>' ends the output)",
     [](const SessionStep &s, int) { return scalar(s.token); }},
    {"token", Type::token, "", false, "the token taken, as text", nullptr, {}, "token_id"},
    {"choice", Type::label, "", false, "how the token was chosen",
     [](const SessionStep &s, int) { return scalar(static_cast<int>(s.choice)); }, choice_labels},
    {"log_prob", Type::number, "", false, "log p(token)", [](const SessionStep &s, int) { return scalar(s.log_prob); }},
    {"prev_token_id", Type::integer, "", false, "y_{i-1}: the token fed in ('<s>' at the first step)",
     [](const SessionStep &s, int) { return scalar(s.step.prev_token); }},
    {"prev_token", Type::token, "", false, "the token fed in, as text", nullptr, {}, "prev_token_id"},
    {"top", Type::top, "k", false, "the top-k next tokens, most probable first",
     [](const SessionStep &s, int) {
         return Value{.data = s.top_probs.data(),
                      .rows = static_cast<std::int64_t>(s.top_probs.size()),
                      .ids = s.top_ids.data()};
     }},
    {"prev_state", Type::vector, "Hd", false, "s_{i-1}",
     [](const SessionStep &s, int) { return vec(s.step.prev_state); }},
    {"query", Type::vector, "Hd", false, "s_{i-1} (Bahdanau) or s_i (Luong)",
     [](const SessionStep &s, int) { return vec(s.step.query); }},
    {"context_from", Type::label, "", false,
     "'weights': context = Σ_j weights_j h_j; 'fixed_vector': no attention, context = the encoder's final "
     "states, the same at every step (scores, weights and exps null, the softmax numbers 0)",
     [](const SessionStep &s, int) { return scalar(s.step.attention.weights.size() == 0 ? 1 : 0); }, context_labels},
    {"scores", Type::vector, "n", true, "stage 1: e_j = score(query, h_j); null without attention",
     [](const SessionStep &s, int) { return vec(s.step.attention.score.scores); }},
    {"scale", Type::number, "", false, "scaled_cosine: the learned g of scores = g · cos(query, h_j); 1 otherwise",
     [](const SessionStep &s, int) { return scalar(s.step.attention.score.scale); }},
    {"hidden", Type::matrix, "n da", true, "additive: row j = tanh(W_q query + W_k h_j); otherwise null",
     [](const SessionStep &s, int) {
         const Mat &h = s.step.attention.score.hidden;
         return Value{.data = h.data(), .rows = h.rows(), .cols = h.cols()};
     }},
    {"previous_weights", Type::vector, "n", true, "location: α_{i-1}, read by the features",
     [](const SessionStep &s, int) { return vec(s.step.attention.score.previous); }},
    {"location", Type::matrix, "n kf", true, "location: F ∗ previousWeights",
     [](const SessionStep &s, int) {
         const Mat &f = s.step.attention.score.location;
         return Value{.data = f.data(), .rows = f.rows(), .cols = f.cols()};
     }},
    {"weights", Type::vector, "n", true, "stage 2: softmax(scores / τ), or the pinned weights; null without attention",
     [](const SessionStep &s, int) { return vec(s.step.attention.weights); }},
    {"context", Type::vector, "dh", false, "stage 3: Σ_j weights_j h_j (without attention the fixed vector)",
     [](const SessionStep &s, int) { return vec(s.step.attention.context); }},
    {"state", Type::vector, "Hd", false, "s_i", [](const SessionStep &s, int) { return vec(s.step.state); }},
    {"attentional", Type::vector, "Hd", true, "Luong: tanh(W_c [context; s_i]); Bahdanau: null",
     [](const SessionStep &s, int) { return vec(s.step.attentional); }},
    {"logits", Type::vector, "Vt", false, "the output layer before the softmax",
     [](const SessionStep &s, int) { return vec(s.step.logits); }},
    {"probs", Type::vector, "Vt", false, "softmax(logits)",
     [](const SessionStep &s, int) { return vec(s.step.probs); }},
    {"exps", Type::vector, "n", true,
     "stage 2 spelled out: exp((e_j − maxScore)/τ), 0 at masked keys; null without attention",
     [](const SessionStep &s, int) { return vec(s.softmax.exps); }},
    {"max_score", Type::number, "", false, "the largest unmasked score",
     [](const SessionStep &s, int) { return scalar(s.softmax.max_score); }},
    {"exp_sum", Type::number, "", false, "Σ_j exps_j; weights_j = exps_j / expSum",
     [](const SessionStep &s, int) { return scalar(s.softmax.exp_sum); }},
    {"entropy", Type::number, "", false, "−Σ_j weights_j ln weights_j, in nats",
     [](const SessionStep &s, int) { return scalar(s.softmax.entropy); }},
    {"max_entropy", Type::number, "", false, "ln(unmasked keys): the entropy of uniform weights",
     [](const SessionStep &s, int) { return scalar(s.softmax.max_entropy); }},
    {"intervened", Type::integer, "", false, "1 when a what-if changed this step (mask, pin, τ ≠ 1)",
     [](const SessionStep &s, int) { return scalar(s.intervened ? 1 : 0); }},
    {"masked", Type::vector, "n", true, "what-if: 1 at a masked source token; null when none",
     [](const SessionStep &s, int) { return vec(s.masked); }},
    {"pin", Type::label, "", false, "what-if: weights pinned one-hot on a token, or given",
     [](const SessionStep &s, int) { return scalar(static_cast<int>(s.pin)); }, pin_labels},
    {"temperature", Type::number, "", false, "τ of this step's softmax",
     [](const SessionStep &s, int) { return scalar(s.temperature); }},
    {"decoder", Type::label, "", false,
     "'transformer': the fields above are its last layer's cross-attention (weights averaged over the heads, "
     "context its output c, query its u, state x_L, prevState x_0 = emb + PE; scores null), the fields below "
     "every layer × head; 'gru': the fields below are null",
     [](const SessionStep &s, int) { return scalar(s.step.transformer ? 1 : 0); }, decoder_labels},
    {"self_scores", Type::tensor, "L h t", true,
     "transformer: masked self-attention scores q·k/√dk over the tokens fed so far (<s> first); later positions "
     "are not computed",
     [](const SessionStep &s, int) { return heads_tensor(s, &TransformerStep::self_scores, {fed(s)}); }},
    {"self_weights", Type::tensor, "L h t", true,
     "transformer: softmax of selfScores, this step's row of the causal triangle",
     [](const SessionStep &s, int) { return heads_tensor(s, &TransformerStep::self_weights, {fed(s)}); }},
    {"self_context", Type::tensor, "L h dk", true, "transformer: Σ_j selfWeights_j v_j, each head's output",
     [](const SessionStep &s, int) { return heads_tensor(s, &TransformerStep::self_context, {key_width(s)}); }},
    {"cross_scores", Type::tensor, "L h n", true,
     "transformer: cross-attention scores q·k_j/√dk over the source, before τ; −Infinity at masked tokens",
     [](const SessionStep &s, int) { return heads_tensor(s, &TransformerStep::cross_scores, {source(s)}); }},
    {"cross_weights", Type::tensor, "L h n", true, "transformer: softmax(crossScores / τ), or a head's pinned weights",
     [](const SessionStep &s, int) { return heads_tensor(s, &TransformerStep::cross_weights, {source(s)}); }},
    {"cross_context", Type::tensor, "L h dk", true,
     "transformer: Σ_j crossWeights_j v_j, each head's output (0 for a head switched off)",
     [](const SessionStep &s, int) { return heads_tensor(s, &TransformerStep::cross_context, {key_width(s)}); }},
    {"layer_input", Type::tensor, "L d", true, "transformer: x_{l−1}, each layer's input (layer 0: emb + PE)",
     [](const SessionStep &s, int) { return layers_tensor(s, &TransformerStep::input); }},
    {"self_output", Type::tensor, "L d", true, "transformer: a, the self-attention heads concatenated through W_o",
     [](const SessionStep &s, int) { return layers_tensor(s, &TransformerStep::self_output); }},
    {"norm1", Type::tensor, "L d", true, "transformer: u = LayerNorm1(x + a), the cross-attention's query input",
     [](const SessionStep &s, int) { return layers_tensor(s, &TransformerStep::norm1); }},
    {"cross_output", Type::tensor, "L d", true, "transformer: c, the cross-attention heads concatenated through W_o",
     [](const SessionStep &s, int) { return layers_tensor(s, &TransformerStep::cross_output); }},
    {"norm2", Type::tensor, "L d", true, "transformer: v = LayerNorm2(u + c)",
     [](const SessionStep &s, int) { return layers_tensor(s, &TransformerStep::norm2); }},
    {"ffn_hidden", Type::tensor, "L f", true, "transformer: the feed-forward block's activations",
     [](const SessionStep &s, int) { return layers_tensor(s, &TransformerStep::ffn_hidden); }},
    {"layer_output", Type::tensor, "L d", true, "transformer: x_l = LayerNorm3(v + FFN(v)), the next layer's input",
     [](const SessionStep &s, int) { return layers_tensor(s, &TransformerStep::output); }},
    {"self_query", Type::tensor, "L h dk", true, "transformer, on request (qkv): each head's q = W_q x + b_q",
     [](const SessionStep &s, int) { return heads_tensor(s, &TransformerStep::self_query, {key_width(s)}); }},
    {"self_key", Type::tensor, "L h t dk", true,
     "transformer, on request: each head's keys of the tokens fed so far (the cache and this step's row)",
     [](const SessionStep &s, int) {
         return heads_tensor(s, &TransformerStep::self_key, {fed(s), key_width(s)});
     }},
    {"self_value", Type::tensor, "L h t dk", true, "transformer, on request: each head's values likewise",
     [](const SessionStep &s, int) {
         return heads_tensor(s, &TransformerStep::self_value, {fed(s), key_width(s)});
     }},
    {"cross_query", Type::tensor, "L h dk", true, "transformer, on request: each head's q = W_q u + b_q",
     [](const SessionStep &s, int) { return heads_tensor(s, &TransformerStep::cross_query, {key_width(s)}); }},
    {"cross_key", Type::tensor, "L h n dk", true, "transformer, on request: each head's k_j = W_k h_j + b_k",
     [](const SessionStep &s, int) {
         return heads_tensor(s, &TransformerStep::cross_key, {source(s), key_width(s)});
     }},
    {"cross_value", Type::tensor, "L h n dk", true, "transformer, on request: each head's v_j = W_v h_j + b_v",
     [](const SessionStep &s, int) {
         return heads_tensor(s, &TransformerStep::cross_value, {source(s), key_width(s)});
     }},
    {"head_masked", Type::tensor, "L h n", true,
     "transformer what-if: 1 where a head's own mask hides the token (besides masked); null when none",
     [](const SessionStep &s, int) { return heads_tensor(s, &TransformerStep::head_masked, {source(s)}); }},
    {"head_pinned", Type::tensor, "L h", true,
     "transformer what-if: 1 where a head's weights were pinned at this step; null when none",
     [](const SessionStep &s, int) { return heads_tensor(s, &TransformerStep::head_pinned, {}); }},
    {"head_off", Type::tensor, "L h", true, "transformer what-if: 1 where a head was switched off; null when none",
     [](const SessionStep &s, int) { return heads_tensor(s, &TransformerStep::head_off, {}); }},
};

// The trace record of a step: vectors and matrices as tensors (an empty optional one left out),
// the rest as fields, a top field as "<name>_ids" and "<name>_probs"; tokens named from
// target_tokens (id → token), or left out when it is empty.
trace::StepRecord to_record(const SessionStep &step, int index, std::span<const std::string> target_tokens);

} // namespace apg::decode::record
