// The command line's speech commands (train, eval and decode of speech models); main.cpp hands
// them the parsed arguments.
#pragma once

#include "io/model.hpp"

#include <cstdint>
#include <string>

namespace apg::cli {

struct SpeechTraining {
    attention::ScoreKind score = attention::ScoreKind::additive;
    models::AttentionStyle style = models::AttentionStyle::bahdanau;
    std::uint64_t seed = 1;
    std::string out, command_line;
    int steps = 0, batch = 0, eval_every = 0; // 0: the recipe's
    float learning_rate = 0;                  // 0: the recipe's
    std::size_t utterances = 0;               // training utterances, 0: the task's default
    bool quiet = false;
};

int train_speech(const SpeechTraining &request);
// Held-out character error rate, exact match and attention monotonicity of a speech model.
int eval_speech(const io::Model &model, const std::string &path, std::size_t limit);
// The phrase synthesized (seed, rate, noise as speech::synthesize), transcribed, and for every
// output character where its attention peaks: the encoder state, the frames it covers and the
// letter those frames were made from.
int decode_speech(const io::Model &model, const std::string &phrase, std::uint64_t seed, float rate, float noise);

} // namespace apg::cli
