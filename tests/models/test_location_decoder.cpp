// The decoder with location-aware attention: it carries the previous step's weights forward (the
// step API, greedy, the teacher-forced pass agree), backpropagates into them through time (whole
// sequence's loss against finite differences, both styles), and its config's filter count and
// width are stored, read back and held to their bounds with coded errors.
#include "models/seq2seq.hpp"

#include "core/error.hpp"
#include "core/limits.hpp"
#include "support/model_gradcheck.hpp"
#include "support/tiny_config.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace apg;
using namespace apg::models;

namespace {

using attention::ScoreKind;

ModelConfig location_config(AttentionStyle style, int filters = 2, int width = 3) {
    ModelConfig c = testing::tiny_config(ScoreKind::location, style);
    c.location_filters = filters;
    c.location_width = width;
    return c;
}

using test::tiny_batch;

// The filters scaled up so the location term matters as much as the content term.
void sharpen(Seq2Seq &model) {
    auto &attn = model.parameters().decoder.attn;
    attn.filters *= 4.0f;
    attn.w_f *= 3.0f;
}

} // namespace

TEST_CASE("location decoder gradients, through the weights carried from step to step, match finite differences") {
    for (AttentionStyle style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
        for (int width : {1, 3, 7}) {
            CAPTURE(name(style));
            CAPTURE(width);
            Seq2Seq model(location_config(style, 2, width), 42);
            sharpen(model);
            const BatchResult result = test::check_model_gradients(model, tiny_batch(), 12);
            CHECK(result.tokens == 6);
        }
    }
}

TEST_CASE("the step API with the previous step's weights reproduces the teacher-forced pass; greedy carries them") {
    for (AttentionStyle style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
        CAPTURE(name(style));
        Seq2Seq model(location_config(style), 7);
        sharpen(model);
        const Batch batch = tiny_batch();
        TrainingWorkspace ws;
        model.forward_backward(batch, nullptr, ws);
        const EncoderOutput enc = model.encode(std::vector<int>{4, 5, 3});
        Vec state = enc.initial_state;
        const int inputs[] = {1, 3, 6, 4};
        Vec previous;
        for (int i = 0; i < 4; ++i) {
            CAPTURE(i);
            attention::StepOptions options;
            options.previous = test::span_of(previous); // empty at the first step: α_0
            const DecoderStep s = model.step(enc, state, inputs[i], options);
            const int r = i * batch.size;
            CHECK((s.probs.transpose() - ws.decoder.probs.row(r)).cwiseAbs().maxCoeff() < 1e-5f);
            CHECK((s.attention.weights - ws.decoder.attention[r].weights).cwiseAbs().maxCoeff() < 1e-6f);
            CHECK(s.attention.score.previous == (i == 0 ? attention::initial_weights(3) : previous));
            // Stepping from α_0 at every step would be another decoder: it differs past step 0.
            if (i > 0) {
                const DecoderStep stale = model.step(enc, state, inputs[i]);
                CHECK((stale.attention.weights - s.attention.weights).cwiseAbs().maxCoeff() > 1e-4f);
            }
            previous = s.attention.weights;
            state = s.state;
        }
        // greedy feeds each step the last one's weights too.
        const std::vector<DecoderStep> steps = model.greedy(enc, 1, 2, 4);
        for (std::size_t i = 1; i < steps.size(); ++i)
            CHECK(steps[i].attention.score.previous == steps[i - 1].attention.weights);
    }
}

TEST_CASE("a location config stores its filters and width, lists their tensors and refuses absurd values") {
    const ModelConfig c = location_config(AttentionStyle::bahdanau, 5, 9);
    const nlohmann::json j = c.to_json();
    CHECK(j.at("location_filters") == 5);
    CHECK(j.at("location_width") == 9);
    const ModelConfig back = ModelConfig::from_json(j);
    CHECK(back.score == ScoreKind::location);
    CHECK(back.location_filters == 5);
    CHECK(back.location_width == 9);
    // Other kinds' metadata is what it always was.
    CHECK_FALSE(
        testing::tiny_config(ScoreKind::additive, AttentionStyle::bahdanau).to_json().contains("location_width"));

    bool filters = false, w_f = false, b = false;
    for (const TensorShape &t : tensor_shapes(c)) {
        if (t.name == "decoder.attn.filters") filters = t.shape == std::vector<std::int64_t>{5, 9};
        if (t.name == "decoder.attn.w_f") w_f = t.shape == std::vector<std::int64_t>{3, 5}; // da × kf
        if (t.name == "decoder.attn.b") b = t.shape == std::vector<std::int64_t>{3};
    }
    CHECK(filters);
    CHECK(w_f);
    CHECK(b);

    auto refused = [](ModelConfig bad, const char *field, const char *part) {
        CAPTURE(field);
        try {
            bad.validate();
            FAIL("no error");
        } catch (const InputError &e) {
            CHECK(e.code() == ErrorCode::bad_argument);
            CHECK(std::string(e.what()).find(part) != std::string::npos);
            bool named = false;
            for (const auto &[key, value] : e.details())
                if (key == "field") named = std::get<std::string>(value) == field;
            CHECK(named);
        }
    };
    ModelConfig bad = c;
    bad.location_filters = 0;
    refused(bad, "location_filters", "positive");
    bad.location_filters = limits::max_location_filters + 1;
    refused(bad, "location_filters", "from 1 to 64");
    bad = c;
    bad.location_width = 4;
    refused(bad, "location_width", "must be odd");
    bad.location_width = 1 << 30;
    refused(bad, "location_width", "from 1 to 255");
    bad.location_width = -3;
    refused(bad, "location_width", "positive");

    // A checkpoint's config without the fields, or with a float, is refused by name.
    nlohmann::json missing = j;
    missing.erase("location_width");
    try {
        ModelConfig::from_json(missing);
        FAIL("no error");
    } catch (const InputError &e) {
        CHECK(std::string(e.what()).find("missing field \"location_width\"") != std::string::npos);
    }
    nlohmann::json fractional = j;
    fractional["location_filters"] = 2.5;
    CHECK_THROWS_AS(ModelConfig::from_json(fractional), InputError);
}

TEST_CASE("a location model saves its own parameters: the registry's gradient tensors have the same names") {
    const ModelConfig c = location_config(AttentionStyle::luong, 3, 5);
    Seq2Seq model(c, 9);
    Parameters grads = zeros_like(model.parameters(), c);
    const auto a = model.tensors();
    const auto g = tensors(grads, c);
    REQUIRE(a.size() == g.size());
    int location_tensors = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        CHECK(a[i].name == g[i].name);
        CHECK(a[i].shape == g[i].shape);
        if (a[i].name.find("attn.") != std::string::npos) ++location_tensors;
    }
    CHECK(location_tensors == 6); // w_q, w_k, v, filters, w_f, b
}
