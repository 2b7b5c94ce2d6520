// A Transformer decoder (Vaswani et al. 2017) in the role of the GRU decoder: it writes the target
// one token at a time, attending to what it has written (masked self-attention) and to the
// encoder states (cross-attention).
//
// Shapes: Vt = target vocabulary, d = model size, h = heads (d % h == 0), dk = d / h, f =
// feed-forward size, L = layers, dh = encoder state size, n = source length, T = target positions
// (the start token, then the target tokens fed back).
//   M   = H (dh = d), or H W_mᵀ + b_m (the BiGRU encoder's states, dh ≠ d)      n × d
//   x_0 = emb(y_{i−1}) + PE(i) at each position i                               T × d
//   per layer l (post-norm, as the encoder in transformer_encoder.hpp):
//     a   = SelfAttention(x_{l−1}, causal: position i sees positions ≤ i)       T × d
//     u   = LayerNorm1(x_{l−1} + a)
//     c   = CrossAttention(queries u, keys M W_kᵀ + b_k, values M W_vᵀ + b_v)   T × d
//     v   = LayerNorm2(u + c)
//     x_l = LayerNorm3(v + FFN(v))
//   logits = x_L W_outᵀ + b_out                                                 T × Vt
// Training runs all T positions at once (teacher forcing); decoding runs one position per step
// with a key/value cache: each layer's self-attention keys and values of the positions written so
// far, so a step projects only its own row (transformer_decoder_step).
#pragma once

#include "attention/self_attention.hpp"
#include "core/rng.hpp"
#include "core/tensor.hpp"
#include "nn/feed_forward.hpp"
#include "nn/layer_norm.hpp"
#include "nn/multi_head_attention.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace apg::models {

struct DecoderStep;

struct TransformerDecoderConfig {
    int vocab = 0;    // Vt
    int d_model = 32; // d
    int heads = 4;    // h, d % h == 0
    int d_ff = 64;    // f
    int layers = 2;   // L
    int memory = 0;   // dh, the encoder state size; 0 or d: no projection W_m
    nn::Activation activation = nn::Activation::relu;
    float ln_eps = 1e-5f;

    bool projects_memory() const { return memory != 0 && memory != d_model; }
    // Throws std::invalid_argument naming the field: non-positive sizes, d_model % heads != 0, ln_eps <= 0.
    void validate() const;
};

// ---- parameters ----------------------------------------------------------------------------------

struct TransformerDecoderLayerParams {
    int heads = 1;                            // h
    attention::SelfAttentionParams self_attn; // masked self-attention over the target positions
    nn::LayerNormParams ln1;
    attention::SelfAttentionParams cross_attn; // W_q on u, W_k and W_v on M
    nn::LayerNormParams ln2;
    nn::FeedForwardParams ffn;
    nn::LayerNormParams ln3;

    // The tensors, once: self_attn.*, ln1.*, cross_attn.*, ln2.*, ffn.*, ln3.*.
    void list(core::ParamList out, const TransformerDecoderConfig &config);
    static TransformerDecoderLayerParams init(const TransformerDecoderConfig &config, core::Rng &rng);
    Eigen::Index dim() const { return self_attn.dim(); }
};

struct TransformerDecoderParams {
    Mat embedding; // Vt × d
    Mat memory_w;  // d × dh (projects_memory() only)
    Vec memory_b;  // d (projects_memory() only)
    std::vector<TransformerDecoderLayerParams> layers;
    Mat out_w; // Vt × d
    Vec out_b; // Vt

    // The tensors, once: embedding, memory.{w,b} (when the encoder state is not d wide),
    // layers.0 … layers.L−1, out.{w,b}.
    void list(core::ParamList out, const TransformerDecoderConfig &config);
    // Embedding ~ N(0, 1) (the size of a positional code, as the encoder's), projections uniform
    // ±1/√fan_in, biases 0, layer norms the identity. Validates the config first.
    static TransformerDecoderParams init(const TransformerDecoderConfig &config, core::Rng &rng);
    Eigen::Index dim() const { return embedding.cols(); }
    int heads() const { return layers.empty() ? 1 : layers.front().heads; }
};

