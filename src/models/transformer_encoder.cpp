#include "models/transformer_encoder.hpp"

#include "core/shape_text.hpp"

#include "nn/positional_encoding.hpp"

#include <stdexcept>
#include <string>

namespace apg::models {

namespace {

void check_mat(const char *op, const char *what, const Mat &m, Eigen::Index rows, Eigen::Index cols) {
    if (m.rows() != rows || m.cols() != cols)
        throw std::invalid_argument(std::string(op) + ": " + what + " is " + core::shape_text(m) + ", expected " +
                                    core::shape_text(rows, cols));
}

attention::SelfAttentionOptions attention_options(const TransformerLayerParams &params,
                                                  std::span<const std::uint8_t> padding_mask) {
    attention::SelfAttentionOptions options;
    options.heads = params.heads;
    options.padding_mask = padding_mask;
    options.causal = false; // an encoder sees the whole source
    return options;
}

// The parts of a layer must all work on rows of the attention's size d.
void check_layer(const char *op, const TransformerLayerParams &params) {
    params.attn.check();
    const Eigen::Index d = params.dim();
    if (params.ln1.dim() != d || params.ffn.dim() != d || params.ln2.dim() != d)
        throw std::invalid_argument(std::string(op) + ": layer parts disagree on the model size: attn " +
                                    std::to_string(d) + ", ln1 " + std::to_string(params.ln1.dim()) + ", ffn " +
                                    std::to_string(params.ffn.dim()) + ", ln2 " + std::to_string(params.ln2.dim()));
}

} // namespace

// ---- one layer ------------------------------------------------------------------------------

void transformer_layer_forward(const TransformerLayerParams &params, const Mat &x,
                               std::span<const std::uint8_t> padding_mask, TransformerLayerCache &cache) {
    check_layer("transformer_layer_forward", params);
    check_mat("transformer_layer_forward", "x", x, x.rows(), params.dim());
    attention::self_attention_forward(params.attn, x, attention_options(params, padding_mask), cache.attn);
    cache.residual1 = x + cache.attn.output;
    nn::layer_norm_forward(params.ln1, cache.residual1, cache.norm1, cache.ln1);
    nn::feed_forward_forward(params.ffn, cache.norm1, cache.ffn_out, cache.ffn);
    cache.residual2 = cache.norm1 + cache.ffn_out;
    nn::layer_norm_forward(params.ln2, cache.residual2, cache.output, cache.ln2);
}

void transformer_layer_backward(const TransformerLayerParams &params, const Mat &x,
                                std::span<const std::uint8_t> padding_mask, const TransformerLayerCache &cache,
                                const Mat &d_output, Mat &d_x, TransformerLayerParams &grads) {
    check_layer("transformer_layer_backward", params);
    const Eigen::Index n = x.rows(), d = params.dim();
    check_mat("transformer_layer_backward", "x", x, n, d);
    check_mat("transformer_layer_backward", "cache.output", cache.output, n, d);
    check_mat("transformer_layer_backward", "d_output", d_output, n, d);
    check_mat("transformer_layer_backward", "d_x", d_x, n, d);

    Mat d_residual2 = Mat::Zero(n, d);
    nn::layer_norm_backward(params.ln2, cache.ln2, d_output, d_residual2, grads.ln2);
    // u feeds both the residual and the FFN: its gradient is the sum of both paths.
    Mat d_norm1 = d_residual2;
    nn::feed_forward_backward(params.ffn, cache.norm1, cache.ffn, d_residual2, d_norm1, grads.ffn);
    Mat d_residual1 = Mat::Zero(n, d);
    nn::layer_norm_backward(params.ln1, cache.ln1, d_norm1, d_residual1, grads.ln1);
    // Likewise x feeds the residual and the attention.
    d_x += d_residual1;
    attention::self_attention_backward(params.attn, x, attention_options(params, padding_mask), cache.attn, d_residual1,
                                       d_x, grads.attn);
}

// ---- the encoder ----------------------------------------------------------------------------

void transformer_encoder_forward(const TransformerEncoderParams &params, std::span<const int> ids,
                                 std::span<const std::uint8_t> padding_mask, TransformerEncoderCache &cache) {
    const char *op = "transformer_encoder_forward";
    const Eigen::Index n = static_cast<Eigen::Index>(ids.size()), V = params.embedding.rows(), d = params.dim();
    if (n == 0) throw std::invalid_argument(std::string(op) + ": empty sequence");
    if (V == 0 || d == 0)
        throw std::invalid_argument(std::string(op) + ": embedding is " + core::shape_text(params.embedding) +
                                    ", expected V×d with V, d > 0");
    if (!padding_mask.empty() && padding_mask.size() != ids.size())
        throw std::invalid_argument(std::string(op) + ": padding mask has " + std::to_string(padding_mask.size()) +
                                    " bytes for " + std::to_string(n) + " ids");
    cache.ids.assign(ids.begin(), ids.end());
    if (padding_mask.empty())
        cache.mask.assign(ids.size(), 1);
    else
        cache.mask.assign(padding_mask.begin(), padding_mask.end());
    bool any_real = false;
    for (Eigen::Index p = 0; p < n; ++p) {
        if (!cache.mask[p]) continue;
        any_real = true;
        if (ids[p] < 0 || ids[p] >= V)
            throw std::invalid_argument(std::string(op) + ": id " + std::to_string(ids[p]) + " at position " +
                                        std::to_string(p) + " is outside the vocabulary of " + std::to_string(V));
    }
    if (!any_real) throw std::invalid_argument(std::string(op) + ": padding mask has no real token");
    for (std::size_t l = 0; l < params.layers.size(); ++l)
        if (params.layers[l].dim() != d)
            throw std::invalid_argument(std::string(op) + ": layer " + std::to_string(l) + " has model size " +
                                        std::to_string(params.layers[l].dim()) + ", the embedding " +
                                        std::to_string(d));

    cache.inputs = nn::positional_encoding(n, d);
    for (Eigen::Index p = 0; p < n; ++p)
        if (cache.mask[p]) cache.inputs.row(p) += params.embedding.row(ids[p]);
    cache.layers.resize(params.layers.size());
    const Mat *x = &cache.inputs;
    for (std::size_t l = 0; l < params.layers.size(); ++l) {
        transformer_layer_forward(params.layers[l], *x, cache.mask, cache.layers[l]);
        x = &cache.layers[l].output;
    }
    cache.output = *x;
    for (Eigen::Index p = 0; p < n; ++p)
        if (!cache.mask[p]) cache.output.row(p).setZero();
}

void transformer_encoder_backward(const TransformerEncoderParams &params, const TransformerEncoderCache &cache,
                                  const Mat &d_output, TransformerEncoderParams &grads, Mat *d_inputs) {
    const char *op = "transformer_encoder_backward";
    const Eigen::Index n = static_cast<Eigen::Index>(cache.ids.size()), d = params.dim();
    check_mat(op, "d_output", d_output, n, d);
    check_mat(op, "grads.embedding", grads.embedding, params.embedding.rows(), d);
    if (cache.layers.size() != params.layers.size() || grads.layers.size() != params.layers.size())
        throw std::invalid_argument(std::string(op) + ": params have " + std::to_string(params.layers.size()) +
                                    " layers, the cache " + std::to_string(cache.layers.size()) + ", grads " +
                                    std::to_string(grads.layers.size()));

    Mat d_x = d_output;
    for (Eigen::Index p = 0; p < n; ++p)
        if (!cache.mask[p]) d_x.row(p).setZero(); // H is 0 there, whatever the layers computed
    Mat d_prev(n, d);
    for (std::size_t l = params.layers.size(); l-- > 0;) {
        const Mat &x = l == 0 ? cache.inputs : cache.layers[l - 1].output;
        d_prev.setZero();
        transformer_layer_backward(params.layers[l], x, cache.mask, cache.layers[l], d_x, d_prev, grads.layers[l]);
        d_x.swap(d_prev);
    }
    for (Eigen::Index p = 0; p < n; ++p)
        if (cache.mask[p]) grads.embedding.row(cache.ids[p]) += d_x.row(p);
    if (d_inputs) *d_inputs = d_x;
}

// ---- a padded batch, one sequence at a time ----------------------------------------------------

void transformer_encoder_forward_batch(const TransformerEncoderParams &params, const std::vector<int> &ids,
                                       const std::vector<int> &lengths, TransformerBatchCache &cache) {
    const char *op = "transformer_encoder_forward_batch";
    const std::size_t B = lengths.size();
    if (B == 0) throw std::invalid_argument(std::string(op) + ": empty batch");
    if (ids.size() % B != 0)
        throw std::invalid_argument(std::string(op) + ": " + std::to_string(ids.size()) + " ids for a batch of " +
                                    std::to_string(B) + " (expected N·B)");
    const int N = static_cast<int>(ids.size() / B);
    cache.sequences.resize(B);
    cache.outputs.resize(B);
    std::vector<int> sequence;
    for (std::size_t b = 0; b < B; ++b) {
        if (lengths[b] < 1 || lengths[b] > N)
            throw std::invalid_argument(std::string(op) + ": length " + std::to_string(lengths[b]) + " of sequence " +
                                        std::to_string(b) + " is outside [1, " + std::to_string(N) + "]");
        sequence.resize(static_cast<std::size_t>(lengths[b]));
        for (int t = 0; t < lengths[b]; ++t) sequence[t] = ids[static_cast<std::size_t>(t) * B + b];
        transformer_encoder_forward(params, sequence, {}, cache.sequences[b]);
        cache.outputs[b] = cache.sequences[b].output;
    }
}

void transformer_encoder_backward_batch(const TransformerEncoderParams &params, const TransformerBatchCache &cache,
                                        const std::vector<Mat> &d_outputs, TransformerEncoderParams &grads) {
    if (d_outputs.size() != cache.sequences.size())
        throw std::invalid_argument("transformer_encoder_backward_batch: " + std::to_string(d_outputs.size()) +
                                    " output gradients for a batch of " + std::to_string(cache.sequences.size()));
    for (std::size_t b = 0; b < d_outputs.size(); ++b)
        transformer_encoder_backward(params, cache.sequences[b], d_outputs[b], grads);
}

} // namespace apg::models
