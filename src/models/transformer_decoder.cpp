// The Transformer decoder's passes: teacher-forced forward and backward for training, and one
// decoding step over the key/value cache (shapes in transformer_decoder.hpp).
#include "models/transformer_decoder.hpp"

#include "models/decoder.hpp"
#include "nn/cross_entropy.hpp"
#include "nn/matmul.hpp"
#include "nn/positional_encoding.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace apg::models {

namespace {

using Index = Eigen::Index;

std::string shape(const Mat &m) { return std::to_string(m.rows()) + "×" + std::to_string(m.cols()); }

[[noreturn]] void fail(const char *op, const std::string &what) {
    throw std::invalid_argument(std::string(op) + ": " + what);
}

void check_token(const char *op, const TransformerDecoderParams &params, int token) {
    if (token < 0 || token >= params.embedding.rows())
        fail(op, "token id " + std::to_string(token) + " is outside the target vocabulary of " +
                     std::to_string(params.embedding.rows()));
}

// out = x Wᵀ + b
void linear(const Mat &x, const Mat &w, const Vec &b, Mat &out) {
    out.resize(x.rows(), w.rows());
    nn::matmul_nt(nn::whole(x), nn::whole(w), nn::whole(out));
    out.rowwise() += b.transpose();
}

attention::SelfAttentionOptions causal(const TransformerDecoderLayerParams &layer) {
    attention::SelfAttentionOptions options;
    options.heads = layer.heads;
    options.causal = true; // position i sees the tokens written before it and its own input, none after
    return options;
}

// Each layer's post-norm sub-blocks after the self-attention: residual, LN1, cross-attention,
// residual, LN2, FFN, residual, LN3 (the same for a step's one row and for a whole sequence).
template <class Cache>
void layer_after_self_attention(const TransformerDecoderLayerParams &p, const Mat &x, const Mat &self_output,
                                const nn::KeyValues &cross_kv, const nn::MultiHeadOptions &cross_options, Cache &c) {
    c.residual1 = x + self_output;
    nn::layer_norm_forward(p.ln1, c.residual1, c.norm1, c.ln1);
    nn::multi_head_forward(p.cross_attn, c.norm1, cross_kv, cross_options, c.cross);
    c.residual2 = c.norm1 + c.cross.output;
    nn::layer_norm_forward(p.ln2, c.residual2, c.norm2, c.ln2);
    nn::feed_forward_forward(p.ffn, c.norm2, c.ffn_out, c.ffn);
    c.residual3 = c.norm2 + c.ffn_out;
    nn::layer_norm_forward(p.ln3, c.residual3, c.output, c.ln3);
}

// A step's copy of h matrices' first row (or whole matrix) into a flat L × h × … tensor at layer l.
void put_heads(std::vector<float> &into, std::size_t layer, const std::vector<attention::SelfAttentionHead> &heads,
               const Mat attention::SelfAttentionHead::*member) {
    const std::size_t each = static_cast<std::size_t>((heads.front().*member).size());
    if (into.size() < (layer + 1) * heads.size() * each) into.resize((layer + 1) * heads.size() * each);
    for (std::size_t h = 0; h < heads.size(); ++h) {
        const Mat &m = heads[h].*member;
        std::copy(m.data(), m.data() + m.size(),
                  into.begin() + static_cast<std::ptrdiff_t>((layer * heads.size() + h) * each));
    }
}

void check_memory(const char *op, const TransformerDecoderParams &params, const Mat &H) {
    const Index want = params.memory_w.size() > 0 ? params.memory_w.cols() : params.dim();
    if (H.rows() == 0 || H.cols() != want)
        fail(op, "encoder states are " + shape(H) + ", expected n × " + std::to_string(want) + " with n ≥ 1");
}

} // namespace

// ---- decoding ------------------------------------------------------------------------------------

void prepare_memory(const TransformerDecoderParams &params, const Mat &H, TransformerMemory &out) {
    check_memory("prepare_memory", params, H);
    if (params.memory_w.size() > 0)
        linear(H, params.memory_w, params.memory_b, out.memory);
    else
        out.memory = H;
    out.cross.resize(params.layers.size());
    for (std::size_t l = 0; l < params.layers.size(); ++l)
        nn::project_key_values(params.layers[l].cross_attn, out.memory, out.cross[l]);
}