// ---- decoding, one position per step ------------------------------------------------------------

// What the decoder computes once per source: M and each layer's cross-attention keys and values.
struct TransformerMemory {
    Mat memory;                       // n × d
    std::vector<nn::KeyValues> cross; // L, n × d each
};

// H: n × dh. Throws std::invalid_argument when H is empty or not dh wide.
void prepare_memory(const TransformerDecoderParams &params, const Mat &H, TransformerMemory &out);

// The what-ifs of one decoding step, on the cross-attention of every layer (the self-attention is
// left alone: the decoder's own tokens are what a forced token changes).
struct TransformerEdits {
    std::vector<std::uint8_t> mask; // n, 1 = attend, for every head; empty = no mask
    float temperature = 1.0f;       // τ of every head's softmax
    std::vector<float> weights;     // n weights pinned in every head; empty = none
    // Per layer × head (index l·h + head), or empty for none: its own mask (n bytes, hiding more
    // tokens from it), its pinned weights (n) and whether it is switched off.
    std::vector<std::vector<std::uint8_t>> head_masks;
    std::vector<std::vector<float>> head_weights;
    std::vector<std::uint8_t> head_off;
    bool any() const {
        return !mask.empty() || temperature != 1.0f || !weights.empty() || !head_masks.empty() ||
               !head_weights.empty() || !head_off.empty();
    }
};

// One step of the decoder, every intermediate the trace shows. Tensors are row-major, flattened
// over layer × head × …; t = position + 1, the tokens the self-attention sees (the causal row).
struct TransformerDecoderStep {
    int position = 0; // i, from 0: the step's place in the output (its start token is position 0's input)
    int layers = 0, heads = 0, source = 0, key_width = 0; // L, h, n, dk
    Mat keys, values;                                     // L × d: this position's self-attention key and value rows
    std::vector<float> self_scores, self_weights;         // L × h × t (scores scaled by √dk)
    std::vector<float> self_context;                      // L × h × dk
    std::vector<float> cross_scores, cross_weights;       // L × h × n (scores before τ)
    std::vector<float> cross_context;                     // L × h × dk (0 for a head switched off)
    // Kept only when asked for (keep_qkv): queries L × h × dk, keys and values L × h × t × dk (self)
    // and L × h × n × dk (cross).
    std::vector<float> self_query, self_key, self_value, cross_query, cross_key, cross_value;
    Mat input;                      // L × d: each layer's input row x_{l−1}
    Mat self_output;                // L × d: a, the self-attention's heads through W_o
    Mat norm1;                      // L × d: u, the cross-attention's query input
    Mat cross_output;               // L × d: c
    Mat norm2;                      // L × d: v
    Mat ffn_hidden;                 // L × f
    Mat output;                     // L × d: x_l
    TransformerEdits edits;         // the what-ifs this step was computed with
    std::vector<float> head_masked; // L × h × n: 1 where a head's own mask hides the token; empty when none
    std::vector<float> head_pinned; // L × h: 1 where a head's weights were pinned (its own pin or all heads'); or empty
    std::vector<float> head_off;    // L × h: 1 where a head was switched off; empty when none
};

// The self-attention keys and values of the positions decoded so far, per layer (t × d each):
// what makes a step cost O(t) instead of recomputing every earlier position.
struct KeyValueCache {
    std::vector<nn::KeyValues> layers; // L

    int size() const { return layers.empty() ? 0 : static_cast<int>(layers.front().key.rows()); }
    void clear() { layers.clear(); }
    // Appends a step's rows (its keys and values), so the cache covers one more position.
    void append(const TransformerDecoderStep &step);
    // Keeps the first t positions.
    void truncate(int t);
};

