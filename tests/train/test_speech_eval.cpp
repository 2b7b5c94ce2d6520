#include "core/error.hpp"
#include "io/model.hpp"
#include "support/training.hpp"
#include "train/run.hpp"
#include "train/speech_task.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace apg;
using namespace apg::train;
namespace speech = apg::tasks::speech;

namespace {

Vec one_hot(int n, int at) {
    Vec v = Vec::Zero(n);
    v(at) = 1;
    return v;
}

using test::flat;

} // namespace

TEST_CASE("edit distance and the character error rate, by hand") {
    const std::vector<int> kitten = {10, 8, 19, 19, 4, 13}, sitting = {18, 8, 19, 19, 8, 13, 6};
    CHECK(edit_distance(kitten, sitting) == 3); // k→s, e→i, +g
    CHECK(edit_distance(sitting, kitten) == 3);
    CHECK(edit_distance(kitten, kitten) == 0);
    CHECK(edit_distance({}, kitten) == 6);
    CHECK(edit_distance(kitten, {}) == 6);
    SpeechScore score;
    score_transcription(kitten, sitting, {}, score); // 3 edits over 7 reference characters
    score_transcription({1, 2}, {1, 2}, {}, score);  // exact: 0 over 2
    CHECK(score.edits == 3);
    CHECK(score.reference_chars == 9);
    CHECK(score.cer == doctest::Approx(3.0 / 9.0));
    CHECK(score.exact_match == doctest::Approx(0.5));
    CHECK(score.utterances == 2);
}

TEST_CASE("monotonicity: the share of steps whose attention peak does not move back") {
    // peaks 0, 2, 1, 3, 3: back once (2 → 1) of four steps with a predecessor
    const std::vector<Vec> w = {one_hot(4, 0), one_hot(4, 2), one_hot(4, 1), one_hot(4, 3), one_hot(4, 3)};
    CHECK(monotonic_share(w) == doctest::Approx(0.75));
    CHECK(monotonic_share({one_hot(3, 2)}) == 1.0);
    SpeechScore score;
    score_transcription({}, {1}, w, score);
    score_transcription({}, {1}, {one_hot(4, 3), one_hot(4, 0)}, score); // back once of one
    CHECK(score.steps == 5);
    CHECK(score.monotonic_steps == 3);
    CHECK(score.monotonicity == doctest::Approx(0.6));
}

TEST_CASE("Run trains speech with the recipe of apg train --task speech and writes its record") {
    RunConfig c;
    c.task = "speech";
    c.seed = 2;
    c.steps = 3;
    c.batch = 4;
    c.eval_examples = 2;
    Run run(c);
    CHECK(run.model_config().encoder == models::EncoderKind::audio);
    CHECK(run.model_config().input_dim == speech::bands);
    const std::vector<float> before = flat(run.network());
    run.step(3);
    CHECK(run.done());
    CHECK(flat(run.network()) != before);
    const Evaluation e = run.evaluate();
    CHECK(e.examples == 2);
    const int frames = speech::synthesize("how much wood would a woodchuck chuck", 1).frames;
    CHECK(static_cast<int>(e.probe.source.size()) == (frames + 1) / 2);
    CHECK(e.probe.source[1] == "t2");
    CHECK(e.probe.weights.cols() == static_cast<Eigen::Index>(e.probe.source.size()));
    const io::Model model = io::Model::load(run.save());
    CHECK(model.config().encoder == models::EncoderKind::audio);
    CHECK(model.training()["encoder"] == "audio");
    CHECK(model.training().contains("heldout_cer"));
    CHECK(model.training().contains("monotonicity"));
    CHECK(model.training()["heldout_pairs"] == speech::default_heldout_utterances);
    CHECK(std::string(model.training()["command"]).find("--task speech") != std::string::npos);

    RunConfig sized = c;
    sized.hidden = 16;
    CHECK_THROWS_AS(Run{sized}, InputError);
    RunConfig probe = c;
    probe.probe = "how much woodpecker";
    try {
        Run{probe};
        FAIL("no error");
    } catch (const InputError &err) {
        CHECK(err.code() == ErrorCode::unknown_token);
        CHECK(std::string(err.text()).find("probe: ") == 0);
    }
}

TEST_CASE(
    "a speech run's first losses are the trainer module's (the same constants in tests/js/trainer-speech.test.mjs)") {
    // The data, the initialisation and the batch order all feed these: a generator that drew
    // differently in wasm would give other utterances and another loss, while the kernels'
    // rounding moves them by ~1e-6 at most.
    RunConfig c;
    c.task = "speech";
    c.seed = 1;
    c.steps = 2;
    c.batch = 4;
    Run run(c);
    const double first = run.step(1).loss, second = run.step(1).loss;
    CHECK(first == doctest::Approx(3.47661612).epsilon(1e-5));
    CHECK(second == doctest::Approx(3.32839051).epsilon(1e-5));
}
