// The encoder–decoder model: its parameters by module path, the inference API (encode once,
// then step by step) and the teacher-forced training pass with backpropagation through time.
// Shapes (the letters of every models/ header):
//   Vs, Vt = source and target vocabularies     E  = embedding size (d, the transformer's model size)
//   He = GRU encoder state per direction        dh = encoder state size: 2·He, He, or E (transformer)
//   h  = heads, L = layers, f = feed-forward    Hd = decoder state size, da = additive attention size
//   n  = source length, B = batch rows, N = longest source, T = longest target + 1 (the end token)
//   H  = the encoder states of one source, n × dh (row j = h_j)
#pragma once

#include "models/audio_encoder.hpp"
#include "models/config.hpp"
#include "models/conv_encoder.hpp"
#include "models/decoder.hpp"
#include "models/rnn_encoder.hpp"
#include "models/transformer_decoder.hpp"
#include "models/transformer_encoder.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace apg::models {

struct Parameters {
    EncoderParams encoder;                        // gru encoder (empty for the transformer)
    TransformerEncoderParams transformer;         // transformer encoder (empty for the gru)
    ConvEncoderParams conv;                       // conv encoder (images)
    AudioEncoderParams audio;                     // audio encoder (frames)
    DecoderParams decoder;                        // gru decoder (empty for the transformer)
    TransformerDecoderParams transformer_decoder; // transformer decoder (empty for the gru)

    // The tensors, once: "encoder." (the config's kind) then "decoder.".
    void list(core::ParamList out, const ModelConfig &config);
};

// The fixed vector of a model without attention from the encoder states H (n × dh) of one source:
// 1 × dh (see EncoderOutput::fixed). fixed_vector_backward ACCUMULATES its gradient into d_H.
Mat fixed_vector(const ModelConfig &config, const Mat &H);
void fixed_vector_backward(const ModelConfig &config, const Mat &d_fixed, Mat &d_H);

// The transformer encoder's own config from a model config (embedding = model size d).
TransformerEncoderConfig transformer_config(const ModelConfig &config);
// The transformer decoder's, likewise (memory = the encoder state size).
TransformerDecoderConfig transformer_decoder_config(const ModelConfig &config);

using core::TensorRef;

// Every tensor a model of this config has, in a fixed order, with its shape (Parameters::list).
// The checkpoint loader checks a file against exactly this list. Throws std::logic_error naming
// a tensor whose shape is not the config's.
std::vector<TensorRef> tensors(Parameters &params, const ModelConfig &config);
// The same list's names and shapes, with nothing of the config's sizes allocated: what the
// checkpoint loader holds a file against before it allocates the model (Parameters::list again).
std::vector<TensorShape> tensor_shapes(const ModelConfig &config);
// Random initialisation from the seed (validates the config first).
Parameters init_parameters(const ModelConfig &config, std::uint64_t seed);
// Every tensor of the config's shape, all zero (validates the config first).
Parameters zeros(const ModelConfig &config);
// Same shapes, all zero (gradient and optimiser-moment accumulators).
Parameters zeros_like(const Parameters &params, const ModelConfig &config);

// The encoder's result for one source, reused by every decoding step.
struct EncoderOutput {
    std::vector<int> ids;     // n source ids
    Mat states;               // H: n × dh, row j = [→h_j; ←h_j]
    attention::KeyCache keys; // what the score function precomputes from H
    Vec mean_state;           // what s_0 reads (dh): mean_j h_j, or without attention the fixed vector
    // Without attention (score none): the fixed vector, 1 × dh, the decoder's one context at every
    // step: [→h_n; ←h_1], the forward GRU's last state and the backward GRU's (which ends at the
    // first token); →h_n for a one-direction GRU. Empty for attention models.
    Mat fixed;
    Vec initial_state; // s_0 (Hd)
    // Transformer encoder only: every layer's intermediates (per-head scores, weights, …) for the
    // self-attention trace; null for the gru encoder. Shared, so copies of the output stay cheap.
    std::shared_ptr<const TransformerEncoderCache> self_attention;
    // Transformer decoder only: M and each layer's cross-attention keys and values; null for the
    // gru decoder (whose keys, mean_state and initial_state are then left empty).
    std::shared_ptr<const TransformerMemory> transformer;
};

