// The command line's image commands (train, eval and decode of scenes models); main.cpp hands
// them the parsed arguments.
#pragma once

#include "io/model.hpp"

#include <cstdint>
#include <string>

namespace apg::cli {

struct SceneTraining {
    attention::ScoreKind score = attention::ScoreKind::additive;
    models::AttentionStyle style = models::AttentionStyle::bahdanau;
    std::uint64_t seed = 1;
    std::string out, command_line;
    int steps = 0, batch = 0, eval_every = 0; // 0: the recipe's
    float learning_rate = 0;                  // 0: the recipe's
    std::size_t train_scenes = 0;             // 0: the task's default
    bool quiet = false;
};

int train_scenes(const SceneTraining &request);
// Held-out exact match and the attention-hits-the-object share of a scenes model.
int eval_scenes(const io::Model &model, const std::string &path, std::size_t limit);
// input: a scene description ("small red circle at 10,12; ...") or a .ppm file (binary P6, any
// size up to scenes::max_upload_side, averaged down to the model's input). ppm_out, when not
// empty, receives the image the model read.
int decode_scene(const io::Model &model, const std::string &input, const std::string &ppm_out);

} // namespace apg::cli
