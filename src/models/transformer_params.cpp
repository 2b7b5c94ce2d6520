// The Transformer encoder's parameters: config checks, initialisation, zeroed copies and the
// tensors by name. Run once per model (or per training run), so this file is compiled for size in
// the wasm build; the forward and backward passes stay in transformer_encoder.cpp.
#include "models/transformer_encoder.hpp"

#include <stdexcept>
#include <string>

namespace apg::models {

void TransformerEncoderConfig::validate() const {
    auto positive = [](const char *field, int value) {
        if (value <= 0)
            throw std::invalid_argument(std::string("transformer config: ") + field + " must be > 0, got " +
                                        std::to_string(value));
    };
    positive("vocab", vocab);
    positive("d_model", d_model);
    positive("heads", heads);
    positive("d_ff", d_ff);
    positive("layers", layers);
    if (d_model % heads != 0)
        throw std::invalid_argument("transformer config: d_model (" + std::to_string(d_model) +
                                    ") must be a multiple of heads (" + std::to_string(heads) + ")");
    if (!(ln_eps > 0.0f))
        throw std::invalid_argument("transformer config: ln_eps must be > 0, got " + std::to_string(ln_eps));
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

TransformerLayerParams TransformerLayerParams::zeros_like() const {
    TransformerLayerParams p;
    p.heads = heads;
    p.attn = attn.zeros_like();
    p.ln1 = ln1.zeros_like();
    p.ffn = ffn.zeros_like();
    p.ln2 = ln2.zeros_like();
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

TransformerEncoderParams TransformerEncoderParams::zeros_like() const {
    TransformerEncoderParams p;
    p.embedding = Mat::Zero(embedding.rows(), embedding.cols());
    for (const TransformerLayerParams &layer : layers) p.layers.push_back(layer.zeros_like());
    return p;
}

// ---- parameters by name ---------------------------------------------------------------------

std::vector<NamedTensorView> named_tensors(TransformerEncoderParams &params, std::string_view prefix) {
    std::vector<NamedTensorView> out;
    auto add_mat = [&out](std::string name, Mat &m) {
        out.push_back({std::move(name), {m.rows(), m.cols()}, view(m)});
    };
    auto add_vec = [&out](std::string name, Vec &v) { out.push_back({std::move(name), {v.size()}, view(v)}); };
    const std::string root(prefix);
    add_mat(root + ".embedding", params.embedding);
    for (std::size_t l = 0; l < params.layers.size(); ++l) {
        TransformerLayerParams &layer = params.layers[l];
        const std::string at = root + ".layers." + std::to_string(l) + ".";
        add_mat(at + "attn.w_q", layer.attn.w_q);
        add_vec(at + "attn.b_q", layer.attn.b_q);
        add_mat(at + "attn.w_k", layer.attn.w_k);
        add_vec(at + "attn.b_k", layer.attn.b_k);
        add_mat(at + "attn.w_v", layer.attn.w_v);
        add_vec(at + "attn.b_v", layer.attn.b_v);
        add_mat(at + "attn.w_o", layer.attn.w_o);
        add_vec(at + "attn.b_o", layer.attn.b_o);
        add_vec(at + "ln1.gain", layer.ln1.gain);
        add_vec(at + "ln1.bias", layer.ln1.bias);
        add_mat(at + "ffn.w1", layer.ffn.w1);
        add_vec(at + "ffn.b1", layer.ffn.b1);
        add_mat(at + "ffn.w2", layer.ffn.w2);
        add_vec(at + "ffn.b2", layer.ffn.b2);
        add_vec(at + "ln2.gain", layer.ln2.gain);
        add_vec(at + "ln2.bias", layer.ln2.bias);
    }
    return out;
}

} // namespace apg::models
