// The model's parameters: the list of its tensors by module path (every walk over them derives
// from it), their initialisation and zeroed copies. Run once per model or per training run, so
// the wasm build compiles the *_params.cpp files for size.
#include "models/seq2seq.hpp"

#include <cmath>
#include <stdexcept>

namespace apg::models {

namespace {

using attention::ScoreKind;

Eigen::Index output_features(const ModelConfig &c) {
    return c.style == AttentionStyle::bahdanau ? c.decoder_hidden + c.encoder_state() + c.embedding : c.decoder_hidden;
}

void fill_uniform(Mat &m, float bound, core::Rng &rng) {
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = rng.uniform(-bound, bound);
}

} // namespace

TransformerEncoderConfig transformer_config(const ModelConfig &c) {
    TransformerEncoderConfig t;
    t.vocab = c.source_vocab;
    t.d_model = c.embedding;
    t.heads = c.heads;
    t.d_ff = c.ff_hidden;
    t.layers = c.layers;
    t.activation = c.activation;
    return t;
}

TransformerDecoderConfig transformer_decoder_config(const ModelConfig &c) {
    TransformerDecoderConfig t;
    t.vocab = c.target_vocab;
    t.d_model = c.embedding;
    t.heads = c.heads;
    t.d_ff = c.ff_hidden;
    t.layers = c.layers;
    t.memory = c.encoder_state();
    t.activation = c.activation;
    return t;
}

void EncoderParams::list(core::ParamList out, const ModelConfig &c) {
    out.add("embedding", embedding, c.source_vocab, c.embedding);
    fwd.list(out.sub("fwd"), c.embedding, c.encoder_hidden);
    if (c.bidirectional) bwd.list(out.sub("bwd"), c.embedding, c.encoder_hidden);
}

void DecoderParams::list(core::ParamList out, const ModelConfig &c) {
    const Eigen::Index E = c.embedding, Hd = c.decoder_hidden, dh = c.encoder_state();
    out.add("init.w", init_w, Hd, dh);
    out.add("init.b", init_b, Hd);
    out.add("embedding", embedding, c.target_vocab, E);
    gru.list(out.sub("gru"), c.style == AttentionStyle::bahdanau ? E + dh : E, Hd);
    attn.list(out.sub("attn"), c.score, Hd, dh, c.attention_dim, c.location_filters, c.location_width);
    if (c.style == AttentionStyle::luong) out.add("combine.w", combine_w, Hd, dh + Hd);
    out.add("out.w", out_w, c.target_vocab, output_features(c));
    out.add("out.b", out_b, c.target_vocab);
}

void Parameters::list(core::ParamList out, const ModelConfig &c) {
    if (c.encoder == EncoderKind::gru)
        encoder.list(out.sub("encoder"), c);
    else if (c.encoder == EncoderKind::conv)
        conv.list(out.sub("encoder"), conv_config(c));
    else if (c.encoder == EncoderKind::audio)
        audio.list(out.sub("encoder"), audio_config(c));
    else
        transformer.list(out.sub("encoder"), transformer_config(c));
    if (c.decoder == DecoderKind::transformer)
        transformer_decoder.list(out.sub("decoder"), transformer_decoder_config(c));
    else
        decoder.list(out.sub("decoder"), c);
}

std::vector<TensorRef> tensors(Parameters &p, const ModelConfig &c) { return core::views(p, "", c); }

std::vector<TensorShape> tensor_shapes(const ModelConfig &c) {
    std::vector<TensorShape> out;
    for (core::TensorRef &t : core::shapes<Parameters>(c)) out.push_back({std::move(t.name), std::move(t.shape)});
    return out;
}

Parameters zeros(const ModelConfig &c) {
    c.validate();
    return core::zeros<Parameters>(c);
}

Parameters zeros_like(const Parameters &, const ModelConfig &c) { return zeros(c); }

Parameters init_parameters(const ModelConfig &c, std::uint64_t seed) {
    Parameters p = zeros(c);
    core::Rng rng(seed);
    const Eigen::Index E = c.embedding, He = c.encoder_hidden, Hd = c.decoder_hidden, dh = c.encoder_state();
    // Embeddings N(0, 0.5²): unit-scale inputs would saturate the gates at the start.
    for (Mat *m : {&p.encoder.embedding, &p.decoder.embedding})
        for (Eigen::Index i = 0; i < m->size(); ++i) m->data()[i] = 0.5f * rng.normal();
    if (c.encoder == EncoderKind::gru) {
        p.encoder.fwd = nn::GruParams::init(static_cast<int>(E), static_cast<int>(He), rng);
        if (c.bidirectional) p.encoder.bwd = nn::GruParams::init(static_cast<int>(E), static_cast<int>(He), rng);
    } else if (c.encoder == EncoderKind::conv) {
        p.conv = ConvEncoderParams::init(conv_config(c), rng);
    } else if (c.encoder == EncoderKind::audio) {
        p.audio = AudioEncoderParams::init(audio_config(c), rng);
    } else {
        p.transformer = TransformerEncoderParams::init(transformer_config(c), rng);
    }
    if (c.decoder == DecoderKind::transformer) {
        p.transformer_decoder = TransformerDecoderParams::init(transformer_decoder_config(c), rng);
        tensors(p, c);
        return p;
    }
    auto &d = p.decoder;
    fill_uniform(d.init_w, 1.0f / std::sqrt(static_cast<float>(dh)), rng);
    d.gru = nn::GruParams::init(static_cast<int>(d.gru.input()), static_cast<int>(Hd), rng);
    d.attn = attention::ScoreParams::init(c.score, Hd, dh, c.attention_dim, rng, c.location_filters, c.location_width);
    if (c.style == AttentionStyle::luong) fill_uniform(d.combine_w, 1.0f / std::sqrt(static_cast<float>(dh + Hd)), rng);
    fill_uniform(d.out_w, 1.0f / std::sqrt(static_cast<float>(d.out_w.cols())), rng);
    tensors(p, c); // checks that every shape (including the attention's own init) fits the config
    return p;
}

} // namespace apg::models
