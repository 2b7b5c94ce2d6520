// The Transformer encoder's parameters: config checks, the list of tensors, initialisation. Run once per model (or per
// training run), so this file is compiled for size in the wasm build; the forward and backward passes stay in
// transformer_encoder.cpp.
#include "models/transformer_encoder.hpp"
#include "models/transformer_sizes.hpp"

#include <stdexcept>
#include <string>

namespace apg::models {

void check_transformer_sizes(const char *what, int vocab, int d_model, int heads, int d_ff, int layers, float ln_eps) {
    const std::string config(what);
    auto positive = [&](const char *field, int value) {
        if (value <= 0)
            throw std::invalid_argument(config + ": " + field + " must be > 0, got " + std::to_string(value));
    };
    positive("vocab", vocab);
    positive("d_model", d_model);
    positive("heads", heads);
    positive("d_ff", d_ff);
    positive("layers", layers);
    if (d_model % heads != 0)
        throw std::invalid_argument(config + ": d_model (" + std::to_string(d_model) +
                                    ") must be a multiple of heads (" + std::to_string(heads) + ")");
    if (!(ln_eps > 0.0f)) throw std::invalid_argument(config + ": ln_eps must be > 0, got " + std::to_string(ln_eps));
}

void TransformerEncoderConfig::validate() const {
    check_transformer_sizes("transformer config", vocab, d_model, heads, d_ff, layers, ln_eps);
}

void TransformerLayerParams::list(core::ParamList out, const TransformerEncoderConfig &config) {
    out.setting("heads", heads, config.heads);
    attn.list(out.sub("attn"), config.d_model);
    ln1.list(out.sub("ln1"), config.d_model, config.ln_eps);
    ffn.list(out.sub("ffn"), config.d_model, config.d_ff, config.activation);
    ln2.list(out.sub("ln2"), config.d_model, config.ln_eps);
}

TransformerEncoderConfig TransformerLayerParams::config() const {
    TransformerEncoderConfig c;
    c.vocab = 0;
    c.layers = 0;
    c.d_model = static_cast<int>(dim());
    c.heads = heads;
    c.d_ff = static_cast<int>(ffn.inner());
    c.activation = ffn.activation;
    c.ln_eps = ln1.eps;
    return c;
}

TransformerLayerParams TransformerLayerParams::init(const TransformerEncoderConfig &config, core::Rng &rng) {
    config.validate();
    TransformerLayerParams p;
    p.heads = config.heads;
    p.attn = attention::SelfAttentionParams::init(config.d_model, rng);
    p.ln1 = nn::LayerNormParams::init(config.d_model, config.ln_eps);
    p.ffn = nn::FeedForwardParams::init(config.d_model, config.d_ff, config.activation, rng);
    p.ln2 = nn::LayerNormParams::init(config.d_model, config.ln_eps);
    return p;
}

TransformerEncoderParams TransformerEncoderParams::init(const TransformerEncoderConfig &config, core::Rng &rng) {
    config.validate();
    TransformerEncoderParams p;
    p.embedding.resize(config.vocab, config.d_model);
    for (Eigen::Index i = 0; i < p.embedding.size(); ++i) p.embedding.data()[i] = rng.normal();
    for (int l = 0; l < config.layers; ++l) p.layers.push_back(TransformerLayerParams::init(config, rng));
    return p;
}

void TransformerEncoderParams::list(core::ParamList out, const TransformerEncoderConfig &config) {
    out.add("embedding", embedding, config.vocab, config.d_model);
    out.count("layers", layers, static_cast<std::size_t>(config.layers));
    for (std::size_t l = 0; l < layers.size(); ++l) layers[l].list(out.sub("layers." + std::to_string(l)), config);
}

TransformerEncoderConfig TransformerEncoderParams::config() const {
    TransformerEncoderConfig c = layers.empty() ? TransformerEncoderConfig{} : layers[0].config();
    c.vocab = static_cast<int>(embedding.rows());
    c.d_model = static_cast<int>(embedding.cols());
    c.layers = static_cast<int>(layers.size());
    return c;
}

} // namespace apg::models
