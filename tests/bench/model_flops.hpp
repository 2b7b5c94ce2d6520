// Multiply-adds of the models' passes, the numerators of the benchmarks' GFLOP/s and "% peak":
// the products and the attention, not the elementwise functions (sigmoid, tanh, exp) or Adam.
#pragma once

#include "models/config.hpp"

namespace apg::bench {

// One decoder step of one sequence over n encoder states: the GRU's three gates over
// [embedding, context, state], the output layer over [state, context, embedding], the query's
// projection and, per source position, the additive score (da) and the context (dh).
inline double decoder_step_macs(const models::ModelConfig &c, double n) {
    const double E = c.embedding, Hd = c.decoder_hidden, dh = c.encoder_state(), da = c.attention_dim;
    const double V = c.target_vocab;
    return 3 * Hd * (E + dh + Hd) + V * (Hd + dh + E) + da * Hd + n * (da + 2 * dh);
}

// One teacher-forced forward pass of one sequence: n source and m target positions (the backward
// pass is about twice this). BiGRU: two directions of 3 gates; Transformer: per layer the Q, K, V,
// O projections, Q·Kᵀ and weights·V, and the two feed-forward products.
inline double forward_macs(const models::ModelConfig &c, double n, double m) {
    const double E = c.embedding, He = c.encoder_hidden, Hd = c.decoder_hidden, dh = c.encoder_state();
    const double da = c.attention_dim;
    const double encoder = c.encoder == models::EncoderKind::gru
                               ? 2 * n * 3 * He * (E + He)
                               : c.layers * n * (4 * E * E + 2 * n * E + 2 * E * c.ff_hidden);
    return encoder + m * decoder_step_macs(c, n) + n * da * dh + Hd * dh;
}

} // namespace apg::bench
