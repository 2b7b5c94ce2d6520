// The text tasks: the generated ones of src/tasks (dates, zh, reverse) and a person's own pairs,
// read from tokens by the GRU or the Transformer encoder. Their recipe (the model and options the
// shipped models were made with), their examples as token ids for the trainer, and their
// descriptors (task.hpp).
#pragma once

#include "io/vocab.hpp"
#include "models/config.hpp"
#include "tasks/task.hpp"
#include "train/task.hpp"
#include "train/trainer.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace apg::train {

// Ids without start / end tokens. Throws std::invalid_argument (the vocabulary's message) if an
// example holds a token the vocabulary lacks.
EncodedPairs encode_examples(const std::vector<tasks::Example> &examples, const io::Vocabulary &source_vocab,
                             const io::Vocabulary &target_vocab);

struct PreparedTask {
    tasks::TaskData data;
    io::Vocabulary source_vocab, target_vocab;
    EncodedPairs train, heldout;
};

// make_task(name, seed), vocabularies over train + held-out, pairs encoded.
PreparedTask prepare_task(std::string_view name, std::uint64_t seed);

// The recipe of a task: model sizes (vocabularies and max lengths filled from the prepared
// task) and the training options the shipped models were made with.
// encoder gru: BiGRU 2 × 64; transformer: 2 layers × 4 heads, model size 64, feed-forward 128.
models::ModelConfig recipe_config(const PreparedTask &task, attention::ScoreKind score, models::AttentionStyle style,
                                  models::EncoderKind encoder = models::EncoderKind::gru);
TrainOptions recipe_options(std::string_view task, models::EncoderKind encoder = models::EncoderKind::gru,
                            models::DecoderKind decoder = models::DecoderKind::gru);
// The Transformer decoder's sizes on a recipe's config: 2 layers × 4 heads of the model size
// `embedding` (the encoder's, or the BiGRU recipe's embeddings, projected to from its states) and
// feed-forward ff_hidden. The config then needs score scaled_dot and style luong.
void transformer_decoder_recipe(models::ModelConfig &config, int embedding, int ff_hidden);
// A Transformer decoder's training steps, over either encoder: dates, zh and reverse pass 99.5 %
// held-out exact match well before (seed 1).
inline constexpr int transformer_decoder_steps = 3000;

// The descriptor of a generated task (throws std::invalid_argument for a name src/tasks does not
// generate); own pairs' is pairs_task() (task.hpp).
const Task &text_task(std::string_view name);

} // namespace apg::train
