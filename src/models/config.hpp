// The shape of a seq2seq model: task, score function, attention style and sizes. Stored in the
// checkpoint's metadata; every tensor shape follows from it.
#pragma once

#include "attention/score.hpp"
#include "nn/feed_forward.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace apg::models {

// Bahdanau: the query is the previous decoder state s_{i-1}, the context feeds the GRU input.
// Luong: the query is the new state s_i, the context feeds the attentional state tanh(W_c[c_i; s_i]).
enum class AttentionStyle { bahdanau, luong };

std::string_view name(AttentionStyle style);
// Inverse of name(); throws std::invalid_argument listing the valid names.
AttentionStyle parse_attention_style(std::string_view text);

// gru: embedding → GRU (one direction or both). transformer: embedding + positional code → L
// layers of multi-head self-attention and feed-forward (models/transformer_encoder.hpp).
// conv: an RGB image → convolutions → a grid of cells (models/conv_encoder.hpp).
// audio: frames of band energies → pyramidal BiGRU layers (models/audio_encoder.hpp).
enum class EncoderKind { gru, transformer, conv, audio };

std::string_view name(EncoderKind kind);
// Inverse of name(); throws std::invalid_argument listing the valid names.
EncoderKind parse_encoder_kind(std::string_view text);

// gru: the Bahdanau / Luong GRU decoder (models/decoder.hpp). transformer: embedding + positional
// code → L layers of masked multi-head self-attention, multi-head cross-attention over the encoder
// states and feed-forward (models/transformer_decoder.hpp); its cross-attention is scaled dot-product
// queried by the decoder's new state, so its config says score scaled_dot and style luong.
enum class DecoderKind { gru, transformer };

std::string_view name(DecoderKind kind);
// Inverse of name(); throws std::invalid_argument listing the valid names.
DecoderKind parse_decoder_kind(std::string_view text);

// A parameter tensor a config implies: its name in a checkpoint and its shape.
struct TensorShape {
    std::string name;
    std::vector<std::int64_t> shape;
    friend bool operator==(const TensorShape &, const TensorShape &) = default;
};

struct ModelConfig {
    std::string task; // "dates" | "zh" | "reverse" | anything for hand-made models
    attention::ScoreKind score = attention::ScoreKind::additive; // none: no attention (gru encoder only)
    AttentionStyle style = AttentionStyle::bahdanau;
    int source_vocab = 0; // Vs
    int target_vocab = 0; // Vt
    int embedding = 32;   // E, both embeddings (the transformer's model size d)
    EncoderKind encoder = EncoderKind::gru;
    DecoderKind decoder = DecoderKind::gru;
    int encoder_hidden = 64;   // He, per direction (gru)
    bool bidirectional = true; // (gru)
    int heads = 4;             // h, E % h == 0 (transformer encoder or decoder)
    int layers = 2;            // L (transformer encoder or decoder, each)
    int ff_hidden = 64;        // f, the feed-forward block's inner size (transformer encoder or decoder)
    int image_size = 32;       // S, pixels per side, a multiple of 4 (conv)
    int conv_channels = 16;    // C, the first two convolutions' channels (conv)
    int input_dim = 24;        // F, features per frame (audio)
    int reductions = 1;        // R, ×2 time reductions between BiGRU layers (audio)
    int decoder_hidden = 128;  // Hd (gru decoder)
    int attention_dim = 64;    // da (additive and location)
    int location_filters = 8;  // kf, the convolution filters over α_{i-1} (location only)
    int location_width = 7;    // r, their width in source positions, odd so they are centred (location only)
    int max_source_len = 0;    // longest input the model accepts
    int max_target_len = 0;    // longest output (without the end token)
    // The feed-forward block's activation (transformer); ReLU when a checkpoint names none.
    nn::Activation activation = nn::Activation::relu;

    // Whether a transformer (encoder or decoder) reads heads, layers, ff_hidden and activation.
    bool has_transformer() const { return encoder == EncoderKind::transformer || decoder == DecoderKind::transformer; }

    // Size of one encoder state h_j: He, or 2·He when bidirectional; E for the transformer.
    int encoder_state() const {
        if (encoder == EncoderKind::transformer) return embedding;
        if (encoder == EncoderKind::conv) return encoder_hidden + 2;  // features + the cell's position
        if (encoder == EncoderKind::audio) return 2 * encoder_hidden; // always bidirectional
        return bidirectional ? 2 * encoder_hidden : encoder_hidden;
    }
    // Every check of a config, done here once. Throws InputError(bad_argument) with details
    // "field" and "limit" for a size outside its bounds (the vocabularies up to
    // limits::max_vocab_tokens, every width up to limits::max_model_dim, heads and layers up to
    // limits::max_heads / max_layers, max_source_len up to limits::max_input_tokens and
    // max_target_len + 1 up to limits::max_decode_steps, and (max_target_len + 1) × target_vocab up
    // to limits::max_decode_floats; all at least 1), for dot / scaled_dot /
    // cosine / scaled_cosine with decoder_hidden != encoder_state() (the query and the keys must have one size),
    // for a transformer whose embedding is not a multiple of heads, and for location with
    // location_filters outside [1, limits::max_location_filters] or location_width not odd or
    // above limits::max_location_width, and for a transformer decoder with another score than
    // scaled_dot, another style than luong or an encoder that is not text (gru or transformer).
    // Within these bounds every
    // tensor has fewer than 2^31 elements and no size arithmetic overflows an int.
    void validate() const;

    nlohmann::json to_json() const;
    // Reads and validates; throws InputError(bad_argument) naming a missing or bad field (details
    // "field", and "limit" for one out of bounds). Sizes must be JSON integers: 32.5, 1e10 or
    // "32" are refused, never rounded or wrapped. A config without "encoder" (checkpoints written
    // before the transformer existed) is a GRU encoder; one without "decoder", a GRU decoder.
    static ModelConfig from_json(const nlohmann::json &j);
};

} // namespace apg::models
