#include "train/budget.hpp"

#include "core/budget.hpp"
#include "decode/budget.hpp"
#include "models/seq2seq.hpp"

#include <algorithm>
#include <cmath>

namespace apg::train {

namespace {

using core::MemoryBudget;
using core::Size;
using models::EncoderKind;

// An allocation's header and alignment, for the per-sequence and per-step vectors.
constexpr double kAllocation = 64;

struct DataSizes {
    double pairs = 0;
    double longest_source = 1; // what the encoder reads: tokens, frames (grid cells for images)
    double positions = 1;      // what the decoder attends over: tokens, grid cells, reduced frames
    double longest_target = 1; // target tokens + the end token
};

DataSizes data_sizes(const models::ModelConfig &c, const EncodedPairs &pairs) {
    DataSizes d;
    d.pairs = static_cast<double>(pairs.size());
    for (const auto &t : pairs.targets) {
        d.longest_target = std::max(d.longest_target, static_cast<double>(t.size()) + 1);
    }
    for (const auto &s : pairs.sources) {
        d.longest_source = std::max(d.longest_source, static_cast<double>(s.size()));
    }
    if (!pairs.images.empty()) d.longest_source = c.max_source_len;
    for (const auto &frames : pairs.frames) {
        d.longest_source = std::max(d.longest_source, static_cast<double>(frames.size()) / c.input_dim);
    }
    // The audio encoder halves the steps R times (rounding up).
    d.positions = c.encoder == EncoderKind::audio ? std::ceil(d.longest_source / static_cast<double>(1 << c.reductions))
                                                  : d.longest_source;
    return d;
}

double parameter_count(const models::ModelConfig &c) {
    double count = 0;
    for (const auto &t : models::tensor_shapes(c)) {
        double size = 1;
        for (const auto d : t.shape) size *= static_cast<double>(d);
        count += size;
    }
    return count;
}

// The encoder's caches for a mini-batch of B sources of N positions, and their gradients.
void add_encoder(MemoryBudget &budget, const models::ModelConfig &c, double B, double N) {
    const Size batch{B, "batch"};
    switch (c.encoder) {
    case EncoderKind::gru:
        // Embeddings, input projections, states and each step's gates, in both directions; their
        // gradients as large again.
        budget.add("the GRU encoder's caches and gradients",
                   2 * (core::float_bytes * (c.embedding + 20.0 * c.encoder_hidden) + 6 * kAllocation),
                   {batch, {N, "source positions"}});
        break;
    case EncoderKind::transformer: {
        const double d = c.embedding, f = c.ff_hidden;
        // Per sequence and layer: each head's raw scores, scores and weights kept, two n × n
        // gradients in the backward pass, the allowed mask.
        budget.add("the self-attention scores, weights and their gradients", 5 * core::float_bytes + 1,
                   {batch,
                    {static_cast<double>(c.layers), "layers"},
                    {static_cast<double>(c.heads), "heads"},
                    {N, "source positions"},
                    {N, "source positions"}});
        budget.add("the transformer layers' activations and gradients", 2 * core::float_bytes * (16 * d + 2 * f + 4),
                   {batch, {static_cast<double>(c.layers), "layers"}, {N, "source positions"}});
        break;
    }
    case EncoderKind::conv:
        // Input, two convolutions and poolings, the second convolution's patches, and the backward
        // scratch of each.
        budget.add("the conv encoder's activations and gradients", 20 * core::float_bytes,
                   {batch,
                    {static_cast<double>(c.image_size) * c.image_size, "pixels"},
                    {static_cast<double>(c.conv_channels), "conv_channels"}});
        break;
    case EncoderKind::audio:
        // Layer 0 over every frame (its input, projections, states, gates, output, and their
        // gradients: ~2F + 30He floats a frame), the reduced layers over half as many steps each
        // (4He inputs: ~38He a step), so ~2F + 52He floats a frame in all.
        budget.add("the audio encoder's caches and gradients",
                   core::float_bytes * (2.0 * c.input_dim + 52.0 * c.encoder_hidden), {batch, {N, "frames"}});
        break;
    }
}

// The decoder's teacher-forced pass over T steps of B sequences attending over N positions
// (DecoderCache) and its backward pass.
void add_decoder(MemoryBudget &budget, const models::ModelConfig &c, double B, double N, double T) {
    const Size steps{T, "target steps"}, batch{B, "batch"}, positions{N, "source positions"};
    const double dh = c.encoder_state(), Hd = c.decoder_hidden, E = c.embedding, da = c.attention_dim;
    // The probabilities, the logits' gradient and the logits while the softmax runs.
    budget.add("the output layer's probabilities and gradients", 3 * core::float_bytes,
               {steps, batch, {static_cast<double>(c.target_vocab), "target tokens"}});
    const bool hidden = c.score == attention::ScoreKind::additive || c.score == attention::ScoreKind::location;
    if (hidden)
        budget.add("the additive score's hidden at every step", core::float_bytes,
                   {steps, batch, positions, {da, "attention_dim"}});
    if (c.score == attention::ScoreKind::location)
        budget.add("the location features at every step", 2 * core::float_bytes,
                   {steps, batch, positions, {static_cast<double>(c.location_filters), "location_filters"}});
    // Each step's scores, weights, previous weights, cosines, and their gradients.
    budget.add("the attention's per-position vectors", 12 * core::float_bytes, {steps, batch, positions});
    // The states, GRU gates and projections, contexts, queries, features (~13 Hd + 4 dh + 3 E a
    // step), their gradients (~5 Hd + 3 dh + 3 E), and the allocations each step's attention holds.
    budget.add("the decoder's states and their gradients",
               core::float_bytes * (20 * Hd + 8 * dh + 6 * E + da) + 8 * kAllocation, {steps, batch});
    // Per sequence: the key cache and its gradient, dL/dH, dL/d keys, dL/d values, and the
    // backward pass's per-step scratch (one n × da hidden gradient).
    budget.add("the key caches and the states' gradients", core::float_bytes * (3 * std::max(da, Hd) + 4 * dh),
               {batch, positions});
}

// The Transformer decoder's teacher-forced pass over T positions of B sequences attending over N
// source positions (TransformerDecoderBatchCache) and its backward pass: per sequence and layer,
// the masked self-attention's scores and weights (h × T × T) and the cross-attention's (h × T × N),
// kept and with their gradients, ~16 rows of d and 2 of f per position, the memory and its keys and
// values; the logits, probabilities and their gradient.
void add_transformer_decoder(MemoryBudget &budget, const models::ModelConfig &c, double B, double N, double T) {
    const Size steps{T, "target steps"}, batch{B, "batch"}, positions{N, "source positions"},
        layers{static_cast<double>(c.layers), "layers"}, heads{static_cast<double>(c.heads), "heads"};
    const double d = c.embedding, f = c.ff_hidden;
    budget.add("the output layer's logits, probabilities and gradients", 3 * core::float_bytes,
               {steps, batch, {static_cast<double>(c.target_vocab), "target tokens"}});
    budget.add("the decoder's self-attention scores, weights and their gradients", 5 * core::float_bytes,
               {batch, layers, heads, steps, {T, "target steps"}});
    budget.add("the decoder's cross-attention scores, weights and their gradients", 5 * core::float_bytes,
               {batch, layers, heads, steps, positions});
    budget.add("the decoder layers' activations and gradients",
               2 * core::float_bytes * (16 * d + 2 * f) + 8 * kAllocation, {batch, layers, steps});
    budget.add("the decoder's memory, its keys and values and their gradients", 2 * core::float_bytes * d,
               {batch, positions, {2.0 * c.layers + 1, "layers' keys and values"}});
}

} // namespace

MemoryBudget run_memory(const models::ModelConfig &c, const TrainOptions &options, const EncodedPairs &train) {
    MemoryBudget budget("training run");
    // The parameters, their gradients, Adam's two moments, the last good copy step() keeps, and
    // the model save() and snapshot() build beside them.
    budget.add("the parameters, gradients, Adam's moments and copies", 7 * core::float_bytes,
               {{parameter_count(c), "parameters"}});
    // The data is made already, and bounded without the run's sizes: a task's by its generator,
    // own pairs by their limits (max_pairs_bytes of text, max_pairs × 2 × max_pair_tokens ids).
    const DataSizes data = data_sizes(c, train);
    // A mini-batch is padded to its longest source and target: at worst the data's longest.
    const double B = std::min<double>(options.batch_size, std::max(data.pairs, 1.0));
    add_encoder(budget, c, B, data.longest_source);
    if (c.decoder == models::DecoderKind::transformer)
        add_transformer_decoder(budget, c, B, data.positions, data.longest_target);
    else
        add_decoder(budget, c, B, data.positions, data.longest_target);
    // An evaluation decodes one pair at a time, at most the model's lengths.
    decode::add_encoding(budget, c, c.max_source_len);
    decode::add_steps(budget, c, c.max_source_len, c.max_target_len + 1.0, 5);
    return budget;
}

void check_run_memory(const models::ModelConfig &c, const TrainOptions &options, const EncodedPairs &train) {
    run_memory(c, options, train).check();
}

} // namespace apg::train
