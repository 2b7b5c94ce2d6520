// The memory of a decoding and of its exports (declared in budget.hpp). Compiled for size in the
// wasm build (src/decode): it runs once per session, beam search or export.
#include "decode/budget.hpp"

#include "attention/score.hpp"

#include <algorithm>

namespace apg::decode {

namespace {

using core::MemoryBudget;
using models::EncoderKind;
using models::ModelConfig;

// What an allocation costs beyond its floats (the allocator's header and alignment), counted for
// each of the ~24 vectors and matrices a kept step holds.
constexpr double kStepBookkeeping = 1024;

bool has_hidden(const ModelConfig &c) {
    return c.score == attention::ScoreKind::additive || c.score == attention::ScoreKind::location;
}

// Floats of one step's vectors that do not grow with n or the vocabulary: the states, the query,
// the context, the additive query projection, the top-k.
double state_floats(const ModelConfig &c, int top_k) {
    return 4.0 * c.decoder_hidden + c.encoder_state() + c.attention_dim + 2.0 * top_k;
}

// A transformer encoder layer's record (transformer_trace.hpp): 3 h n² scores and weights, 3 d²
// of projections, 9 n d of activations, n f of the feed-forward, the biases and the mask.
void add_self_attention_records(MemoryBudget &budget, const ModelConfig &c, double n, double bytes_per_float) {
    const double d = c.embedding, f = c.ff_hidden;
    budget.add("the self-attention records' scores and weights", 3 * bytes_per_float,
               {{static_cast<double>(c.layers), "layers"},
                {static_cast<double>(c.heads), "heads"},
                {n, "source positions"},
                {n, "source positions"}});
    budget.add("the self-attention records' activations and projections",
               bytes_per_float * (3 * d * d + n * (9 * d + f) + 3 * d + 2 * n),
               {{static_cast<double>(c.layers), "layers"}});
}

// The Transformer decoder's share of `kept` steps, each fed at most `fed` positions
// (models/transformer_decoder.hpp's TransformerDecoderStep and its edits): per step, each layer's
// self-attention scores and weights over the positions fed (L × h × t each), the cross-attention's
// scores, weights and each head's own mask and pin over the source (L × h × n), ~10 rows of d and
// one of f per layer; with keep_qkv, each head's keys and values of the positions fed and of the
// source. The same bound as the encoder's self-attention records: layers × heads × n per step.
void add_transformer_decoder_steps(MemoryBudget &budget, const ModelConfig &c, double n, double kept, double fed,
                                   bool keep_qkv, double per_float, std::string_view steps_name) {
    const core::Size steps{kept, steps_name}, layers{static_cast<double>(c.layers), "layers"},
        heads{static_cast<double>(c.heads), "heads"};
    const double d = c.embedding, f = c.ff_hidden;
    budget.add("the decoder's self-attention scores and weights", 2 * per_float,
               {steps, {fed, "positions fed"}, layers, heads});
    budget.add("the decoder's cross-attention scores, weights, masks and pins", 5 * per_float,
               {steps, layers, heads, {n, "source positions"}});
    budget.add("the decoder layers' rows", per_float * (12 * d + f + 4.0 * c.heads) + kStepBookkeeping,
               {steps, layers});
    if (keep_qkv) {
        budget.add("the decoder's self-attention keys and values", 2 * per_float,
                   {steps, {fed, "positions fed"}, layers, {d, "embedding"}});
        budget.add("the decoder's cross-attention keys and values", 2 * per_float,
                   {steps, layers, {n, "source positions"}, {d, "embedding"}});
    }
}

} // namespace

void add_encoding(MemoryBudget &budget, const ModelConfig &c, double n) {
    const double dh = c.encoder_state();
    // H, the score function's key cache (n × da or n × Hd), the fixed vector and s_0.
    budget.add("the encoder states and the key cache",
               core::float_bytes * (dh + std::max<double>(c.attention_dim, c.decoder_hidden)),
               {{n, "source positions"}});
    switch (c.encoder) {
    case EncoderKind::gru:
        // One sequence's pass: its embeddings, input projections, states and each step's gates.
        budget.add("the GRU encoder's pass", core::float_bytes * (c.embedding + 20.0 * c.encoder_hidden) + 6 * 64,
                   {{n, "source positions"}});
        break;
    case EncoderKind::transformer: {
        const double d = c.embedding, f = c.ff_hidden;
        // Per layer: Q, K, V and each head's raw scores, scores and weights (3 h n²), the allowed
        // mask (n² bytes), and ~16 n × d activations and 2 n × f of the feed-forward.
        budget.add("the self-attention scores and weights kept for the trace", 3 * core::float_bytes,
                   {{static_cast<double>(c.layers), "layers"},
                    {static_cast<double>(c.heads), "heads"},
                    {n, "source positions"},
                    {n, "source positions"}});
        budget.add("the transformer layers' activations", core::float_bytes * (16 * d + 2 * f + 4) + n,
                   {{static_cast<double>(c.layers), "layers"}, {n, "source positions"}});
        // ~16 matrices a layer and 7 a head, each with its allocation's header.
        budget.add("the transformer layers' allocations", 64 * (16 + 7.0 * c.heads),
                   {{static_cast<double>(c.layers), "layers"}});
        break;
    }
    case EncoderKind::conv:
        // The conv encoder's activations are bounded by limits::max_image_activations; its widest
        // buffers (the second convolution's patches) are a small multiple of them.
        budget.add("the conv encoder's activations", 8 * core::float_bytes,
                   {{static_cast<double>(c.image_size) * c.image_size, "pixels"},
                    {static_cast<double>(c.conv_channels), "conv_channels"}});
        break;
    case EncoderKind::audio: {
        // R + 1 BiGRU layers over the frames (n · 2^R of them at most), each with its caches.
        const double frames = n * static_cast<double>(1 << c.reductions);
        budget.add("the audio encoder's pass", core::float_bytes * (c.input_dim + 24.0 * c.encoder_hidden) + 6 * 64,
                   {{frames, "frames"}, {static_cast<double>(c.reductions + 1), "layers"}});
        break;
    }
    }
    if (c.decoder == models::DecoderKind::transformer)
        // M and each layer's cross-attention keys and values (TransformerMemory).
        budget.add("the decoder's memory and cross-attention keys and values", core::float_bytes,
                   {{n, "source positions"},
                    {2.0 * c.layers + 1, "layers' keys and values"},
                    {static_cast<double>(c.embedding), "embedding"}});
}

void add_steps(MemoryBudget &budget, const ModelConfig &c, double n, double steps, int top_k, double per_float,
               std::string_view steps_name, double fed, bool keep_qkv) {
    const core::Size kept{steps, steps_name};
    if (c.decoder == models::DecoderKind::transformer)
        add_transformer_decoder_steps(budget, c, n, steps, fed < 0 ? steps : fed, keep_qkv, per_float, steps_name);
    budget.add("the logits and probabilities", 2 * per_float,
               {kept, {static_cast<double>(c.target_vocab), "target tokens"}});
    if (has_hidden(c))
        budget.add("the additive score's hidden", per_float,
                   {kept, {n, "source positions"}, {static_cast<double>(c.attention_dim), "attention_dim"}});
    if (c.score == attention::ScoreKind::location)
        budget.add("the location features", per_float,
                   {kept, {n, "source positions"}, {static_cast<double>(c.location_filters), "location_filters"}});
    // Scores, weights, the softmax's exps, the cosines, the previous weights, the mask.
    budget.add("the per-position vectors", 8 * per_float, {kept, {n, "source positions"}});
    budget.add("the states, contexts and top-k", per_float * state_floats(c, top_k) + kStepBookkeeping, {kept});
}

MemoryBudget session_memory(const ModelConfig &c, std::int64_t n, int steps, int top_k, const char *who,
                            bool keep_qkv) {
    MemoryBudget budget(who);
    add_encoding(budget, c, static_cast<double>(n));
    add_steps(budget, c, static_cast<double>(n), steps, std::min(top_k, c.target_vocab), core::float_bytes, "steps", -1,
              keep_qkv);
    if (c.decoder == models::DecoderKind::transformer)
        // The session's key/value cache, and the one a step without it recomputes beside it.
        budget.add("the decoder's key/value caches", 4 * core::float_bytes,
                   {{static_cast<double>(steps), "steps"},
                    {static_cast<double>(c.layers), "layers"},
                    {static_cast<double>(c.embedding), "embedding"}});
    return budget;
}

void check_session_memory(const ModelConfig &c, std::int64_t n, int steps, int top_k, const char *who, bool keep_qkv) {
    session_memory(c, n, steps, top_k, who, keep_qkv).check();
}

int checked_session_steps(const models::Seq2Seq &model, const SessionOptions &options, std::int64_t n) {
    const int steps = checked_max_steps(model, options, "session");
    check_session_memory(model.config(), n, steps, std::max(options.top_k, 1), "session", options.keep_qkv);
    return steps;
}

void check_beam_memory(const ModelConfig &c, std::int64_t n, int steps, int width) {
    MemoryBudget budget("beam");
    // Every kept hypothesis holds its step; the expanded steps of a depth are copies beside them.
    add_steps(budget, c, static_cast<double>(n), (static_cast<double>(steps) + 1) * width, 0, core::float_bytes,
              "hypothesis steps", steps);
    if (c.decoder == models::DecoderKind::transformer)
        // The key/value cache each expansion rebuilds along its hypothesis.
        budget.add("the decoder's key/value cache", 2 * core::float_bytes,
                   {{static_cast<double>(steps), "steps"},
                    {static_cast<double>(c.layers), "layers"},
                    {static_cast<double>(c.embedding), "embedding"}});
    budget.add("the candidates", 64, {{static_cast<double>(width), "width"}, {static_cast<double>(width), "width"}});
    budget.check();
}

void check_export_memory(const ModelConfig &c, std::int64_t n, std::int64_t steps, int top_k, Export kind,
                         const char *who, bool keep_qkv) {
    // Bytes per number: the record's float, then for JSON a JSON value (16 bytes, in arrays grown
    // by doubling) and up to 26 characters of text; for .npy the stacked copy and the file.
    const double per_float = kind == Export::json ? 64 : kind == Export::npy ? 16 : 8;
    MemoryBudget budget(who);
    const double positions = static_cast<double>(n);
    if (kind != Export::self_attention)
        add_steps(budget, c, positions, static_cast<double>(steps), std::min(top_k, c.target_vocab), per_float, "steps",
                  -1, keep_qkv);
    if (c.encoder == EncoderKind::transformer) add_self_attention_records(budget, c, positions, per_float);
    budget.check();
}

} // namespace apg::decode
