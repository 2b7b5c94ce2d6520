#include "core/error.hpp"
#include "decode/session.hpp"
#include "support/training.hpp"
#include "train/run.hpp"
#include "train/scenes_task.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

using namespace apg;
using namespace apg::train;
namespace scenes = apg::tasks::scenes;

namespace {

using test::kTokens;

using test::detail_name;
using test::flat;

RunConfig small_scenes() {
    RunConfig c;
    c.task = "scenes";
    c.score = attention::ScoreKind::general;
    c.style = models::AttentionStyle::luong;
    c.seed = 3;
    c.steps = 4;
    c.batch = 8;
    c.eval_examples = 5;
    return c;
}

// The caption the model gives an image: greedy ids up to the end token, as words.
std::string caption_of(const models::Seq2Seq &net, const io::Vocabulary &target, const std::vector<std::uint8_t> &px) {
    std::vector<int> ids;
    for (const auto &s : net.greedy(net.encode_image(px), kTokens.start, kTokens.end)) {
        const int id = peak_cell(s.probs);
        if (id == kTokens.end) break;
        ids.push_back(id);
    }
    return target.join(ids);
}

} // namespace

TEST_CASE("Run trains scenes with the recipe of apg train --task scenes, step for step like the Trainer") {
    DataRequest request;
    request.seed = 3;
    const std::unique_ptr<Dataset> task = scenes_task().prepare(request);
    models::Seq2Seq reference(scenes_config(attention::ScoreKind::general, models::AttentionStyle::luong), 3);
    TrainOptions options = scenes_options();
    options.seed = 3;
    options.steps = 4;
    options.batch_size = 8;
    Trainer trainer(reference, task->train, task->heldout, kTokens, options);

    Run run(small_scenes());
    CHECK(run.model_config().encoder == models::EncoderKind::conv);
    CHECK(run.model_config().max_source_len == 64);
    CHECK(run.data().train.images == task->train.images);
    CHECK(run.data().heldout.targets == task->heldout.targets);
    CHECK(flat(run.network()) == flat(reference));
    for (int k = 0; k < 2; ++k) {
        const Progress want = trainer.step();
        const RunProgress got = run.step(1);
        CHECK(got.loss == want.loss);
        CHECK(got.grad_norm == want.grad_norm);
    }
    CHECK(flat(run.network()) == flat(reference));
    const RunProgress last = run.step(5); // only 2 are left
    CHECK(last.step == 4);
    CHECK(last.done);
}

TEST_CASE("Run's scenes evaluation probes a fixed held-out scene: caption words x 64 cells") {
    Run run(small_scenes());
    run.step(4);
    const auto infos = task_infos();
    REQUIRE(infos.size() == 5);
    const TaskInfo &info = infos[3];
    REQUIRE(info.name == "scenes");
    CHECK(infos[4].name == "speech");
    CHECK(info.steps == scenes_options().steps);
    CHECK(info.batch == 32);
    const scenes::Scene scene = scenes::parse_description(info.probe);
    CHECK(scenes::heldout_composition(scene));
    CHECK(info.probe == scenes::describe(scenes::make_scenes(1, 0, 1).heldout.front().scene));

    const Evaluation e = run.evaluate();
    CHECK(e.step == 4);
    CHECK(e.examples == 5);
    CHECK(e.heldout_exact_match == exact_match(run.network(), run.data().heldout, kTokens, 5));
    REQUIRE(e.probe.source.size() == 64);
    CHECK(e.probe.source[0] == "a1");
    CHECK(e.probe.source[9] == "b2");
    CHECK(e.probe.source[63] == "h8");
    REQUIRE(!e.probe.output.empty());
    CHECK(e.probe.weights.rows() == static_cast<Eigen::Index>(e.probe.output.size()));
    CHECK(e.probe.weights.cols() == 64);
    // The rows are the decoder's own attention over the probe picture, step by step.
    const models::Seq2Seq &net = run.network();
    const models::EncoderOutput encoded = net.encode_image(scenes::render(scene));
    const auto steps = net.greedy(encoded, kTokens.start, kTokens.end);
    REQUIRE(steps.size() == e.probe.output.size());
    for (std::size_t i = 0; i < steps.size(); ++i) {
        CHECK(e.probe.output[i] == run.data().target_vocab.token(peak_cell(steps[i].probs)));
        CHECK((e.probe.weights.row(static_cast<Eigen::Index>(i)).transpose() - steps[i].attention.weights)
                  .cwiseAbs()
                  .maxCoeff() == 0.0f);
        CHECK(std::abs(e.probe.weights.row(static_cast<Eigen::Index>(i)).sum() - 1.0f) < 1e-5f);
    }
}

TEST_CASE("A trained scenes Run saves what the io layer loads as the same captioner, with the CLI's record") {
    Run run(small_scenes());
    run.step(4);
    const std::vector<std::uint8_t> bytes = run.save();
    const io::Model loaded = io::Model::load(bytes);
    CHECK(loaded.config().encoder == models::EncoderKind::conv);
    CHECK(loaded.config().task == "scenes");
    CHECK(flat(loaded.network()) == flat(run.network()));
    const scenes::ScenesData data = scenes::make_scenes(3, 0, 3);
    for (const auto &s : data.heldout)
        CHECK(caption_of(loaded.network(), loaded.target_vocab(), s.pixels) ==
              caption_of(run.network(), run.data().target_vocab, s.pixels));
    const auto &record = loaded.training();
    CHECK(record["command"] == "apg train --task scenes --score general --style luong --seed 3 --out "
                               "scenes.safetensors --steps 4 --batch 8 --lr 0.003000000026");
    CHECK(record["encoder"] == "conv");
    CHECK(record["train_pairs"] == scenes::default_train_scenes);
    CHECK(record["heldout_pairs"] == scenes::default_heldout_scenes);
    const ScenesScore score = evaluate_scenes(
        run.network(), scenes::make_scenes(3, 0, scenes::default_heldout_scenes).heldout, run.data().target_vocab);
    CHECK(record["heldout_exact_match"].get<double>() == score.exact_match);
    CHECK(record["attention_hits"].get<double>() == score.attention_hits);
    CHECK(!record.contains("steps_done"));
}

TEST_CASE("A scenes Run refuses the sizes and encoders its recipe fixes, and a probe that is not a scene") {
    const auto name_of = [](RunConfig c) {
        try {
            Run run(std::move(c));
        } catch (const InputError &e) {
            CHECK(e.code() == ErrorCode::bad_argument);
            return detail_name(e);
        }
        return std::string("no error");
    };
    RunConfig c = small_scenes();
    c.embed = 16;
    CHECK(name_of(c) == "embed");
    c = small_scenes();
    c.hidden = 62;
    CHECK(name_of(c) == "hidden");
    c = small_scenes();
    c.encoder = models::EncoderKind::transformer;
    CHECK(name_of(c) == "encoder");
    c = small_scenes();
    c.activation = nn::Activation::gelu;
    CHECK(name_of(c) == "activation");
    c = small_scenes();
    c.probe = "a purple hexagon";
    CHECK(name_of(c) == "probe");
}
