// Encoder: embedding → GRU, one direction or both. A bidirectional state is h_j = [→h_j; ←h_j].
// Shapes: B = batch rows, N = longest source in the batch, E = embedding size,
// He = hidden size per direction, dh = state size (He or 2·He), n_b = length of source b.
// Time-major storage: row t·B + b holds position t of sequence b.
#pragma once

#include "models/config.hpp"
#include "nn/gru.hpp"

#include <vector>

namespace apg::models {

struct EncoderParams {
    Mat embedding;     // Vs × E
    nn::GruParams fwd; // input E, hidden He
    nn::GruParams bwd; // bidirectional only (empty otherwise)

    // The tensors, once: embedding, fwd.*, bwd.* (bidirectional only), shapes from the config.
    void list(core::ParamList out, const ModelConfig &config);
};

// Everything one batched forward pass keeps for its backward pass.
struct EncoderCache {
    int batch = 0, steps = 0;       // B, N
    std::vector<int> ids;           // N·B (time-major)
    std::vector<int> lengths;       // B
    std::vector<std::uint8_t> mask; // N·B: 1 where t < n_b
    Mat inputs;                     // N·B × E   embedded tokens
    Mat proj_fwd, proj_bwd;         // N·B × 3He input projections
    Mat states_fwd;                 // (N+1)·B × He: block t+1 = →h_t, block 0 = zeros
    Mat states_bwd;                 // (N+1)·B × He: block t = ←h_t, block N = zeros
    std::vector<nn::GruStepCache> steps_fwd, steps_bwd;
    std::vector<Mat> outputs; // B matrices n_b × dh: H_b = [→h_j; ←h_j]
    // backward scratch
    Mat d_states_fwd, d_states_bwd, d_proj_fwd, d_proj_bwd, d_inputs, carry, carry_next, d_hidden_proj;
};

// ids: time-major N·B token ids (any id at padded positions), lengths: B values in [1, N].
// Throws std::invalid_argument for ids outside the vocabulary or bad lengths.
void encoder_forward(const EncoderParams &params, bool bidirectional, const std::vector<int> &ids,
                     const std::vector<int> &lengths, EncoderCache &cache);

// d_outputs: B matrices n_b × dh (dL/dH_b). ACCUMULATES every encoder gradient into grads.
void encoder_backward(const EncoderParams &params, bool bidirectional, EncoderCache &cache,
                      const std::vector<Mat> &d_outputs, EncoderParams &grads);

} // namespace apg::models
