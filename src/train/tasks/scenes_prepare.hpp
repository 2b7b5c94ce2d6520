// From the scenes task to what the trainer eats (images and caption ids), the recipe of the
// shipped scene models, and their evaluation: held-out exact match and how often a colour or
// shape word's attention peak lies inside the object it names.
#pragma once

#include "io/vocab.hpp"
#include "models/seq2seq.hpp"
#include "train/tasks/scenes.hpp"
#include "train/trainer.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace apg::train {

struct PreparedScenes {
    scenes::ScenesData data;
    io::Vocabulary source_vocab; // the specials only: the source is an image
    io::Vocabulary target_vocab; // the caption words
    EncodedPairs train, heldout; // images and caption ids
};

PreparedScenes prepare_scenes(std::uint64_t seed, std::size_t train_count = scenes::default_train_scenes,
                              std::size_t heldout_count = scenes::default_heldout_scenes);
// The vocabularies alone (what a scenes model holds), the same for every seed.
io::Vocabulary scenes_source_vocabulary();
io::Vocabulary scenes_target_vocabulary();

// Conv 3→16→16→62 (+ 2 position columns: dh = 64) over an 8 × 8 grid, decoder GRU 64 (= dh, so
// every score function fits), additive attention 32, embeddings 16.
models::ModelConfig scenes_config(attention::ScoreKind score, models::AttentionStyle style);
TrainOptions scenes_options();

struct ScenesScore {
    double exact_match = 0;    // greedy caption == the reference
    double attention_hits = 0; // share of colour and shape words whose weight peak is inside their object's box
    int scenes = 0, words = 0; // evaluated, and colour / shape words counted
};

// The first `limit` held-out samples (all if 0). The attention figure is taken teacher-forced
// (the reference caption's words as the previous tokens), so every word of every scene counts;
// a peak cell is inside a box when the cell's centre pixel is.
ScenesScore evaluate_scenes(const models::Seq2Seq &model, const std::vector<scenes::Sample> &samples,
                            const io::Vocabulary &target_vocab, std::size_t limit = 0);

// The training record of a scenes model (what `apg train --task scenes` and train::Run write):
// the options, the data's sizes and the held-out score.
nlohmann::json scenes_record(const std::string &command, std::uint64_t seed, const TrainOptions &options,
                             std::size_t train_pairs, std::size_t heldout_pairs, const ScenesScore &score);

// The grid cell a weight vector peaks at, and whether its centre lies in the box.
int peak_cell(const Vec &weights);
bool cell_in_box(int cell, int grid, int image_size, const scenes::Box &box);

} // namespace apg::train
