// A Transformer encoder (Vaswani et al. 2017) for one sequence, in the role of the BiGRU encoder:
// it turns source ids into H (n × d), whose rows the decoder cross-attends to.
//
// Shapes: Vs = source vocabulary, n = sequence length, d = model size, h = heads (d % h == 0),
// f = feed-forward inner size, L = layers.
//   x_0 = emb(ids) + PE                            n × d   (emb: Vs × d, PE sinusoidal, fixed)
//   per layer l (post-norm, as in the original paper):
//     a   = SelfAttention(x_{l-1}, padding mask)   n × d   (attention/self_attention.hpp)
//     u   = LayerNorm1(x_{l-1} + a)                n × d
//     x_l = LayerNorm2(u + FFN(u))                 n × d
//   H = x_L, with the rows of padded positions set to 0
// Post-norm keeps every layer's output, and so H, at unit scale per row, which suits the
// decoder's score functions (dot products of H with its state); with L = 2 the training
// instability post-norm can show in deep stacks does not arise.
// Padding: keys at positions whose mask byte is 0 are never attended to, so padded positions
// cannot change the rows of real positions; their own rows of H are 0.
#pragma once

#include "attention/self_attention.hpp"
#include "core/rng.hpp"
#include "core/tensor.hpp"
#include "nn/feed_forward.hpp"
#include "nn/layer_norm.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace apg::models {

struct TransformerEncoderConfig {
    int vocab = 0;    // Vs
    int d_model = 32; // d
    int heads = 4;    // h, d % h == 0
    int d_ff = 64;    // f
    int layers = 2;   // L
    nn::Activation activation = nn::Activation::relu;
    float ln_eps = 1e-5f;

    // Throws std::invalid_argument naming the field: non-positive sizes, d_model % heads != 0, ln_eps <= 0.
    void validate() const;
};

// ---- one layer ------------------------------------------------------------------------------

struct TransformerLayerParams {
    int heads = 1; // h: not a tensor, but the layer cannot run without it
    attention::SelfAttentionParams attn;
    nn::LayerNormParams ln1;
    nn::FeedForwardParams ffn;
    nn::LayerNormParams ln2;

    // The tensors, once: attn.*, ln1.*, ffn.*, ln2.* (heads, eps and the activation as settings).
    void list(core::ParamList out, const TransformerEncoderConfig &config);
    static TransformerLayerParams init(const TransformerEncoderConfig &config, core::Rng &rng);
    // The config these parameters have the shapes of (vocab and layers left 0).
    TransformerEncoderConfig config() const;
    // Same heads and shapes, all zeros: the accumulator for gradients.
    TransformerLayerParams zeros_like() const { return core::zeros<TransformerLayerParams>(config()); }
    Eigen::Index dim() const { return attn.dim(); }
};

// Every intermediate of one layer's forward pass, kept for the trace and the backward pass.
struct TransformerLayerCache {
    attention::SelfAttentionResult attn; // Q, K, V, per head: raw scores, scaled+masked scores, weights, output
    Mat residual1;                       // n × d   x + a
    nn::LayerNormCache ln1;
    Mat norm1; // n × d   u = LayerNorm1(x + a), the FFN's input
    nn::FeedForwardCache ffn;
    Mat ffn_out;   // n × d   FFN(u)
    Mat residual2; // n × d   u + FFN(u)
    nn::LayerNormCache ln2;
    Mat output; // n × d   LayerNorm2(u + FFN(u))
};

// x: n × d; padding_mask: n bytes (1 = real token) or empty. Throws std::invalid_argument for bad
// shapes, a mask of the wrong size or a fully padded mask.
void transformer_layer_forward(const TransformerLayerParams &params, const Mat &x,
                               std::span<const std::uint8_t> padding_mask, TransformerLayerCache &cache);

// Given dL/d output (n × d), ACCUMULATES (+=) dL/dx (n × d, sized already) and dL/d params into
// grads (e.g. from zeros_like()). cache must hold the forward pass of the same params, x and mask.
void transformer_layer_backward(const TransformerLayerParams &params, const Mat &x,
                                std::span<const std::uint8_t> padding_mask, const TransformerLayerCache &cache,
                                const Mat &d_output, Mat &d_x, TransformerLayerParams &grads);

