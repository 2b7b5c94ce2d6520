// Attention decoders, Bahdanau and Luong style, over encoder states H_b (n_b × dh).
// Shapes: B = batch rows, T = longest target (+ end token) in the batch, E = embedding size,
// Hd = decoder state size, dh = encoder state size, Vt = target vocabulary, n_b = length of
// source b, H_b = its encoder states (n_b × dh), emb(y) = row y of the embedding (Vt × E).
//   initial state   s_0 = tanh(W_init · mean_j h_j + b_init)
//   Bahdanau        q_i = s_{i-1};  c_i = attend(q_i, H);  s_i = GRU([emb(y_{i-1}); c_i], s_{i-1})
//                   logits_i = W_out [s_i; c_i; emb(y_{i-1})] + b_out
//   Luong           s_i = GRU(emb(y_{i-1}), s_{i-1});  q_i = s_i;  c_i = attend(q_i, H)
//                   a_i = tanh(W_c [c_i; s_i]);  logits_i = W_out a_i + b_out
// Location attention (either style) also reads the previous step's weights α_{i-1} (α_0 at the
// first step, attention::initial_weights): decoder_step takes them as options.previous, the
// teacher-forced pass carries them itself and backpropagates into them through time.
// Without attention (score kind none, the fixed-vector baseline) nothing is scored: c_i = mean_j h_j
// at every step, the vector s_0 reads too, and the step's scores and weights stay empty. Seq2Seq
// hands such a decoder one row per source, its fixed vector (models/seq2seq.hpp), so c_i is that
// vector; the decoder has no attention parameters.
// Time-major storage: row i·B + b holds step i of sequence b.
#pragma once

#include "attention/step.hpp"
#include "models/config.hpp"
#include "nn/gru.hpp"

#include <memory>
#include <vector>

namespace apg::models {

struct TransformerDecoderStep; // models/transformer_decoder.hpp

struct DecoderParams {
    Mat init_w;                  // Hd × dh
    Vec init_b;                  // Hd
    Mat embedding;               // Vt × E
    nn::GruParams gru;           // input E + dh (Bahdanau) or E (Luong), hidden Hd
    attention::ScoreParams attn; // query Hd, keys dh (no tensors for kind none)
    Mat combine_w;               // Luong only: Hd × (dh + Hd)
    Mat out_w;                   // Vt × (Hd + dh + E) (Bahdanau) or Vt × Hd (Luong)
    Vec out_b;                   // Vt

    // The tensors, once: init.{w,b}, embedding, gru.*, attn.* (what the score function uses),
    // combine.w (Luong), out.{w,b}; shapes from the config.
    void list(core::ParamList out, const ModelConfig &config);
};

// s_0 from the encoder states of one source (H: n × dh). mean receives mean_j h_j (dh).
void decoder_initial_state(const DecoderParams &params, const Mat &H, Vec &mean, Vec &state);

// One decoding step for one sequence, every intermediate named (the trace reads these).
struct DecoderStep {
    int prev_token = 0;
    Vec prev_state;                     // s_{i-1}
    Vec query;                          // s_{i-1} (Bahdanau) or s_i (Luong)
    attention::AttentionStep attention; // scores, weights, context (+ the additive hidden)
    Vec state;                          // s_i
    Vec attentional;                    // Luong: a_i = tanh(W_c [c_i; s_i]); Bahdanau: empty
    Vec logits;                         // Vt
    Vec probs;                          // Vt, softmax(logits)
    // The Transformer decoder's every layer × head (the fields above then hold its last layer's
    // cross-attention, heads averaged); null for the GRU decoder. Shared: copies of a step stay cheap.
    std::shared_ptr<const TransformerDecoderStep> transformer;
};

// keys: the cache prepared for H with prepare_keys(params.attn, H).
// Throws std::invalid_argument for a token outside the target vocabulary or a state of the wrong size.
void decoder_step(const DecoderParams &params, AttentionStyle style, const Mat &H, const attention::KeyCache &keys,
                  const Vec &prev_state, int prev_token, const attention::StepOptions &options, DecoderStep &out);

// Everything one batched teacher-forced pass keeps for its backward pass.
struct DecoderCache {
    int batch = 0, steps = 0;                        // B, T
    std::vector<int> inputs, targets;                // T·B each; targets < 0 are ignored (padding)
    std::vector<int> lengths;                        // B: steps of sequence b (target tokens + end token)
    Mat means;                                       // B × dh
    Mat states;                                      // (T+1)·B × Hd: block 0 = s_0, block i+1 = s_i
    Mat embedded;                                    // T·B × E    emb(y_{i-1})
    Mat gru_inputs;                                  // Bahdanau: T·B × (E + dh) [emb(y_{i-1}); c_i]
    Mat gru_proj;                                    // T·B × 3Hd
    std::vector<nn::GruStepCache> gru;               // T
    Mat contexts;                                    // T·B × dh (zero at padded steps)
    std::vector<Vec> queries;                        // T·B (used at active steps only)
    std::vector<attention::AttentionStep> attention; // T·B
    Mat combined;                                    // Luong: T·B × (dh + Hd) [c_i; s_i]
    Mat features;                                    // T·B × Do: what W_out reads
    Mat probs;                                       // T·B × Vt
    int tokens = 0, correct = 0;                     // active steps, argmax == target
    double loss_sum = 0;                             // Σ −log p(target) over active steps (nn/cross_entropy)
    // backward scratch
    Mat d_logits, d_features, d_combined, d_gru_proj, d_gru_inputs, d_embedded, carry, carry_next, d_hidden_proj;
    Mat d_means; // B × dh: without attention, dL/d context summed over the steps
    std::vector<Mat> d_keys, d_values;
    std::vector<attention::KeyCache> d_caches; // dL/d key cache per sequence, summed over steps
    std::vector<Vec> d_weights, d_previous;    // location: dL/dα of the step below, per sequence
    Vec d_context, d_query;
};

// H, keys: per sequence. inputs / targets: T·B time-major (inputs start with the start token;
// targets end with the end token, < 0 past the end). Fills cache, its loss_sum, tokens and correct.
void decoder_forward(const DecoderParams &params, AttentionStyle style, const std::vector<Mat> &H,
                     const std::vector<attention::KeyCache> &keys, const std::vector<int> &inputs,
                     const std::vector<int> &targets, const std::vector<int> &lengths, DecoderCache &cache);

// Backward of loss_sum · scale (scale = 1 / tokens gives the mean). ACCUMULATES the decoder
// gradients into grads and dL/dH_b into d_H (B matrices n_b × dh, sized by the caller).
void decoder_backward(const DecoderParams &params, AttentionStyle style, const std::vector<Mat> &H,
                      const std::vector<attention::KeyCache> &keys, DecoderCache &cache, float scale,
                      DecoderParams &grads, std::vector<Mat> &d_H);

} // namespace apg::models