void KeyValueCache::append(const TransformerDecoderStep &step) {
    if (layers.empty()) layers.resize(static_cast<std::size_t>(step.layers));
    const Index t = size(), d = step.keys.cols();
    for (std::size_t l = 0; l < layers.size(); ++l) {
        nn::KeyValues &kv = layers[l];
        kv.key.conservativeResize(t + 1, d);
        kv.value.conservativeResize(t + 1, d);
        kv.key.row(t) = step.keys.row(static_cast<Index>(l));
        kv.value.row(t) = step.values.row(static_cast<Index>(l));
    }
}

void KeyValueCache::truncate(int t) {
    if (t >= size()) return;
    for (nn::KeyValues &kv : layers) {
        kv.key.conservativeResize(t, kv.key.cols());
        kv.value.conservativeResize(t, kv.value.cols());
    }
}

namespace {

// The intermediates of one layer at one step; the same members as a sequence's layer cache after
// its self-attention, so layer_after_self_attention serves both.
struct StepLayer {
    Mat residual1, norm1, residual2, norm2, ffn_out, residual3, output;
    nn::LayerNormCache ln1, ln2, ln3;
    nn::MultiHeadResult cross;
    nn::FeedForwardCache ffn;
};

} // namespace

void transformer_decoder_step(const TransformerDecoderParams &params, const TransformerMemory &memory,
                              const KeyValueCache &cache, int prev_token, const TransformerEdits &edits, bool keep_qkv,
                              DecoderStep &out) {
    const char *op = "transformer_decoder_step";
    check_token(op, params, prev_token);
    const std::size_t L = params.layers.size();
    const int t = cache.size(), heads = params.heads();
    const Index d = params.dim(), n = memory.memory.rows();
    if (memory.cross.size() != L) fail(op, "the memory was prepared for another decoder");
    if (t > 0 && cache.layers.size() != L) fail(op, "the cache holds another decoder's layers");
    const auto un = static_cast<std::size_t>(n);
    const std::size_t edit_count = L * static_cast<std::size_t>(heads);
    if ((!edits.mask.empty() && edits.mask.size() != un) || (!edits.weights.empty() && edits.weights.size() != un) ||
        (!edits.head_masks.empty() && edits.head_masks.size() != edit_count) ||
        (!edits.head_weights.empty() && edits.head_weights.size() != edit_count) ||
        (!edits.head_off.empty() && edits.head_off.size() != edit_count))
        fail(op, "what-ifs sized for another source or decoder");

    auto step = std::make_shared<TransformerDecoderStep>();
    TransformerDecoderStep &s = *step;
    s.position = t;
    s.layers = static_cast<int>(L);
    s.heads = heads;
    s.source = static_cast<int>(n);
    s.key_width = static_cast<int>(d / heads);
    s.edits = edits;
    const Index rows = static_cast<Index>(L);
    s.keys.resize(rows, d);
    s.values.resize(rows, d);
    s.input.resize(rows, d);
    s.self_output.resize(rows, d);
    s.norm1.resize(rows, d);
    s.cross_output.resize(rows, d);
    s.norm2.resize(rows, d);
    s.output.resize(rows, d);

    Mat x(1, d);
    nn::positional_encoding_row(t, row(x, 0));
    x.row(0) += params.embedding.row(prev_token);
    out.prev_token = prev_token;
    out.prev_state = x.row(0).transpose();

    nn::MultiHeadOptions self_options;
    self_options.heads = heads;
    nn::MultiHeadOptions cross_options;
    cross_options.heads = heads;
    cross_options.allowed = edits.mask;
    cross_options.temperature = edits.temperature;
    std::vector<nn::HeadEdit> head_edits;
    const bool edited =
        !edits.weights.empty() || !edits.head_masks.empty() || !edits.head_weights.empty() || !edits.head_off.empty();

    nn::KeyValues own, kv;
    nn::MultiHeadResult self_result;
    StepLayer layer;
    for (std::size_t l = 0; l < L; ++l) {
        const TransformerDecoderLayerParams &p = params.layers[l];
        const Index li = static_cast<Index>(l);
        s.input.row(li) = x.row(0);
        // Masked self-attention: this position's key and value join the cache's, and its query sees
        // them all, the positions after it not being computed yet.
        nn::project_key_values(p.self_attn, x, own);
        kv.key.resize(t + 1, d);
        kv.value.resize(t + 1, d);
        if (t > 0) {
            kv.key.topRows(t) = cache.layers[l].key;
            kv.value.topRows(t) = cache.layers[l].value;
        }
        kv.key.row(t) = own.key.row(0);
        kv.value.row(t) = own.value.row(0);
        s.keys.row(li) = own.key.row(0);
        s.values.row(li) = own.value.row(0);
        nn::multi_head_forward(p.self_attn, x, kv, self_options, self_result);

        if (edited) {
            head_edits.assign(static_cast<std::size_t>(heads), {});
            for (int h = 0; h < heads; ++h) {
                const std::size_t at = l * static_cast<std::size_t>(heads) + static_cast<std::size_t>(h);
                nn::HeadEdit &e = head_edits[static_cast<std::size_t>(h)];
                if (!edits.head_masks.empty() && !edits.head_masks[at].empty()) e.mask = edits.head_masks[at];
                e.weights = edits.weights;
                if (!edits.head_weights.empty() && !edits.head_weights[at].empty()) e.weights = edits.head_weights[at];
                e.off = !edits.head_off.empty() && edits.head_off[at];
            }
            cross_options.edits = head_edits;
        }
        layer_after_self_attention(p, x, self_result.output, memory.cross[l], cross_options, layer);

        put_heads(s.self_scores, l, self_result.heads, &attention::SelfAttentionHead::scores);
        put_heads(s.self_weights, l, self_result.heads, &attention::SelfAttentionHead::weights);
        put_heads(s.self_context, l, self_result.heads, &attention::SelfAttentionHead::output);
        put_heads(s.cross_scores, l, layer.cross.heads, &attention::SelfAttentionHead::scores);
        put_heads(s.cross_weights, l, layer.cross.heads, &attention::SelfAttentionHead::weights);
        put_heads(s.cross_context, l, layer.cross.heads, &attention::SelfAttentionHead::output);
        if (keep_qkv) {
            put_heads(s.self_query, l, self_result.heads, &attention::SelfAttentionHead::query);
            put_heads(s.self_key, l, self_result.heads, &attention::SelfAttentionHead::key);
            put_heads(s.self_value, l, self_result.heads, &attention::SelfAttentionHead::value);
            put_heads(s.cross_query, l, layer.cross.heads, &attention::SelfAttentionHead::query);
            put_heads(s.cross_key, l, layer.cross.heads, &attention::SelfAttentionHead::key);
            put_heads(s.cross_value, l, layer.cross.heads, &attention::SelfAttentionHead::value);
        }
        s.self_output.row(li) = self_result.output.row(0);
        s.norm1.row(li) = layer.norm1.row(0);
        s.cross_output.row(li) = layer.cross.output.row(0);
        s.norm2.row(li) = layer.norm2.row(0);
        if (l == 0) s.ffn_hidden.resize(rows, layer.ffn.hidden.cols());
        s.ffn_hidden.row(li) = layer.ffn.hidden.row(0);
        s.output.row(li) = layer.output.row(0);
        x = layer.output;
    }

    if (!edits.head_masks.empty()) {
        s.head_masked.assign(edit_count * un, 0.0f);
        for (std::size_t at = 0; at < edits.head_masks.size(); ++at)
            for (std::size_t j = 0; j < edits.head_masks[at].size(); ++j)
                s.head_masked[at * un + j] = edits.head_masks[at][j] ? 0.0f : 1.0f;
    }
    if (!edits.weights.empty() || !edits.head_weights.empty()) {
        s.head_pinned.assign(edit_count, edits.weights.empty() ? 0.0f : 1.0f);
        for (std::size_t at = 0; at < edits.head_weights.size(); ++at)
            if (!edits.head_weights[at].empty()) s.head_pinned[at] = 1.0f;
    }
    if (!edits.head_off.empty()) s.head_off.assign(edits.head_off.begin(), edits.head_off.end());

    // The last layer's cross-attention as the step's one alignment: its heads' weights averaged.
    const nn::MultiHeadResult &last = layer.cross;
    out.query = layer.norm1.row(0).transpose();
    out.attention.score = {};
    out.attention.weights = Vec::Zero(n);
    for (const auto &head : last.heads) out.attention.weights += head.weights.row(0).transpose();
    out.attention.weights /= static_cast<float>(heads);
    out.attention.context = last.output.row(0).transpose();
    out.state = x.row(0).transpose();
    out.attentional.resize(0);
    out.logits = params.out_w * out.state + params.out_b;
    out.probs.resize(out.logits.size());
    core::softmax(view(std::as_const(out.logits)), view(out.probs));
    out.transformer = std::move(step);
}

