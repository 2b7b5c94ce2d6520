#include "models/seq2seq.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace apg::models {

namespace {

using attention::ScoreKind;

Eigen::Index output_features(const ModelConfig &c) {
    return c.style == AttentionStyle::bahdanau ? c.decoder_hidden + c.encoder_state() + c.embedding : c.decoder_hidden;
}

void add(std::vector<TensorRef> &out, std::string name, float *data, std::size_t size,
         std::vector<std::int64_t> shape) {
    std::int64_t want = 1;
    for (auto d : shape) want *= d;
    if (static_cast<std::int64_t>(size) != want)
        throw std::logic_error("tensor " + name + " holds " + std::to_string(size) + " values, its config wants " +
                               std::to_string(want));
    out.push_back({std::move(name), std::move(shape), {data, size}});
}
void add(std::vector<TensorRef> &out, std::string name, Mat &m, std::int64_t rows, std::int64_t cols) {
    add(out, std::move(name), m.data(), static_cast<std::size_t>(m.size()), {rows, cols});
}
void add(std::vector<TensorRef> &out, std::string name, Vec &v, std::int64_t n) {
    add(out, std::move(name), v.data(), static_cast<std::size_t>(v.size()), {n});
}
void add_gru(std::vector<TensorRef> &out, const std::string &prefix, GruParams &g, std::int64_t input,
             std::int64_t hidden) {
    add(out, prefix + ".w_ih", g.w_ih, 3 * hidden, input);
    add(out, prefix + ".w_hh", g.w_hh, 3 * hidden, hidden);
    add(out, prefix + ".b_ih", g.b_ih, 3 * hidden);
    add(out, prefix + ".b_hh", g.b_hh, 3 * hidden);
}

GruParams gru_zeros(Eigen::Index input, Eigen::Index hidden) {
    GruParams g;
    g.w_ih.setZero(3 * hidden, input);
    g.w_hh.setZero(3 * hidden, hidden);
    g.b_ih.setZero(3 * hidden);
    g.b_hh.setZero(3 * hidden);
    return g;
}

Parameters allocate(const ModelConfig &c) {
    c.validate();
    const Eigen::Index E = c.embedding, He = c.encoder_hidden, Hd = c.decoder_hidden, dh = c.encoder_state();
    Parameters p;
    if (c.encoder == EncoderKind::gru) {
        p.encoder.embedding.setZero(c.source_vocab, E);
        p.encoder.fwd = gru_zeros(E, He);
        if (c.bidirectional) p.encoder.bwd = gru_zeros(E, He);
    } else {
        core::Rng unused(0);
        p.transformer = TransformerEncoderParams::init(transformer_config(c), unused).zeros_like();
    }
    auto &d = p.decoder;
    d.init_w.setZero(Hd, dh);
    d.init_b.setZero(Hd);
    d.embedding.setZero(c.target_vocab, E);
    d.gru = gru_zeros(c.style == AttentionStyle::bahdanau ? E + dh : E, Hd);
    d.attn.kind = c.score;
    if (c.score == ScoreKind::general) d.attn.w.setZero(Hd, dh);
    if (c.score == ScoreKind::additive) {
        d.attn.w_q.setZero(c.attention_dim, Hd);
        d.attn.w_k.setZero(c.attention_dim, dh);
        d.attn.v.setZero(c.attention_dim);
    }
    if (c.style == AttentionStyle::luong) d.combine_w.setZero(Hd, dh + Hd);
    d.out_w.setZero(c.target_vocab, output_features(c));
    d.out_b.setZero(c.target_vocab);
    return p;
}

void fill_uniform(Mat &m, float bound, core::Rng &rng) {
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = rng.uniform(-bound, bound);
}

// The transformer's tensors under "encoder.", checked against the config's sizes.
void add_transformer(std::vector<TensorRef> &out, TransformerEncoderParams &t, const ModelConfig &c) {
    if (t.embedding.rows() != c.source_vocab || t.embedding.cols() != c.embedding ||
        static_cast<int>(t.layers.size()) != c.layers)
        throw std::logic_error("transformer encoder: " + std::to_string(t.layers.size()) + " layers of embedding " +
                               std::to_string(t.embedding.rows()) + "x" + std::to_string(t.embedding.cols()) +
                               ", its config wants " + std::to_string(c.layers) + " layers of " +
                               std::to_string(c.source_vocab) + "x" + std::to_string(c.embedding));
    for (const auto &layer : t.layers)
        if (layer.heads != c.heads || layer.ffn.w1.rows() != c.ff_hidden)
            throw std::logic_error("transformer encoder: a layer's heads or feed-forward size differ from its config");
    for (NamedTensorView &v : named_tensors(t, "encoder"))
        add(out, std::move(v.name), v.data.data(), v.data.size(), std::move(v.shape));
}

} // namespace

TransformerEncoderConfig transformer_config(const ModelConfig &c) {
    TransformerEncoderConfig t;
    t.vocab = c.source_vocab;
    t.d_model = c.embedding;
    t.heads = c.heads;
    t.d_ff = c.ff_hidden;
    t.layers = c.layers;
    return t;
}

