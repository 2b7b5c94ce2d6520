// From a generated task to what the trainer eats: vocabularies and token-id pairs. Also the
// per-task recipes (model sizes and training options) the CLI and the shipped models use.
#pragma once

#include "io/vocab.hpp"
#include "models/config.hpp"
#include "train/tasks/encode.hpp"
#include "train/tasks/task.hpp"
#include "train/trainer.hpp"

#include <cstdint>
#include <string_view>

namespace apg::train {

struct PreparedTask {
    TaskData data;
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

} // namespace apg::train