void register_transformer_decoder() {
    static constexpr TransformerDecoding decoding{prepare_memory, transformer_decoder_step};
    transformer_decoding = &decoding;
}

// ---- training ------------------------------------------------------------------------------------

void transformer_decoder_forward(const TransformerDecoderParams &params, const Mat &H, std::span<const int> inputs,
                                 TransformerDecoderCache &c) {
    const char *op = "transformer_decoder_forward";
    const Index T = static_cast<Index>(inputs.size()), d = params.dim();
    if (T == 0) fail(op, "no target positions");
    for (int y : inputs) check_token(op, params, y);
    prepare_memory(params, H, c.memory);
    c.inputs.assign(inputs.begin(), inputs.end());
    c.inputs_embedded = nn::positional_encoding(T, d);
    for (Index i = 0; i < T; ++i) c.inputs_embedded.row(i) += params.embedding.row(inputs[static_cast<std::size_t>(i)]);
    c.layers.resize(params.layers.size());
    nn::MultiHeadOptions cross_options;
    cross_options.heads = params.heads();
    const Mat *x = &c.inputs_embedded;
    for (std::size_t l = 0; l < params.layers.size(); ++l) {
        const TransformerDecoderLayerParams &p = params.layers[l];
        TransformerDecoderLayerCache &lc = c.layers[l];
        attention::self_attention_forward(p.self_attn, *x, causal(p), lc.self_attn);
        layer_after_self_attention(p, *x, lc.self_attn.output, c.memory.cross[l], cross_options, lc);
        x = &lc.output;
    }
    linear(*x, params.out_w, params.out_b, c.logits);
}