std::vector<TensorRef> tensors(Parameters &p, const ModelConfig &c) {
    const std::int64_t E = c.embedding, He = c.encoder_hidden, Hd = c.decoder_hidden, dh = c.encoder_state();
    std::vector<TensorRef> out;
    if (c.encoder == EncoderKind::gru) {
        add(out, "encoder.embedding", p.encoder.embedding, c.source_vocab, E);
        add_gru(out, "encoder.fwd", p.encoder.fwd, E, He);
        if (c.bidirectional) add_gru(out, "encoder.bwd", p.encoder.bwd, E, He);
    } else {
        add_transformer(out, p.transformer, c);
    }
    auto &d = p.decoder;
    add(out, "decoder.init.w", d.init_w, Hd, dh);
    add(out, "decoder.init.b", d.init_b, Hd);
    add(out, "decoder.embedding", d.embedding, c.target_vocab, E);
    add_gru(out, "decoder.gru", d.gru, c.style == AttentionStyle::bahdanau ? E + dh : E, Hd);
    if (c.score == ScoreKind::general) add(out, "decoder.attn.w", d.attn.w, Hd, dh);
    if (c.score == ScoreKind::additive) {
        add(out, "decoder.attn.w_q", d.attn.w_q, c.attention_dim, Hd);
        add(out, "decoder.attn.w_k", d.attn.w_k, c.attention_dim, dh);
        add(out, "decoder.attn.v", d.attn.v, c.attention_dim);
    }
    if (c.style == AttentionStyle::luong) add(out, "decoder.combine.w", d.combine_w, Hd, dh + Hd);
    add(out, "decoder.out.w", d.out_w, c.target_vocab, output_features(c));
    add(out, "decoder.out.b", d.out_b, c.target_vocab);
    return out;
}

Parameters init_parameters(const ModelConfig &c, std::uint64_t seed) {
    Parameters p = allocate(c);
    core::Rng rng(seed);
    const Eigen::Index E = c.embedding, He = c.encoder_hidden, Hd = c.decoder_hidden, dh = c.encoder_state();
    // Embeddings N(0, 0.5²): unit-scale inputs would saturate the gates at the start.
    for (Mat *m : {&p.encoder.embedding, &p.decoder.embedding})
        for (Eigen::Index i = 0; i < m->size(); ++i) m->data()[i] = 0.5f * rng.normal();
    if (c.encoder == EncoderKind::gru) {
        p.encoder.fwd = GruParams::init(static_cast<int>(E), static_cast<int>(He), rng);
        if (c.bidirectional) p.encoder.bwd = GruParams::init(static_cast<int>(E), static_cast<int>(He), rng);
    } else {
        p.transformer = TransformerEncoderParams::init(transformer_config(c), rng);
    }
    auto &d = p.decoder;
    fill_uniform(d.init_w, 1.0f / std::sqrt(static_cast<float>(dh)), rng);
    d.gru = GruParams::init(static_cast<int>(d.gru.input()), static_cast<int>(Hd), rng);
    d.attn = attention::ScoreParams::init(c.score, Hd, dh, c.attention_dim, rng);
    if (c.style == AttentionStyle::luong) fill_uniform(d.combine_w, 1.0f / std::sqrt(static_cast<float>(dh + Hd)), rng);
    fill_uniform(d.out_w, 1.0f / std::sqrt(static_cast<float>(d.out_w.cols())), rng);
    tensors(p, c); // checks that every shape (including the attention's own init) fits the config
    return p;
}

Parameters zeros_like(const Parameters &params, const ModelConfig &c) {
    Parameters z = params;
    for (auto &t : tensors(z, c)) std::fill(t.data.begin(), t.data.end(), 0.0f);
    return z;
}

Batch make_batch(const std::vector<std::vector<int>> &sources, const std::vector<std::vector<int>> &targets, int pad_id,
                 int start_id, int end_id) {
    if (sources.empty() || sources.size() != targets.size())
        throw std::invalid_argument("batch: " + std::to_string(sources.size()) + " sources and " +
                                    std::to_string(targets.size()) + " targets");
    Batch b;
    b.size = static_cast<int>(sources.size());
    for (std::size_t k = 0; k < sources.size(); ++k) {
        if (sources[k].empty()) throw std::invalid_argument("batch: source " + std::to_string(k) + " is empty");
        b.source_steps = std::max(b.source_steps, static_cast<int>(sources[k].size()));
        b.target_steps = std::max(b.target_steps, static_cast<int>(targets[k].size()) + 1);
    }
    const int B = b.size, N = b.source_steps, T = b.target_steps;
    b.source.assign(static_cast<std::size_t>(N) * B, pad_id);
    b.target_inputs.assign(static_cast<std::size_t>(T) * B, pad_id);
    b.target_outputs.assign(static_cast<std::size_t>(T) * B, -1);
    for (int k = 0; k < B; ++k) {
        const auto &src = sources[k];
        const auto &tgt = targets[k];
        b.source_lengths.push_back(static_cast<int>(src.size()));
        b.target_lengths.push_back(static_cast<int>(tgt.size()) + 1);
        for (std::size_t t = 0; t < src.size(); ++t) b.source[t * B + k] = src[t];
        for (std::size_t t = 0; t <= tgt.size(); ++t) {
            b.target_inputs[t * B + k] = t == 0 ? start_id : tgt[t - 1];
            b.target_outputs[t * B + k] = t == tgt.size() ? end_id : tgt[t];
        }
    }
    return b;
}

