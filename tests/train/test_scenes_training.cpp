// The scenes task through the trainer: image batches, evaluation and the attention figure.
#include "train/scenes_task.hpp"

#include <doctest/doctest.h>

using namespace apg;
using namespace apg::train;
namespace scenes = apg::tasks::scenes;

TEST_CASE("a cell is in a box when its centre pixel is") {
    const scenes::Box box{8, 4, 14, 10};       // 8 × 8 grid of 4-pixel cells: cell (r, c) centre (4c + 1.5, 4r + 1.5)
    CHECK(cell_in_box(1 * 8 + 2, 8, 32, box)); // centre (9.5, 5.5)
    CHECK(cell_in_box(2 * 8 + 3, 8, 32, box)); // centre (13.5, 9.5)
    CHECK_FALSE(cell_in_box(0 * 8 + 2, 8, 32, box)); // centre y 1.5 < 4
    CHECK_FALSE(cell_in_box(1 * 8 + 1, 8, 32, box)); // centre x 5.5 < 8
    CHECK_FALSE(cell_in_box(1 * 8 + 4, 8, 32, box)); // centre x 17.5 > 14
    Vec w = Vec::Zero(64);
    w(17) = 0.5f;
    w(40) = 0.25f;
    CHECK(peak_cell(w) == 17);
}

TEST_CASE("the trainer learns from image batches: the loss falls and evaluation runs on held-out scenes") {
    DataRequest request;
    request.seed = 2;
    request.train_count = 256;
    request.heldout_count = 16;
    const std::unique_ptr<Dataset> task = scenes_task().prepare(request);
    CHECK(task->train.images.size() == 256);
    CHECK(task->train.sources.empty());
    CHECK(task->train.size() == 256);
    CHECK(task->heldout.size() == 16);
    models::ModelConfig config = scenes_config(attention::ScoreKind::additive, models::AttentionStyle::bahdanau);
    config.conv_channels = 4;
    config.encoder_hidden = 6;
    config.decoder_hidden = 8;
    config.attention_dim = 8;
    models::Seq2Seq model(config, 3);
    TrainOptions options = scenes_options();
    options.steps = 150;
    options.batch_size = 16;
    Trainer trainer(model, task->train, task->heldout, special_tokens, options);
    const double first = trainer.step().loss;
    double last = first;
    while (!trainer.done()) last = trainer.step().loss;
    INFO("loss " << first << " -> " << last);
    CHECK(last < 0.6 * first);
    // The held-out scenes as samples: the stream without training scenes gives the same ones.
    const std::vector<scenes::Sample> heldout = scenes::make_scenes(2, 0, 16).heldout;
    const ScenesScore score = evaluate_scenes(model, heldout, task->target_vocab);
    CHECK(score.scenes == 16);
    int words = 0;
    for (const auto &s : heldout)
        for (const auto &t : s.caption.tokens)
            words += t != "a" && t != "small" && t != "large" && t != "above" && t != "to" && t != "the" &&
                     t != "left" && t != "of";
    CHECK(score.words == words); // one colour and one shape word per object
    CHECK(score.attention_hits >= 0.0);
    CHECK(score.attention_hits <= 1.0);
    CHECK(trainer.evaluate() == doctest::Approx(score.exact_match)); // the trainer's check agrees
}