void transformer_decoder_backward(const TransformerDecoderParams &params, const Mat &H,
                                  const TransformerDecoderCache &c, const Mat &d_logits,
                                  TransformerDecoderParams &grads, Mat &d_H) {
    const char *op = "transformer_decoder_backward";
    const Index T = static_cast<Index>(c.inputs.size()), d = params.dim();
    if (d_logits.rows() != T || d_logits.cols() != params.out_w.rows())
        fail(op, "d_logits is " + shape(d_logits) + ", expected " + shape(c.logits));
    if (d_H.rows() != H.rows() || d_H.cols() != H.cols()) fail(op, "d_H is " + shape(d_H) + ", expected " + shape(H));
    const std::size_t L = params.layers.size();
    const Mat &top = L == 0 ? c.inputs_embedded : c.layers.back().output;
    nn::matmul_tn(nn::whole(d_logits), nn::whole(top), nn::whole(grads.out_w), true);
    grads.out_b += d_logits.colwise().sum().transpose();
    Mat d_x(T, d);
    nn::matmul_nn(nn::whole(d_logits), nn::whole(params.out_w), nn::whole(d_x));

    nn::MultiHeadOptions cross_options;
    cross_options.heads = params.heads();
    const Index n = c.memory.memory.rows();
    Mat d_memory = Mat::Zero(n, d);
    nn::KeyValues d_kv;
    Mat d_residual3(T, d), d_norm2(T, d), d_residual2(T, d), d_norm1(T, d), d_residual1(T, d), d_prev(T, d);
    for (std::size_t l = L; l-- > 0;) {
        const TransformerDecoderLayerParams &p = params.layers[l];
        TransformerDecoderLayerParams &g = grads.layers[l];
        const TransformerDecoderLayerCache &lc = c.layers[l];
        const Mat &x = l == 0 ? c.inputs_embedded : c.layers[l - 1].output;
        d_residual3.setZero();
        nn::layer_norm_backward(p.ln3, lc.ln3, d_x, d_residual3, g.ln3);
        // v feeds the residual and the FFN: its gradient is the sum of both paths (and likewise u, x).
        d_norm2 = d_residual3;
        nn::feed_forward_backward(p.ffn, lc.norm2, lc.ffn, d_residual3, d_norm2, g.ffn);
        d_residual2.setZero();
        nn::layer_norm_backward(p.ln2, lc.ln2, d_norm2, d_residual2, g.ln2);
        d_norm1 = d_residual2;
        d_kv.key.setZero(n, d);
        d_kv.value.setZero(n, d);
        nn::multi_head_backward(p.cross_attn, lc.norm1, c.memory.cross[l], cross_options, lc.cross, d_residual2,
                                d_norm1, d_kv, g.cross_attn);
        nn::project_key_values_backward(p.cross_attn, c.memory.memory, d_kv, d_memory, g.cross_attn);
        d_residual1.setZero();
        nn::layer_norm_backward(p.ln1, lc.ln1, d_norm1, d_residual1, g.ln1);
        d_prev = d_residual1;
        attention::self_attention_backward(p.self_attn, x, causal(p), lc.self_attn, d_residual1, d_prev, g.self_attn);
        d_x.swap(d_prev);
    }
    for (Index i = 0; i < T; ++i) grads.embedding.row(c.inputs[static_cast<std::size_t>(i)]) += d_x.row(i);
    if (params.memory_w.size() > 0) {
        nn::matmul_tn(nn::whole(std::as_const(d_memory)), nn::whole(H), nn::whole(grads.memory_w), true);
        grads.memory_b += d_memory.colwise().sum().transpose();
        nn::matmul_nn(nn::whole(std::as_const(d_memory)), nn::whole(params.memory_w), nn::whole(d_H), true);
    } else {
        d_H += d_memory;
    }
}

