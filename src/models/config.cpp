#include "models/config.hpp"

#include <stdexcept>

namespace apg::models {

std::string_view name(AttentionStyle style) { return style == AttentionStyle::bahdanau ? "bahdanau" : "luong"; }

AttentionStyle parse_attention_style(std::string_view text) {
    if (text == "bahdanau") return AttentionStyle::bahdanau;
    if (text == "luong") return AttentionStyle::luong;
    throw std::invalid_argument("unknown attention style \"" + std::string(text) + "\" (valid: bahdanau, luong)");
}

std::string_view name(EncoderKind kind) { return kind == EncoderKind::gru ? "gru" : "transformer"; }

EncoderKind parse_encoder_kind(std::string_view text) {
    if (text == "gru") return EncoderKind::gru;
    if (text == "transformer") return EncoderKind::transformer;
    throw std::invalid_argument("unknown encoder \"" + std::string(text) + "\" (valid: gru, transformer)");
}

namespace {

void require_positive(const char *field, int value) {
    if (value <= 0)
        throw std::invalid_argument(std::string("model config: ") + field + " must be positive, got " +
                                    std::to_string(value));
}

} // namespace

void ModelConfig::validate() const {
    require_positive("source_vocab", source_vocab);
    require_positive("target_vocab", target_vocab);
    require_positive("embedding", embedding);
    if (encoder == EncoderKind::gru) {
        require_positive("encoder_hidden", encoder_hidden);
    } else {
        require_positive("heads", heads);
        require_positive("layers", layers);
        require_positive("ff_hidden", ff_hidden);
        if (embedding % heads != 0)
            throw std::invalid_argument("model config: a transformer's embedding (" + std::to_string(embedding) +
                                        ") must be a multiple of heads (" + std::to_string(heads) + ")");
    }
    require_positive("decoder_hidden", decoder_hidden);
    require_positive("attention_dim", attention_dim);
    require_positive("max_source_len", max_source_len);
    require_positive("max_target_len", max_target_len);
    using attention::ScoreKind;
    if ((score == ScoreKind::dot || score == ScoreKind::scaled_dot || score == ScoreKind::cosine) &&
        decoder_hidden != encoder_state()) {
        const char *why = encoder == EncoderKind::transformer ? " = embedding)"
                          : bidirectional                     ? " = 2 x encoder_hidden)"
                                                              : ")";
        throw std::invalid_argument("model config: score \"" + std::string(attention::name(score)) +
                                    "\" compares the query with the keys, so decoder_hidden (" +
                                    std::to_string(decoder_hidden) + ") must equal the encoder state size (" +
                                    std::to_string(encoder_state()) + why);
    }
}

nlohmann::json ModelConfig::to_json() const {
    nlohmann::json j = {{"task", task},
                        {"score", std::string(attention::name(score))},
                        {"style", std::string(name(style))},
                        {"source_vocab", source_vocab},
                        {"target_vocab", target_vocab},
                        {"embedding", embedding},
                        {"encoder_hidden", encoder_hidden},
                        {"bidirectional", bidirectional},
                        {"decoder_hidden", decoder_hidden},
                        {"attention_dim", attention_dim},
                        {"max_source_len", max_source_len},
                        {"max_target_len", max_target_len}};
    // Written only for the transformer, so GRU checkpoints keep the metadata they always had.
    if (encoder == EncoderKind::transformer) {
        j["encoder"] = std::string(name(encoder));
        j["heads"] = heads;
        j["layers"] = layers;
        j["ff_hidden"] = ff_hidden;
        if (activation != nn::Activation::relu) j["activation"] = std::string(nn::name(activation));
    }
    return j;
}

namespace {

template <typename T> T field(const nlohmann::json &j, const char *key) {
    if (!j.is_object() || !j.contains(key))
        throw std::invalid_argument(std::string("model config: missing field \"") + key + "\"");
    try {
        return j.at(key).get<T>();
    } catch (const nlohmann::json::exception &) {
        throw std::invalid_argument(std::string("model config: field \"") + key + "\" has the wrong type");
    }
}

} // namespace

ModelConfig ModelConfig::from_json(const nlohmann::json &j) {
    ModelConfig c;
    c.task = field<std::string>(j, "task");
    c.score = attention::parse_score_kind(field<std::string>(j, "score"));
    c.style = parse_attention_style(field<std::string>(j, "style"));
    c.source_vocab = field<int>(j, "source_vocab");
    c.target_vocab = field<int>(j, "target_vocab");
    c.embedding = field<int>(j, "embedding");
    if (j.is_object() && j.contains("encoder")) c.encoder = parse_encoder_kind(field<std::string>(j, "encoder"));
    if (c.encoder == EncoderKind::transformer) {
        c.heads = field<int>(j, "heads");
        c.layers = field<int>(j, "layers");
        c.ff_hidden = field<int>(j, "ff_hidden");
        // Absent in checkpoints written before the activation was a choice: they are ReLU.
        if (j.contains("activation")) c.activation = nn::parse_activation(field<std::string>(j, "activation"));
    }
    c.encoder_hidden = field<int>(j, "encoder_hidden");
    c.bidirectional = field<bool>(j, "bidirectional");
    c.decoder_hidden = field<int>(j, "decoder_hidden");
    c.attention_dim = field<int>(j, "attention_dim");
    c.max_source_len = field<int>(j, "max_source_len");
    c.max_target_len = field<int>(j, "max_target_len");
    c.validate();
    return c;
}

} // namespace apg::models
