// Decoding sessions and beam search of a location-attention model: each step's location features
// read the weights the step before it used, including weights a what-if pinned or masked, and the
// step record carries both the weights read and the features made from them.
#include "decode/record_schema.hpp"
#include "decode/session.hpp"

#include "support/tiny_config.hpp"

#include <doctest/doctest.h>

using namespace apg;
using namespace apg::models;
using namespace apg::decode;

namespace {

const std::vector<int> location_source{4, 5, 6, 4};

Seq2Seq location_model(AttentionStyle style) {
    ModelConfig c = testing::tiny_config(attention::ScoreKind::location, style, testing::session_sizes);
    c.location_filters = 3;
    c.location_width = 3;
    Seq2Seq model(c, 5);
    // Filters strong enough that where the last step looked moves the scores visibly.
    model.parameters().decoder.attn.filters *= 6.0f;
    model.parameters().decoder.attn.w_f *= 3.0f;
    return model;
}

// The step the model takes from `prev` with the given previous weights, outside any session.
DecoderStep direct_step(const Seq2Seq &model, const DecodeSession &session, const SessionStep &prev,
                        const Vec &previous) {
    attention::StepOptions options;
    options.previous = {previous.data(), static_cast<std::size_t>(previous.size())};
    return model.step(session.encoded(), prev.step.state, prev.token, options);
}

} // namespace

TEST_CASE("a location session's step reads the last step's weights, α_0 first, and records them") {
    for (AttentionStyle style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
        CAPTURE(name(style));
        const Seq2Seq model = location_model(style);
        DecodeSession session(model, location_source);
        for (int token : {3, 4, 5, 3}) session.force(token);
        const auto &steps = session.steps();
        CHECK(steps[0].step.attention.score.previous == attention::initial_weights(4));
        for (std::size_t i = 1; i < steps.size(); ++i) {
            CAPTURE(i);
            CHECK(steps[i].step.attention.score.previous == steps[i - 1].step.attention.weights);
            const DecoderStep again = direct_step(model, session, steps[i - 1], steps[i - 1].step.attention.weights);
            CHECK(again.attention.weights == steps[i].step.attention.weights);
        }
        const trace::StepRecord r = record::to_record(steps[2], 2, {});
        REQUIRE(r.has("previous_weights"));
        REQUIRE(r.has("location"));
        CHECK(r.get("previous_weights").shape() == std::vector<std::size_t>{4});
        CHECK(r.get("location").shape() == std::vector<std::size_t>{4, 3});
        for (int j = 0; j < 4; ++j) CHECK(r.get("previous_weights").data()[j] == steps[1].step.attention.weights[j]);
        CHECK(r.get("location").data()[5] == steps[2].step.attention.score.location(1, 2));

        // back() and stepping again gives the same step: it reads the same earlier weights.
        const Vec last = steps.back().step.attention.weights;
        session.back();
        session.force(3);
        CHECK(session.steps().back().step.attention.weights == last);
    }
}

TEST_CASE("a pinned or masked step's weights are what the next step's location features read") {
    const Seq2Seq model = location_model(AttentionStyle::bahdanau);
    DecodeSession plain(model, location_source), pinned(model, location_source), masked(model, location_source);
    for (DecodeSession *s : {&plain, &pinned, &masked}) s->force(3);
    plain.force(4);
    pinned.pin(3); // step 1 looks only at the last token
    pinned.force(4);
    masked.mask(1); // from step 1 on, token 1 gets no weight
    masked.force(4);
    plain.force(5);
    pinned.force(5);
    masked.force(5);

    Vec one_hot = Vec::Zero(4);
    one_hot[3] = 1;
    CHECK(pinned.steps()[1].step.attention.weights == one_hot);
    CHECK(pinned.steps()[2].step.attention.score.previous == one_hot);
    // The next step follows from the pinned weights (features and all), not from the softmax's.
    const DecoderStep from_pin = direct_step(model, pinned, pinned.steps()[1], one_hot);
    CHECK(from_pin.attention.weights == pinned.steps()[2].step.attention.weights);
    CHECK(pinned.steps()[2].step.attention.score.location != plain.steps()[2].step.attention.score.location);
    CHECK((pinned.steps()[2].step.attention.weights - plain.steps()[2].step.attention.weights).cwiseAbs().maxCoeff() >
          1e-4f);

    const Vec &masked_weights = masked.steps()[1].step.attention.weights;
    CHECK(masked_weights[1] == 0.0f);
    CHECK(masked.steps()[2].step.attention.score.previous == masked_weights);
    CHECK(masked.steps()[2].step.attention.score.previous != plain.steps()[2].step.attention.score.previous);
}

TEST_CASE("each beam's step reads its own parent's weights") {
    const Seq2Seq model = location_model(AttentionStyle::luong);
    const BeamResult result = beam_search(model, model.encode(location_source), 3);
    REQUIRE(result.nodes.size() > 3);
    int children = 0;
    for (const BeamNode &node : result.nodes) {
        CAPTURE(node.id);
        const Vec &expected =
            node.parent < 0 ? attention::initial_weights(4) : result.nodes[node.parent].step.attention.weights;
        CHECK(node.step.attention.score.previous == expected);
        children += node.parent >= 0 ? 1 : 0;
    }
    CHECK(children > 0);
}
