// What runs once per model or once per input: the parameters by name, their initialisation and
// zeroed copies, the constructors, and encoding a source. The wasm build compiles this file for
// size; the decoding step and the training pass (seq2seq.cpp) stay fast.
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
void add_gru(std::vector<TensorRef> &out, const std::string &prefix, nn::GruParams &g, std::int64_t input,
             std::int64_t hidden) {
    add(out, prefix + ".w_ih", g.w_ih, 3 * hidden, input);
    add(out, prefix + ".w_hh", g.w_hh, 3 * hidden, hidden);
    add(out, prefix + ".b_ih", g.b_ih, 3 * hidden);
    add(out, prefix + ".b_hh", g.b_hh, 3 * hidden);
}

nn::GruParams gru_zeros(Eigen::Index input, Eigen::Index hidden) {
    nn::GruParams g;
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
        p.encoder.fwd = nn::GruParams::init(static_cast<int>(E), static_cast<int>(He), rng);
        if (c.bidirectional) p.encoder.bwd = nn::GruParams::init(static_cast<int>(E), static_cast<int>(He), rng);
    } else {
        p.transformer = TransformerEncoderParams::init(transformer_config(c), rng);
    }
    auto &d = p.decoder;
    fill_uniform(d.init_w, 1.0f / std::sqrt(static_cast<float>(dh)), rng);
    d.gru = nn::GruParams::init(static_cast<int>(d.gru.input()), static_cast<int>(Hd), rng);
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

} // namespace apg::models
