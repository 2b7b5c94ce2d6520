// The image task: scenes (tasks/scenes.hpp) captioned by a model with the conv encoder. Its
// descriptor (task.hpp: its data are images and caption ids, its source vocabulary the specials
// only, its target the caption words), the recipe of the shipped scene models, and its evaluation:
// held-out exact match, and how often a colour or shape word's attention peak lies inside the
// object it names.
#pragma once

#include "io/vocab.hpp"
#include "models/seq2seq.hpp"
#include "tasks/scenes.hpp"
#include "train/task.hpp"
#include "train/trainer.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace apg::train {

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
// a peak cell is inside a box when the cell's centre pixel is. images: the samples' pixels when
// they do not hold them (empty: they do).
ScenesScore evaluate_scenes(const models::Seq2Seq &model, std::span<const tasks::scenes::Sample> samples,
                            const io::Vocabulary &target_vocab, std::size_t limit = 0,
                            std::span<const std::vector<std::uint8_t>> images = {});

// The grid cell a weight vector peaks at, and whether its centre lies in the box.
int peak_cell(const Vec &weights);
bool cell_in_box(int cell, int grid, int image_size, const tasks::scenes::Box &box);

const Task &scenes_task();

} // namespace apg::train