void transformer_decoder_forward_batch(const TransformerDecoderParams &params, const std::vector<Mat> &H,
                                       const std::vector<int> &inputs, const std::vector<int> &targets,
                                       const std::vector<int> &lengths, TransformerDecoderBatchCache &c) {
    const char *op = "transformer_decoder_forward_batch";
    const int B = static_cast<int>(lengths.size());
    if (B == 0 || static_cast<int>(H.size()) != B || inputs.size() != targets.size() || inputs.size() % B != 0)
        fail(op, "batch of " + std::to_string(B) + " with " + std::to_string(H.size()) + " encoder outputs, " +
                     std::to_string(inputs.size()) + " inputs and " + std::to_string(targets.size()) + " targets");
    const int T = static_cast<int>(inputs.size()) / B;
    const Index V = params.out_w.rows();
    c.batch = B;
    c.steps = T;
    c.targets = targets;
    c.sequences.resize(static_cast<std::size_t>(B));
    c.probs.resize(static_cast<std::size_t>(B));
    c.tokens = c.correct = 0;
    c.loss_sum = 0;
    std::vector<int> sequence;
    for (int b = 0; b < B; ++b) {
        const int length = lengths[static_cast<std::size_t>(b)];
        if (length < 1 || length > T)
            fail(op, "target length " + std::to_string(length) + " is outside [1, " + std::to_string(T) + "]");
        sequence.resize(static_cast<std::size_t>(length));
        for (int i = 0; i < length; ++i)
            sequence[static_cast<std::size_t>(i)] = inputs[static_cast<std::size_t>(i * B + b)];
        TransformerDecoderCache &sc = c.sequences[static_cast<std::size_t>(b)];
        transformer_decoder_forward(params, H[static_cast<std::size_t>(b)], sequence, sc);
        Mat &probs = c.probs[static_cast<std::size_t>(b)];
        probs.resize(length, V);
        for (int i = 0; i < length; ++i) {
            core::softmax(row(std::as_const(sc.logits), i), row(probs, i));
            const int y = targets[static_cast<std::size_t>(i * B + b)];
            if (y < 0) continue;
            if (y >= V) fail(op, "target id " + std::to_string(y) + " is out of range");
            ++c.tokens;
            c.loss_sum += nn::cross_entropy(row(std::as_const(sc.logits), i), y);
            Index best;
            probs.row(i).maxCoeff(&best);
            if (best == y) ++c.correct;
        }
    }
}

void transformer_decoder_backward_batch(const TransformerDecoderParams &params, const std::vector<Mat> &H,
                                        TransformerDecoderBatchCache &c, float scale, TransformerDecoderParams &grads,
                                        std::vector<Mat> &d_H) {
    const int B = c.batch;
    if (static_cast<int>(d_H.size()) != B || static_cast<int>(H.size()) != B)
        fail("transformer_decoder_backward_batch",
             std::to_string(d_H.size()) + " encoder-state gradients for a batch of " + std::to_string(B));
    for (int b = 0; b < B; ++b) {
        const auto ub = static_cast<std::size_t>(b);
        const Mat &probs = c.probs[ub];
        c.d_logits.resize(probs.rows(), probs.cols());
        for (Index i = 0; i < probs.rows(); ++i) {
            const int y = c.targets[static_cast<std::size_t>(i * B + b)];
            if (y < 0)
                c.d_logits.row(i).setZero();
            else
                nn::cross_entropy_backward(row(probs, i), y, scale, row(c.d_logits, i));
        }
        transformer_decoder_backward(params, H[ub], c.sequences[ub], c.d_logits, grads, d_H[ub]);
    }
}

} // namespace apg::models