// A padded, time-major batch of training pairs (ids already include start / end tokens).
struct Batch {
    int size = 0;                     // B
    int source_steps = 0;             // N = longest source
    int target_steps = 0;             // T = longest target + 1 (the end token)
    std::vector<int> source;          // N·B, pad id past each end
    std::vector<int> source_lengths;  // B
    std::vector<int> target_inputs;   // T·B: start token, y_1 … y_m, pad
    std::vector<int> target_outputs;  // T·B: y_1 … y_m, end token, −1 (ignored)
    std::vector<int> target_lengths;  // B: m + 1
    std::vector<std::uint8_t> images; // conv encoder: B images (S·S·3 bytes each); source is then empty
    std::vector<float> frames;        // audio encoder: N·B × F, time-major (source_lengths: frames); source empty
};
// sources / targets: token ids without start or end tokens; every source non-empty.
Batch make_batch(const std::vector<std::vector<int>> &sources, const std::vector<std::vector<int>> &targets, int pad_id,
                 int start_id, int end_id);

// The same for images (each S·S·3 RGB bytes): Batch::images filled, source empty (seq2seq_image.cpp).
Batch make_image_batch(const std::vector<std::span<const std::uint8_t>> &images,
                       const std::vector<std::vector<int>> &targets, int pad_id, int start_id, int end_id);

// The same for utterances (each n·F values, frame-major): Batch::frames filled time-major and
// zero-padded, source_steps the longest and source_lengths the frame counts (seq2seq_audio.cpp).
Batch make_audio_batch(const std::vector<std::span<const float>> &utterances, int input_dim,
                       const std::vector<std::vector<int>> &targets, int pad_id, int start_id, int end_id);

// Buffers of one training pass, reused from batch to batch so the inner loops do not allocate.
struct TrainingWorkspace {
    EncoderCache encoder;              // gru
    TransformerBatchCache transformer; // transformer
    ConvEncoderCache conv;             // conv
    std::vector<Mat> conv_states;      // conv: B × (L × dh)
    AudioEncoderCache audio;           // audio
    std::vector<Mat> audio_states;     // audio: B × (n_b' × dh)
    std::vector<attention::KeyCache> keys;
    DecoderCache decoder;
    TransformerDecoderBatchCache transformer_decoder;
    std::vector<Mat> d_states;
    std::vector<Mat> fixed, d_fixed; // without attention: each source's fixed vector (1 × dh), its gradient
};

struct BatchResult {
    double loss = 0; // mean cross-entropy per target token (padding ignored)
    int tokens = 0;  // target tokens counted
    int correct = 0; // tokens whose argmax is the target (teacher forced)
};

class Seq2Seq {
  public:
    // Random initialisation.
    Seq2Seq(const ModelConfig &config, std::uint64_t seed);
    // Takes parameters whose shapes already match the config (the checkpoint loader checks that).
    Seq2Seq(const ModelConfig &config, Parameters params);

    const ModelConfig &config() const { return config_; }
    Parameters &parameters() { return params_; }
    const Parameters &parameters() const { return params_; }
    std::vector<TensorRef> tensors() { return models::tensors(params_, config_); }

    // Throws std::invalid_argument for an empty source, a source longer than max_source_len or
    // an id outside the source vocabulary.
    EncoderOutput encode(std::span<const int> ids) const;
    // The conv encoder's states for one image (S·S·3 RGB bytes); ids stay empty. Throws
    // InputError(bad_argument) for a model without a conv encoder or pixels of the wrong size.
    EncoderOutput encode_image(std::span<const std::uint8_t> pixels) const;
    // The audio encoder's states for one utterance (n·F values, frame after frame); ids stay
    // empty. Throws InputError: bad_argument for a model without an audio encoder, values that
    // are not whole frames or a value beyond ±limits::max_frame_value (or NaN); empty_input for
    // no frames; too_long (details "length", "limit") for more than max_source_len frames.
    EncoderOutput encode_audio(std::span<const float> frames) const;
    // One decoding step from prev_state (s_{i-1}) and the previous token (start token first).
    // Location attention: options.previous = the last step's weights (empty at the first step).
    DecoderStep step(const EncoderOutput &encoded, const Vec &prev_state, int prev_token,
                     const attention::StepOptions &options = {}) const;
    // The Transformer decoder's step at position cache.size() after prev_token, with the what-ifs
    // of `edits` (transformer_decoder_step). Throws StateError(bad_state) for a model of the gru
    // decoder or a module that did not register_transformer_decoder().
    DecoderStep transformer_step(const EncoderOutput &encoded, const KeyValueCache &cache, int prev_token,
                                 const TransformerEdits &edits = {}, bool keep_qkv = false) const;
    // Greedy decoding until the end token or max_steps steps (default max_target_len + 1).
    std::vector<DecoderStep> greedy(const EncoderOutput &encoded, int start_id, int end_id, int max_steps = 0) const;

    // Teacher-forced loss over the batch and, when grads is given, ACCUMULATES the gradient
    // of the mean loss into it.
    BatchResult forward_backward(const Batch &batch, Parameters *grads, TrainingWorkspace &workspace) const;

  private:
    ModelConfig config_;
    Parameters params_;
};

} // namespace apg::models