// One step at position t = cache.size() (0 first) after token prev_token: fills out (the
// DecoderStep fields: prev_state = x_0, query = the last layer's u, attention.weights = the last
// layer's cross-attention weights averaged over its heads, attention.context = its output c, state
// = x_L, logits, probs; attention.score.scores left empty) and out.transformer. The caller checks
// the edits' values (indices, weights). Throws std::invalid_argument for a token outside the
// vocabulary, a cache of another model or edits of the wrong sizes.
void transformer_decoder_step(const TransformerDecoderParams &params, const TransformerMemory &memory,
                              const KeyValueCache &cache, int prev_token, const TransformerEdits &edits, bool keep_qkv,
                              DecoderStep &out);

// ---- the decoding half, on request ------------------------------------------------------------

// The page's first .wasm has a size budget, so a module links the decoding half of this decoder
// only when it asks: Seq2Seq reaches prepare_memory and transformer_decoder_step through this
// table, which stays null until register_transformer_decoder() fills it (the trainer module, the
// command line, the tests and the benchmarks call it; a module that never does links none of it).
struct TransformerDecoding {
    void (*prepare)(const TransformerDecoderParams &, const Mat &, TransformerMemory &);
    void (*step)(const TransformerDecoderParams &, const TransformerMemory &, const KeyValueCache &, int,
                 const TransformerEdits &, bool, DecoderStep &);
};
inline const TransformerDecoding *transformer_decoding = nullptr;
void register_transformer_decoder();

// ---- training: every position of a batch at once -------------------------------------------------

struct TransformerDecoderLayerCache {
    attention::SelfAttentionResult self_attn;
    Mat residual1; // T × d   x + a
    nn::LayerNormCache ln1;
    Mat norm1; // T × d   u
    nn::MultiHeadResult cross;
    Mat residual2; // T × d   u + c
    nn::LayerNormCache ln2;
    Mat norm2; // T × d   v
    nn::FeedForwardCache ffn;
    Mat ffn_out;   // T × d
    Mat residual3; // T × d   v + FFN(v)
    nn::LayerNormCache ln3;
    Mat output; // T × d   x_l
};

// One target sequence, teacher forced.
struct TransformerDecoderCache {
    std::vector<int> inputs; // T tokens fed (start token first)
    TransformerMemory memory;
    Mat inputs_embedded; // T × d   x_0
    std::vector<TransformerDecoderLayerCache> layers;
    Mat logits; // T × Vt
};

// H: n × dh; inputs: T ≥ 1 token ids. Throws std::invalid_argument for bad shapes or ids.
void transformer_decoder_forward(const TransformerDecoderParams &params, const Mat &H, std::span<const int> inputs,
                                 TransformerDecoderCache &cache);

// Given dL/dlogits (T × Vt), ACCUMULATES the gradient of every parameter into grads and dL/dH
// into d_H (n × dh, sized already).
void transformer_decoder_backward(const TransformerDecoderParams &params, const Mat &H,
                                  const TransformerDecoderCache &cache, const Mat &d_logits,
                                  TransformerDecoderParams &grads, Mat &d_H);

// A padded batch as models::Batch has it, one sequence at a time.
struct TransformerDecoderBatchCache {
    int batch = 0, steps = 0;                       // B, T
    std::vector<int> targets;                       // T·B time-major, < 0 ignored
    std::vector<TransformerDecoderCache> sequences; // B, each over its own length
    std::vector<Mat> probs;                         // B × (T_b × Vt)
    int tokens = 0, correct = 0;
    double loss_sum = 0; // Σ −log p(target)
    Mat d_logits;        // backward scratch
};

// H: B matrices n_b × dh; inputs / targets: T·B time-major; lengths: B values in [1, T].
void transformer_decoder_forward_batch(const TransformerDecoderParams &params, const std::vector<Mat> &H,
                                       const std::vector<int> &inputs, const std::vector<int> &targets,
                                       const std::vector<int> &lengths, TransformerDecoderBatchCache &cache);

// Backward of loss_sum · scale; ACCUMULATES into grads and d_H (B matrices n_b × dh, sized).
void transformer_decoder_backward_batch(const TransformerDecoderParams &params, const std::vector<Mat> &H,
                                        TransformerDecoderBatchCache &cache, float scale,
                                        TransformerDecoderParams &grads, std::vector<Mat> &d_H);

} // namespace apg::models
