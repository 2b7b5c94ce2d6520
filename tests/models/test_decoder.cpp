#include "models/seq2seq.hpp"

#include "support/model_gradcheck.hpp"
#include "support/tiny_config.hpp"

#include <doctest/doctest.h>

#include <utility>

using namespace apg;
using namespace apg::models;
using namespace apg::nn;

namespace {

using testing::tiny_config;

using test::tiny_batch;

} // namespace

TEST_CASE("decoder and encoder gradients match finite differences for both styles and every score function") {
    for (AttentionStyle style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
        for (attention::ScoreKind score : attention::all_score_kinds) {
            CAPTURE(name(style));
            CAPTURE(attention::name(score));
            Seq2Seq model(tiny_config(score, style), 42);
            const BatchResult result = test::check_model_gradients(model, tiny_batch(), 12);
            CHECK(result.tokens == 6); // 3 + 1 target tokens + 2 end tokens
        }
    }
}

TEST_CASE("the step-by-step inference API reproduces the teacher-forced training pass") {
    for (AttentionStyle style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
        for (attention::ScoreKind score : attention::all_score_kinds) {
            CAPTURE(name(style));
            CAPTURE(attention::name(score));
            Seq2Seq model(tiny_config(score, style), 7);
            const Batch batch = tiny_batch();
            TrainingWorkspace ws;
            model.forward_backward(batch, nullptr, ws);
            // Sequence 0: source {4, 5, 3}, decoder inputs {start, 3, 6, 4}.
            const std::vector<int> source = {4, 5, 3};
            const EncoderOutput enc = model.encode(source);
            CHECK((enc.states - ws.encoder.outputs[0]).cwiseAbs().maxCoeff() < 1e-6f);
            Vec state = enc.initial_state;
            const int inputs[] = {1, 3, 6, 4};
            for (int i = 0; i < 4; ++i) {
                const DecoderStep s = model.step(enc, state, inputs[i]);
                const int r = i * batch.size; // row of (step i, sequence 0)
                CHECK((s.probs.transpose() - ws.decoder.probs.row(r)).cwiseAbs().maxCoeff() < 1e-5f);
                CHECK((s.attention.weights - ws.decoder.attention[r].weights).cwiseAbs().maxCoeff() < 1e-6f);
                CHECK(s.attention.weights.sum() == doctest::Approx(1.0f));
                CHECK(s.probs.sum() == doctest::Approx(1.0f));
                if (style == AttentionStyle::bahdanau)
                    CHECK(s.query == state);
                else
                    CHECK(s.query == s.state);
                state = s.state;
            }
        }
    }
}

TEST_CASE("a config with a dot-product score and mismatched sizes is rejected with the sizes named") {
    ModelConfig c = tiny_config(attention::ScoreKind::dot, AttentionStyle::luong);
    c.decoder_hidden = 5;
    CHECK_THROWS_WITH_AS(c.validate(), doctest::Contains("decoder_hidden (5) must equal the encoder state size (4"),
                         std::invalid_argument);
    c.score = attention::ScoreKind::additive; // additive and general project, so any sizes work
    CHECK_NOTHROW(c.validate());
}

TEST_CASE("encode rejects empty sources, sources longer than max_source_len and unknown ids") {
    Seq2Seq model(tiny_config(attention::ScoreKind::additive, AttentionStyle::bahdanau), 1);
    CHECK_THROWS_WITH_AS(model.encode(std::vector<int>{}), doctest::Contains("empty"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(model.encode(std::vector<int>{4, 4, 4, 4, 4, 4}), doctest::Contains("at most 5"),
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(model.encode(std::vector<int>{4, 60}), doctest::Contains("outside the source vocabulary"),
                         std::invalid_argument);
    const EncoderOutput enc = model.encode(std::vector<int>{4, 5});
    CHECK_THROWS_WITH_AS(model.step(enc, enc.initial_state, 99), doctest::Contains("outside the target vocabulary"),
                         std::invalid_argument);
}
