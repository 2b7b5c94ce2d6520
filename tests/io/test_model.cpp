#include "core/error.hpp"
#include "core/limits.hpp"
#include "io/checkpoint.hpp"
#include "io/model.hpp"

#include "support/letters.hpp"
#include "support/tiny_config.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <map>

using namespace apg;
using namespace apg::models;
using namespace apg::io;

namespace {

using test::letters;

Model tiny_model(attention::ScoreKind score, AttentionStyle style) {
    const ModelConfig c = testing::tiny_config(score, style, {.source_vocab = 7, .max_target_len = 6});
    return Model(Seq2Seq(c, 9), letters(), letters(), {{"seed", 9}});
}

// Saves `model`, edits the checkpoint with `edit`, and returns the bytes.
template <class F> std::vector<std::uint8_t> edited(const Model &model, F edit) {
    Checkpoint c = load_safetensors(model.save());
    edit(c);
    return save_safetensors(c);
}

} // namespace

TEST_CASE("a checkpoint round trip gives identical outputs, weights and training record") {
    for (AttentionStyle style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
        for (attention::ScoreKind score : attention::all_score_kinds) {
            CAPTURE(attention::name(score));
            const Model model = tiny_model(score, style);
            const auto bytes = model.save();
            const Model loaded = Model::load(bytes);
            CHECK(loaded.config().to_json() == model.config().to_json());
            CHECK(loaded.source_vocab() == model.source_vocab());
            CHECK(loaded.training()["seed"] == 9);
            const Translation a = model.translate("abca"), b = loaded.translate("abca");
            CHECK(a.output_tokens == b.output_tokens);
            REQUIRE(a.weights.rows() == b.weights.rows());
            CHECK(a.weights == b.weights); // same floats in, same arithmetic: bit-identical
            CHECK(loaded.save() == bytes); // and saving again gives the same bytes
        }
    }
}

TEST_CASE("translate returns one alignment row per step, each a distribution over the source") {
    const Model model = tiny_model(attention::ScoreKind::additive, AttentionStyle::bahdanau);
    const Translation t = model.translate("cab");
    CHECK(t.source_tokens == std::vector<std::string>{"c", "a", "b"});
    CHECK(t.weights.cols() == 3);
    CHECK(t.weights.rows() == static_cast<Eigen::Index>(t.steps.size()));
    CHECK(t.weights.rows() >= 1);
    CHECK(t.weights.rows() <= model.config().max_target_len + 1);
    for (Eigen::Index i = 0; i < t.weights.rows(); ++i) CHECK(t.weights.row(i).sum() == doctest::Approx(1.0f));
}

TEST_CASE("the loader rejects a missing, misshaped, extra or non-finite tensor, naming it") {
    const Model model = tiny_model(attention::ScoreKind::additive, AttentionStyle::luong);
    auto rejects = [](const std::vector<std::uint8_t> &bytes, const std::string &words) {
        CHECK_THROWS_WITH_AS(Model::load(bytes), doctest::Contains(words.c_str()), std::runtime_error);
    };
    rejects(edited(model, [](Checkpoint &c) { c.tensors.erase("decoder.attn.v"); }),
            "missing tensor \"decoder.attn.v\"");
    rejects(edited(model,
                   [](Checkpoint &c) {
                       auto &t = c.tensors["encoder.bwd.w_hh"];
                       t.shape = {3, 4};
                       t.data.resize(12);
                   }),
            "tensor \"encoder.bwd.w_hh\" has shape [3, 4], the config needs [6, 2]");
    rejects(edited(model,
                   [](Checkpoint &c) {
                       c.tensors["decoder.extra"] = NamedTensor{{1}, {0.5f}};
                   }),
            "unexpected tensor \"decoder.extra\"");
    rejects(edited(model, [](Checkpoint &c) { c.tensors.erase("decoder.combine.w"); }), "decoder.combine.w");
}