// ---- the encoder ----------------------------------------------------------------------------

struct TransformerEncoderParams {
    Mat embedding; // Vs × d, token embeddings (learned)
    std::vector<TransformerLayerParams> layers;

    // Embedding ~ N(0, 1) (the size of a positional code: PE entries lie in [−1, 1]); layers as
    // TransformerLayerParams::init. Validates the config first.
    static TransformerEncoderParams init(const TransformerEncoderConfig &config, core::Rng &rng);
    // The tensors, once: embedding, then layers.0 … layers.L−1 (each as TransformerLayerParams::list).
    void list(core::ParamList out, const TransformerEncoderConfig &config);
    // The config these parameters have the shapes of (the layers' sizes read off layer 0).
    TransformerEncoderConfig config() const;
    TransformerEncoderParams zeros_like() const { return core::zeros<TransformerEncoderParams>(config()); }
    Eigen::Index dim() const { return embedding.cols(); }
};

struct TransformerEncoderCache {
    std::vector<int> ids;                      // n
    std::vector<std::uint8_t> mask;            // n (all 1 when no mask was given)
    Mat inputs;                                // n × d   x_0 = emb(ids) + PE (padded rows: PE only)
    std::vector<TransformerLayerCache> layers; // L
    Mat output;                                // n × d   H (padded rows 0)
};

// ids: n ≥ 1 token ids in [0, Vs) (ids at padded positions are not read); padding_mask: n bytes
// (1 = real token) or empty for none. Throws std::invalid_argument for an empty sequence, an id
// outside the vocabulary, a mask of the wrong size or with no real token, or inconsistent params.
void transformer_encoder_forward(const TransformerEncoderParams &params, std::span<const int> ids,
                                 std::span<const std::uint8_t> padding_mask, TransformerEncoderCache &cache);

// Given dL/dH (n × d; rows of padded positions are ignored, as H is 0 there), ACCUMULATES the
// gradient of every parameter into grads, including grads.embedding (dL/dE). When d_inputs is
// given it receives (overwritten, n × d) dL/d x_0, the gradient with respect to the embedded input.
void transformer_encoder_backward(const TransformerEncoderParams &params, const TransformerEncoderCache &cache,
                                  const Mat &d_output, TransformerEncoderParams &grads, Mat *d_inputs = nullptr);

// ---- a padded batch, one sequence at a time ----------------------------------------------------

// The batch contract of the BiGRU encoder (models/rnn_encoder.hpp), so Seq2Seq can use either:
// ids are time-major N·B (row t·B + b holds position t of sequence b), lengths B values in [1, N].
// Each sequence is encoded on its own over its n_b real tokens, so no padding reaches the layers.
struct TransformerBatchCache {
    std::vector<TransformerEncoderCache> sequences; // B
    std::vector<Mat> outputs;                       // B matrices n_b × d: H_b
};

// Throws std::invalid_argument for ids.size() != N·B, bad lengths or ids outside the vocabulary.
void transformer_encoder_forward_batch(const TransformerEncoderParams &params, const std::vector<int> &ids,
                                       const std::vector<int> &lengths, TransformerBatchCache &cache);

// d_outputs: B matrices n_b × d (dL/dH_b). ACCUMULATES every encoder gradient into grads.
void transformer_encoder_backward_batch(const TransformerEncoderParams &params, const TransformerBatchCache &cache,
                                        const std::vector<Mat> &d_outputs, TransformerEncoderParams &grads);

// ---- parameters by name ---------------------------------------------------------------------

// Every tensor in a fixed order: <prefix>.embedding, then for each layer l
// <prefix>.layers.l.attn.{w_q,b_q,w_k,b_k,w_v,b_v,w_o,b_o}, .ln1.{gain,bias}, .ffn.{w1,b1,w2,b2}, .ln2.{gain,bias};
// throws std::logic_error naming a tensor whose shape is not the config's.
inline std::vector<core::TensorRef> tensors(TransformerEncoderParams &params, const TransformerEncoderConfig &config,
                                            std::string_view prefix = "encoder") {
    return core::views(params, prefix, config);
}

} // namespace apg::models
