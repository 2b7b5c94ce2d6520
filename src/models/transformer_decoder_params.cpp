// The Transformer decoder's parameters: config checks, the list of tensors, initialisation. Run once
// per model (or per training run), so compiled for size in the wasm build; the passes stay in
// transformer_decoder.cpp.
#include "models/transformer_decoder.hpp"
#include "models/transformer_sizes.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace apg::models {

void TransformerDecoderConfig::validate() const {
    if (memory < 0)
        throw std::invalid_argument("transformer decoder config: memory must be ≥ 0, got " + std::to_string(memory));
    check_transformer_sizes("transformer decoder config", vocab, d_model, heads, d_ff, layers, ln_eps);
}

void TransformerDecoderLayerParams::list(core::ParamList out, const TransformerDecoderConfig &config) {
    out.setting("heads", heads, config.heads);
    self_attn.list(out.sub("self_attn"), config.d_model);
    ln1.list(out.sub("ln1"), config.d_model, config.ln_eps);
    cross_attn.list(out.sub("cross_attn"), config.d_model);
    ln2.list(out.sub("ln2"), config.d_model, config.ln_eps);
    ffn.list(out.sub("ffn"), config.d_model, config.d_ff, config.activation);
    ln3.list(out.sub("ln3"), config.d_model, config.ln_eps);
}

TransformerDecoderLayerParams TransformerDecoderLayerParams::init(const TransformerDecoderConfig &config,
                                                                  core::Rng &rng) {
    TransformerDecoderLayerParams p;
    p.heads = config.heads;
    p.self_attn = attention::SelfAttentionParams::init(config.d_model, rng);
    p.ln1 = nn::LayerNormParams::init(config.d_model, config.ln_eps);
    p.cross_attn = attention::SelfAttentionParams::init(config.d_model, rng);
    p.ln2 = nn::LayerNormParams::init(config.d_model, config.ln_eps);
    p.ffn = nn::FeedForwardParams::init(config.d_model, config.d_ff, config.activation, rng);
    p.ln3 = nn::LayerNormParams::init(config.d_model, config.ln_eps);
    return p;
}

void TransformerDecoderParams::list(core::ParamList out, const TransformerDecoderConfig &config) {
    out.add("embedding", embedding, config.vocab, config.d_model);
    if (config.projects_memory()) {
        out.add("memory.w", memory_w, config.d_model, config.memory);
        out.add("memory.b", memory_b, config.d_model);
    }
    out.count("layers", layers, static_cast<std::size_t>(config.layers));
    for (std::size_t l = 0; l < layers.size(); ++l) layers[l].list(out.sub("layers." + std::to_string(l)), config);
    out.add("out.w", out_w, config.vocab, config.d_model);
    out.add("out.b", out_b, config.vocab);
}

TransformerDecoderParams TransformerDecoderParams::init(const TransformerDecoderConfig &config, core::Rng &rng) {
    config.validate();
    TransformerDecoderParams p = core::zeros<TransformerDecoderParams>(config);
    for (Eigen::Index i = 0; i < p.embedding.size(); ++i) p.embedding.data()[i] = rng.normal();
    const auto uniform = [&rng](Mat &m) {
        const float bound = 1.0f / std::sqrt(static_cast<float>(m.cols()));
        for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = rng.uniform(-bound, bound);
    };
    if (config.projects_memory()) uniform(p.memory_w);
    for (auto &layer : p.layers) layer = TransformerDecoderLayerParams::init(config, rng);
    uniform(p.out_w);
    return p;
}

} // namespace apg::models
