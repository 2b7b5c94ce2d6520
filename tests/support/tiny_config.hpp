// A model config small enough for finite differences and quick session tests, shared by the
// model tests. dot / scaled_dot / cosine need decoder_hidden == 2 · encoder_hidden.
#pragma once

#include "models/config.hpp"

#include <vector>

namespace apg::models::testing {

struct TinySizes {
    int source_vocab = 6, target_vocab = 7;
    int embedding = 3, encoder_hidden = 2, decoder_hidden = 4, attention_dim = 3;
    int max_source_len = 5, max_target_len = 4;
};

inline ModelConfig tiny_config(attention::ScoreKind score, AttentionStyle style, const TinySizes &sizes = {}) {
    ModelConfig c;
    c.task = "test";
    c.score = score;
    c.style = style;
    c.source_vocab = sizes.source_vocab;
    c.target_vocab = sizes.target_vocab;
    c.embedding = sizes.embedding;
    c.encoder_hidden = sizes.encoder_hidden;
    c.decoder_hidden = sizes.decoder_hidden;
    c.attention_dim = sizes.attention_dim;
    c.max_source_len = sizes.max_source_len;
    c.max_target_len = sizes.max_target_len;
    return c;
}

// The sizes of the decoding-session and record tests: room for 8 source and 5 target tokens.
inline constexpr TinySizes session_sizes{.source_vocab = 7,
                                         .target_vocab = 6,
                                         .embedding = 4,
                                         .encoder_hidden = 3,
                                         .decoder_hidden = 6,
                                         .attention_dim = 5,
                                         .max_source_len = 8,
                                         .max_target_len = 5};

// A source sentence for those sizes, and target tokens a session is forced through so that it runs
// its whole length whatever the random model prefers (2 is the end).
inline const std::vector<int> session_source{4, 5, 6};
inline const std::vector<int> session_tokens{3, 4, 5, 1, 3, 4};

} // namespace apg::models::testing
