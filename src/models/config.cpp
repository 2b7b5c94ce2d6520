#include "models/config.hpp"

#include "core/error.hpp"
#include "core/limits.hpp"
#include "core/quote.hpp"

#include <limits>
#include <span>
#include <stdexcept>
#include <utility>

namespace apg::models {

std::string_view name(AttentionStyle style) { return style == AttentionStyle::bahdanau ? "bahdanau" : "luong"; }

AttentionStyle parse_attention_style(std::string_view text) {
    if (text == "bahdanau") return AttentionStyle::bahdanau;
    if (text == "luong") return AttentionStyle::luong;
    throw std::invalid_argument("unknown attention style \"" + std::string(text) + "\" (valid: bahdanau, luong)");
}

std::string_view name(EncoderKind kind) {
    return kind == EncoderKind::gru     ? "gru"
           : kind == EncoderKind::conv  ? "conv"
           : kind == EncoderKind::audio ? "audio"
                                        : "transformer";
}

EncoderKind parse_encoder_kind(std::string_view text) {
    if (text == "gru") return EncoderKind::gru;
    if (text == "transformer") return EncoderKind::transformer;
    if (text == "conv") return EncoderKind::conv;
    if (text == "audio") return EncoderKind::audio;
    throw std::invalid_argument("unknown encoder \"" + std::string(text) + "\" (valid: gru, transformer, conv, audio)");
}

std::string_view name(DecoderKind kind) { return kind == DecoderKind::gru ? "gru" : "transformer"; }

DecoderKind parse_decoder_kind(std::string_view text) {
    if (text == "gru") return DecoderKind::gru;
    if (text == "transformer") return DecoderKind::transformer;
    throw std::invalid_argument("unknown decoder \"" + std::string(text) + "\" (valid: gru, transformer)");
}

namespace {

// Out of line with plain arguments: each call site stays small (the wasm build has a size budget).
[[noreturn]] void bad_field(const std::string &field, const std::string &message, std::int64_t limit = -1) {
    Details details{{"field", field}};
    if (limit >= 0) details.emplace_back("limit", limit);
    throw InputError(ErrorCode::bad_argument, "model config: " + message, std::move(details));
}

void require_range(const char *field, std::int64_t value, std::int64_t lo, std::int64_t hi) {
    if (value < lo || value > hi)
        bad_field(field,
                  std::string(field) + " must be " +
                      (value < lo && lo == 1 ? "positive" : "from " + std::to_string(lo)) +
                      (value < lo && lo == 1 ? "" : " to " + std::to_string(hi)) + ", got " + std::to_string(value),
                  hi);
}

// The sizes only one encoder (or the Transformer decoder) has, written and read only for it, in the order they are
// read.
using IntField = std::pair<const char *, int ModelConfig::*>;
constexpr IntField transformer_fields[] = {
    {"heads", &ModelConfig::heads}, {"layers", &ModelConfig::layers}, {"ff_hidden", &ModelConfig::ff_hidden}};
constexpr IntField conv_fields[] = {{"image_size", &ModelConfig::image_size},
                                    {"conv_channels", &ModelConfig::conv_channels}};
constexpr IntField audio_fields[] = {{"input_dim", &ModelConfig::input_dim}, {"reductions", &ModelConfig::reductions}};

// A Transformer decoder has the Transformer's sizes over either text encoder.
std::span<const IntField> kind_fields(EncoderKind encoder, DecoderKind decoder) {
    if (decoder == DecoderKind::transformer && encoder == EncoderKind::gru) return transformer_fields;
    switch (encoder) {
    case EncoderKind::transformer:
        return transformer_fields;
    case EncoderKind::conv:
        return conv_fields;
    case EncoderKind::audio:
        return audio_fields;
    case EncoderKind::gru:
        break;
    }
    return {};
}

} // namespace

void ModelConfig::validate() const {
    require_range("source_vocab", source_vocab, 1, limits::max_vocab_tokens);
    require_range("target_vocab", target_vocab, 1, limits::max_vocab_tokens);
    require_range("embedding", embedding, 1, limits::max_model_dim);
    if (encoder != EncoderKind::transformer) require_range("encoder_hidden", encoder_hidden, 1, limits::max_model_dim);
    if (has_transformer()) {
        require_range("heads", heads, 1, limits::max_heads);
        require_range("layers", layers, 1, limits::max_layers);
        require_range("ff_hidden", ff_hidden, 1, limits::max_model_dim);
        if (embedding % heads != 0)
            bad_field("heads", "a transformer's embedding (" + std::to_string(embedding) +
                                   ") must be a multiple of heads (" + std::to_string(heads) + ")");
    }
    // Only a transformer (encoder or decoder) has a feed-forward block: a model without one and an
    // activation chosen would train and load as if it had been heeded.
    if (!has_transformer() && activation != nn::Activation::relu)
        bad_field("activation", "activation \"" + std::string(nn::name(activation)) +
                                    "\" is the transformer's feed-forward's; the " + std::string(name(encoder)) +
                                    " encoder and the GRU decoder have none");
    if (encoder == EncoderKind::conv) {
        require_range("image_size", image_size, 4, limits::max_image_side);
        if (image_size % 4 != 0) bad_field("image_size", "image_size must be a multiple of 4 (two 2x2 poolings)");
        require_range("conv_channels", conv_channels, 1, limits::max_model_dim);
        const std::int64_t activations = std::int64_t{image_size} * image_size * conv_channels;
        if (activations > limits::max_image_activations)
            bad_field("conv_channels",
                      "image_size² x conv_channels is " + std::to_string(activations) + ", more than the limit of " +
                          std::to_string(limits::max_image_activations),
                      limits::max_image_activations / (std::int64_t{image_size} * image_size));
    }
    if (encoder == EncoderKind::audio) {
        require_range("input_dim", input_dim, 1, limits::max_model_dim);
        require_range("reductions", reductions, 0, limits::max_time_reductions);
        if (!bidirectional) bad_field("bidirectional", "the audio encoder's GRUs are bidirectional");
        require_range("max_source_len", max_source_len, 1, limits::max_speech_frames);
    }
    require_range("decoder_hidden", decoder_hidden, 1, limits::max_model_dim);
    require_range("attention_dim", attention_dim, 1, limits::max_model_dim);
    require_range("max_source_len", max_source_len, 1, limits::max_input_tokens);
    // A conv encoder's source is its grid of (image_size / 4)² cells, as many as max_source_len says.
    if (encoder == EncoderKind::conv && max_source_len != (image_size / 4) * (image_size / 4))
        bad_field("max_source_len",
                  "a conv encoder over " + std::to_string(image_size) + " x " + std::to_string(image_size) +
                      " pixels has " + std::to_string((image_size / 4) * (image_size / 4)) +
                      " grid cells, but max_source_len is " + std::to_string(max_source_len),
                  (image_size / 4) * (image_size / 4));
    // The decoding takes max_target_len + 1 steps (room for the end token).
    require_range("max_target_len", max_target_len, 1, limits::max_decode_steps - 1);
    const std::int64_t decode_floats = (std::int64_t{max_target_len} + 1) * target_vocab;
    if (decode_floats > limits::max_decode_floats)
        bad_field("max_target_len",
                  "max_target_len + 1 steps over " + std::to_string(target_vocab) + " target tokens keep " +
                      std::to_string(decode_floats) + " probabilities, more than the limit of " +
                      std::to_string(limits::max_decode_floats) + "; max_target_len can be at most " +
                      std::to_string(limits::max_decode_floats / target_vocab - 1),
                  limits::max_decode_floats / target_vocab - 1);
    if (score == attention::ScoreKind::location) {
        require_range("location_filters", location_filters, 1, limits::max_location_filters);
        require_range("location_width", location_width, 1, limits::max_location_width);
        if (location_width % 2 == 0)
            bad_field("location_width", "location_width must be odd (a filter centred on its position), got " +
                                            std::to_string(location_width));
    }
    // The fixed vector is made of a GRU's final states; a transformer encoder has none.
    if (score == attention::ScoreKind::none && encoder != EncoderKind::gru)
        bad_field("score", "score \"none\" (no attention) needs the gru encoder: its fixed vector is the GRU's final "
                           "states");
    if (decoder == DecoderKind::transformer) {
        // Its cross-attention is q·k/√dh with the query its own new state (models/transformer_decoder.hpp).
        if (score != attention::ScoreKind::scaled_dot)
            bad_field("score", "a transformer decoder's cross-attention is scaled dot-product: score must be "
                               "\"scaled_dot\", got \"" +
                                   std::string(attention::name(score)) + "\"");
        if (style != AttentionStyle::luong)
            bad_field("style", "a transformer decoder queries with its new state, as Luong's s_i: style must be "
                               "\"luong\"");
        if (encoder != EncoderKind::gru && encoder != EncoderKind::transformer)
            bad_field("decoder", "a transformer decoder reads a text encoder's states (gru or transformer)");
        return;
    }
    if (attention::same_size_query_and_keys(score) && decoder_hidden != encoder_state()) {
        const char *why = encoder == EncoderKind::transformer              ? " = embedding)"
                          : encoder == EncoderKind::conv                   ? " = encoder_hidden + 2)"
                          : bidirectional || encoder == EncoderKind::audio ? " = 2 x encoder_hidden)"
                                                                           : ")";
        bad_field("decoder_hidden", "score \"" + std::string(attention::name(score)) +
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
    if (score == attention::ScoreKind::location) {
        j["location_filters"] = location_filters;
        j["location_width"] = location_width;
    }
    // Written only for the encoders that came after the GRU, and the Transformer decoder, so GRU
    // checkpoints keep the metadata they always had.
    if (encoder != EncoderKind::gru) j["encoder"] = std::string(name(encoder));
    if (decoder != DecoderKind::gru) j["decoder"] = std::string(name(decoder));
    for (const auto &[key, member] : kind_fields(encoder, decoder)) j[key] = this->*member;
    if (has_transformer() && activation != nn::Activation::relu) j["activation"] = std::string(nn::name(activation));
    return j;
}

namespace {

const nlohmann::json &member(const nlohmann::json &j, const char *key) {
    if (!j.is_object()) bad_field(key, "expected a JSON object");
    const auto found = j.find(key);
    if (found == j.end()) bad_field(key, std::string("missing field \"") + key + "\"");
    return *found;
}

std::string string_field(const nlohmann::json &j, const char *key) {
    const nlohmann::json &value = member(j, key);
    if (!value.is_string()) bad_field(key, std::string("field \"") + key + "\" must be a string");
    return value.get<std::string>();
}

bool bool_field(const nlohmann::json &j, const char *key) {
    const nlohmann::json &value = member(j, key);
    if (!value.is_boolean()) bad_field(key, std::string("field \"") + key + "\" must be true or false");
    return value.get<bool>();
}

// A name one of the parsers reads (score, style, encoder, activation): their error, which quotes
// the name as it is, as this field's, quoting it escaped (a NUL in a name would cut a message short).
template <class Parse>
auto named_field(const char *field, const std::string &text, Parse parse, const char *what, const std::string &valid) {
    try {
        return parse(text);
    } catch (const std::invalid_argument &) {
        bad_field(field, std::string("unknown ") + what + " " + quote(text) + " (valid: " + valid + ")");
    }
}

// A JSON integer that fits an int; validate() then holds it to its field's bounds. A float (even
// 32.0) is refused: the writer only ever writes integers, so anything else was not made by it.
int int_field(const nlohmann::json &j, const char *key) {
    const nlohmann::json &value = member(j, key);
    if (!value.is_number_integer())
        bad_field(key, std::string("field \"") + key + "\" must be an integer, got " + value.dump());
    constexpr auto hi = std::numeric_limits<int>::max();
    const bool fits = value.is_number_unsigned() ? value.get<std::uint64_t>() <= static_cast<std::uint64_t>(hi)
                                                 : value.get<std::int64_t>() >= std::numeric_limits<int>::min() &&
                                                       value.get<std::int64_t>() <= hi;
    if (!fits) bad_field(key, std::string("field \"") + key + "\" is out of range, got " + value.dump(), hi);
    return static_cast<int>(value.get<std::int64_t>());
}

} // namespace

ModelConfig ModelConfig::from_json(const nlohmann::json &j) {
    ModelConfig c;
    c.task = string_field(j, "task");
    const std::string score = string_field(j, "score"), style = string_field(j, "style");
    std::string scores;
    for (attention::ScoreKind kind : attention::all_score_kinds)
        scores += (scores.empty() ? "" : ", ") + std::string(attention::name(kind));
    c.score = named_field("score", score, attention::parse_score_kind, "score function", scores + ", location, none");
    c.style = named_field("style", style, parse_attention_style, "attention style", "bahdanau, luong");
    if (j.contains("encoder"))
        c.encoder = named_field("encoder", string_field(j, "encoder"), parse_encoder_kind, "encoder",
                                "gru, transformer, conv, audio");
    if (j.contains("decoder"))
        c.decoder =
            named_field("decoder", string_field(j, "decoder"), parse_decoder_kind, "decoder", "gru, transformer");
    c.source_vocab = int_field(j, "source_vocab");
    c.target_vocab = int_field(j, "target_vocab");
    c.embedding = int_field(j, "embedding");
    for (const auto &[key, member] : kind_fields(c.encoder, c.decoder)) c.*member = int_field(j, key);
    // Absent in checkpoints written before the activation was a choice: they are ReLU.
    if (c.has_transformer() && j.contains("activation"))
        c.activation =
            named_field("activation", string_field(j, "activation"), nn::parse_activation, "activation", "relu, gelu");
    c.encoder_hidden = int_field(j, "encoder_hidden");
    c.bidirectional = bool_field(j, "bidirectional");
    c.decoder_hidden = int_field(j, "decoder_hidden");
    c.attention_dim = int_field(j, "attention_dim");
    if (c.score == attention::ScoreKind::location) {
        c.location_filters = int_field(j, "location_filters");
        c.location_width = int_field(j, "location_width");
    }
    c.max_source_len = int_field(j, "max_source_len");
    c.max_target_len = int_field(j, "max_target_len");
    c.validate();
    return c;
}

} // namespace apg::models
