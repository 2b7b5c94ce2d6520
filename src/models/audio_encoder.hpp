// The audio encoder of the speech models (Listen, Attend and Spell's listener, pyramidal): a
// bidirectional GRU over the frames, then before each further BiGRU layer neighbouring steps
// concatenated (nn/time_reduction.hpp), so R reduction layers leave ⌈n / 2^R⌉ encoder states for
// n frames. Each state sees about 2^R frames of sound and the decoder attends over fewer, longer
// steps (a letter lasts ~4 frames). Shapes: B = batch rows, N = longest utterance (frames),
// F = input_dim (bands per frame), He = hidden per direction, dh = 2·He.
//   layer 0:      H_0 = BiGRU(frames; F → He)                        N steps
//   layer r ≥ 1:  H_r = BiGRU(reduce(H_{r−1}); 4He → He)             ⌈N / 2^r⌉ steps
//   H = H_R                                                           n_b' × dh per utterance
#pragma once

#include "models/config.hpp"
#include "nn/gru.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace apg::models {

struct AudioEncoderConfig {
    int input_dim = 24; // F
    int hidden = 32;    // He
    int reductions = 1; // R
    int layers() const { return reductions + 1; }
    // The encoder states a sequence of n frames gives.
    int states_for(int frames) const;
};

AudioEncoderConfig audio_config(const ModelConfig &config);

struct AudioEncoderParams {
    std::vector<nn::GruParams> fwd, bwd; // one per layer: input F (layer 0) or 4He, hidden He
    // The tensors, once: layers.<r>.fwd.*, layers.<r>.bwd.*.
    void list(core::ParamList out, const AudioEncoderConfig &config);
    static AudioEncoderParams init(const AudioEncoderConfig &config, core::Rng &rng);
};

// One BiGRU layer's forward pass over a time-major batch, kept for its backward pass.
struct BiGruLayerCache {
    int batch = 0, steps = 0;
    std::vector<int> lengths;
    std::vector<std::uint8_t> mask; // N·B: 1 where t < n_b
    Mat inputs;                     // N·B × I
    Mat proj_fwd, proj_bwd;         // N·B × 3He
    Mat states_fwd, states_bwd;     // (N+1)·B × He (as in rnn_encoder.hpp)
    std::vector<nn::GruStepCache> steps_fwd, steps_bwd;
    Mat output;  // N·B × 2He, zero at padding
    Mat reduced; // the next layer's input (time-reduced output), unused for the last layer
    Mat d_output, d_inputs, d_proj_fwd, d_proj_bwd, carry, carry_next, d_hidden_proj; // backward scratch
};

struct AudioEncoderCache {
    std::vector<BiGruLayerCache> layers;
};

// frames: time-major N·B × F values (row t·B + b = frame t of utterance b, anything at padding),
// lengths: B frame counts in [1, N]. Writes states: B matrices n_b' × dh. Throws
// std::invalid_argument for values that do not fill N·B frames or bad lengths.
void audio_encoder_forward(const AudioEncoderParams &params, const AudioEncoderConfig &config,
                           std::span<const float> frames, std::span<const int> lengths, AudioEncoderCache &cache,
                           std::vector<Mat> &states);

// d_states: B matrices n_b' × dh. ACCUMULATES every encoder gradient into grads.
void audio_encoder_backward(const AudioEncoderParams &params, const AudioEncoderConfig &config,
                            AudioEncoderCache &cache, const std::vector<Mat> &d_states, AudioEncoderParams &grads);

} // namespace apg::models