Seq2Seq::Seq2Seq(const ModelConfig &config, std::uint64_t seed)
    : config_(config), params_(init_parameters(config, seed)) {}

Seq2Seq::Seq2Seq(const ModelConfig &config, Parameters params) : config_(config), params_(std::move(params)) {
    config_.validate();
    models::tensors(params_, config_);
}

EncoderOutput Seq2Seq::encode(std::span<const int> ids) const {
    if (ids.empty()) throw std::invalid_argument("encode: the source is empty");
    if (static_cast<int>(ids.size()) > config_.max_source_len)
        throw std::invalid_argument("encode: the source has " + std::to_string(ids.size()) +
                                    " tokens, this model accepts at most " + std::to_string(config_.max_source_len));
    EncoderOutput out;
    out.ids.assign(ids.begin(), ids.end());
    if (config_.encoder == EncoderKind::gru) {
        EncoderCache cache;
        encoder_forward(params_.encoder, config_.bidirectional, out.ids, {static_cast<int>(ids.size())}, cache);
        out.states = std::move(cache.outputs[0]);
    } else {
        auto cache = std::make_shared<TransformerEncoderCache>();
        transformer_encoder_forward(params_.transformer, ids, {}, *cache);
        out.states = cache->output;
        out.self_attention = std::move(cache);
    }
    out.keys = attention::prepare_keys(params_.decoder.attn, out.states);
    decoder_initial_state(params_.decoder, out.states, out.mean_state, out.initial_state);
    return out;
}

DecoderStep Seq2Seq::step(const EncoderOutput &encoded, const Vec &prev_state, int prev_token,
                          const attention::StepOptions &options) const {
    DecoderStep out;
    decoder_step(params_.decoder, config_.style, encoded.states, encoded.keys, prev_state, prev_token, options, out);
    return out;
}

std::vector<DecoderStep> Seq2Seq::greedy(const EncoderOutput &encoded, int start_id, int end_id, int max_steps) const {
    if (max_steps <= 0) max_steps = config_.max_target_len + 1;
    std::vector<DecoderStep> steps;
    Vec state = encoded.initial_state;
    int token = start_id;
    for (int i = 0; i < max_steps; ++i) {
        steps.push_back(step(encoded, state, token));
        Eigen::Index best;
        steps.back().probs.maxCoeff(&best);
        token = static_cast<int>(best);
        state = steps.back().state;
        if (token == end_id) break;
    }
    return steps;
}

BatchResult Seq2Seq::forward_backward(const Batch &batch, Parameters *grads, TrainingWorkspace &ws) const {
    const bool gru = config_.encoder == EncoderKind::gru;
    if (gru)
        encoder_forward(params_.encoder, config_.bidirectional, batch.source, batch.source_lengths, ws.encoder);
    else
        transformer_encoder_forward_batch(params_.transformer, batch.source, batch.source_lengths, ws.transformer);
    const std::vector<Mat> &states = gru ? ws.encoder.outputs : ws.transformer.outputs; // B × (n_b × dh)
    const int B = batch.size;
    ws.keys.resize(B);
    for (int b = 0; b < B; ++b) ws.keys[b] = attention::prepare_keys(params_.decoder.attn, states[b]);
    decoder_forward(params_.decoder, config_.style, states, ws.keys, batch.target_inputs, batch.target_outputs,
                    batch.target_lengths, ws.decoder);
    BatchResult result;
    result.tokens = ws.decoder.tokens;
    result.correct = ws.decoder.correct;
    result.loss = ws.decoder.tokens > 0 ? ws.decoder.loss_sum / ws.decoder.tokens : 0.0;
    if (!grads || ws.decoder.tokens == 0) return result;
    ws.d_states.resize(B);
    for (int b = 0; b < B; ++b) ws.d_states[b].setZero(states[b].rows(), states[b].cols());
    decoder_backward(params_.decoder, config_.style, states, ws.keys, ws.decoder,
                     1.0f / static_cast<float>(ws.decoder.tokens), grads->decoder, ws.d_states);
    if (gru)
        encoder_backward(params_.encoder, config_.bidirectional, ws.encoder, ws.d_states, grads->encoder);
    else
        transformer_encoder_backward_batch(params_.transformer, ws.transformer, ws.d_states, grads->transformer);
    return result;
}

} // namespace apg::models