TEST_CASE("the loader rejects a bad config or vocabulary in the metadata") {
    const Model model = tiny_model(attention::ScoreKind::dot, AttentionStyle::bahdanau);
    auto with_config = [&](const std::string &key, const nlohmann::json &value) {
        return edited(model, [&](Checkpoint &c) {
            auto j = nlohmann::json::parse(c.metadata["config"]);
            j[key] = value;
            c.metadata["config"] = j.dump();
        });
    };
    CHECK_THROWS_WITH_AS(Model::load(with_config("decoder_hidden", 6)), doctest::Contains("decoder_hidden (6)"),
                         std::runtime_error);
    CHECK_THROWS_WITH_AS(Model::load(with_config("score", "sharp")), doctest::Contains("sharp"), std::runtime_error);
    CHECK_THROWS_WITH_AS(Model::load(with_config("embedding", "big")), doctest::Contains("\"embedding\""),
                         std::runtime_error);
    CHECK_THROWS_WITH_AS(Model::load(with_config("source_vocab", 8)), doctest::Contains("vocabularies"),
                         std::runtime_error);
    CHECK_THROWS_WITH_AS(Model::load(edited(model, [](Checkpoint &c) { c.metadata.erase("target_vocab"); })),
                         doctest::Contains("target_vocab"), std::runtime_error);
    CHECK_THROWS_WITH_AS(Model::load(edited(model, [](Checkpoint &c) { c.metadata["config"] = "{not json"; })),
                         doctest::Contains("not valid JSON"), std::runtime_error);
    // A truncated file never gets as far as the model: the container check names the problem.
    auto bytes = model.save();
    bytes.resize(bytes.size() - 5);
    CHECK_THROWS_WITH_AS(Model::load(bytes), doctest::Contains("checkpoint:"), std::runtime_error);
}

TEST_CASE("bad input gives a clear error: unknown tokens, empty input, input longer than the model allows") {
    const Model model = tiny_model(attention::ScoreKind::general, AttentionStyle::bahdanau);
    CHECK_THROWS_AS(model.translate(""), std::invalid_argument);
    CHECK_THROWS_WITH_AS(model.translate("abz"), doctest::Contains("\"z\""), std::invalid_argument);
    CHECK_THROWS_WITH_AS(model.translate("abcabc"),
                         doctest::Contains("input has 6 tokens, this model accepts at most 5"), std::invalid_argument);
    CHECK_NOTHROW(model.translate("abcab"));
}

TEST_CASE("over-long input is a coded too_long error with the length and the limit") {
    const Model model = tiny_model(attention::ScoreKind::general, AttentionStyle::bahdanau);
    auto details_of = [&](const std::string &text) {
        try {
            model.encode_source(text);
        } catch (const apg::InputError &e) {
            CHECK(e.code() == apg::ErrorCode::too_long);
            std::map<std::string, apg::DetailValue> out(e.details().begin(), e.details().end());
            return out;
        }
        FAIL("accepted");
        return std::map<std::string, apg::DetailValue>{};
    };
    auto tokens = details_of("abcabc");
    CHECK(std::get<std::int64_t>(tokens["length"]) == 6);
    CHECK(std::get<std::int64_t>(tokens["limit"]) == 5);
    CHECK(std::get<std::string>(tokens["unit"]) == "tokens");
    // Past the engine's character limit the text is refused before it is tokenized: a megabyte
    // of unknown characters is one short error, not a search.
    auto chars = details_of(std::string(1000000, 'z'));
    CHECK(std::get<std::int64_t>(chars["length"]) == 1000000);
    CHECK(std::get<std::int64_t>(chars["limit"]) == apg::limits::max_input_chars);
    CHECK(std::get<std::string>(chars["unit"]) == "characters");
    CHECK_THROWS_WITH_AS(model.encode_source(std::string(apg::limits::max_input_chars, 'a')),
                         doctest::Contains("tokens"), apg::InputError); // at the limit: tokenized
}
