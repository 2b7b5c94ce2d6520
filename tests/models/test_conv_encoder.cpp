#include "core/error.hpp"
#include "io/model.hpp"
#include "models/conv_encoder.hpp"
#include "models/seq2seq.hpp"

#include "support/tiny_config.hpp"

#include "support/model_gradcheck.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace apg;
using namespace apg::models;

namespace {

// 8 × 8 pixels → a 2 × 2 grid (L = 4), conv channels 2, features 3 (dh = 5 = decoder_hidden).
ModelConfig tiny_conv(attention::ScoreKind score, AttentionStyle style) {
    ModelConfig c = testing::tiny_config(score, style,
                                         {.source_vocab = 4,
                                          .target_vocab = 7,
                                          .embedding = 3,
                                          .encoder_hidden = 3,
                                          .decoder_hidden = 5,
                                          .attention_dim = 3,
                                          .max_source_len = 4,
                                          .max_target_len = 4});
    c.encoder = EncoderKind::conv;
    c.bidirectional = false;
    c.image_size = 8;
    c.conv_channels = 2;
    return c;
}

std::vector<std::uint8_t> random_image(core::Rng &rng, int side) {
    std::vector<std::uint8_t> px(static_cast<std::size_t>(side * side * 3));
    for (auto &p : px) p = static_cast<std::uint8_t>(rng.below(256));
    return px;
}

// The composed budget at a step of 1e-3: a nudge of a first-layer weight moves all 64
// pre-activations of its channel, and at 1e-2 one of them crossing a ReLU kink or overtaking a
// max-pool neighbour is likely; at 1e-3 it is ten times rarer (support/gradcheck.hpp).
BatchResult check_conv_gradients(Seq2Seq &model, const Batch &batch, std::size_t max_checks) {
    return test::check_model_gradients(model, batch, test::GradCheck::composed(max_checks).at_step(1e-3f));
}

} // namespace

TEST_CASE("the conv encoder's states: L cells of features and the cell's position") {
    const ModelConfig c = tiny_conv(attention::ScoreKind::additive, AttentionStyle::bahdanau);
    CHECK(c.encoder_state() == 5);
    const Seq2Seq model(c, 3);
    core::Rng rng(4);
    const auto image = random_image(rng, 8);
    const EncoderOutput out = model.encode_image(image);
    REQUIRE(out.states.rows() == 4);
    REQUIRE(out.states.cols() == 5);
    CHECK(out.ids.empty());
    // position code: rows (−1, −1), (−1, 1), (1, −1), (1, 1)
    CHECK(out.states(0, 3) == -1.0f);
    CHECK(out.states(0, 4) == -1.0f);
    CHECK(out.states(1, 3) == -1.0f);
    CHECK(out.states(1, 4) == 1.0f);
    CHECK(out.states(2, 3) == 1.0f);
    CHECK(out.states(3, 4) == 1.0f);
    CHECK(grid_positions(8)(9, 0) == doctest::Approx(-1.0f + 2.0f / 7));
    // the same image in a batch of two gives the same states for each
    ConvEncoderCache cache;
    std::vector<Mat> states;
    std::vector<std::uint8_t> two = image;
    two.insert(two.end(), image.begin(), image.end());
    conv_encoder_forward(model.parameters().conv, conv_config(c), two, 2, cache, states);
    CHECK((states[0] - out.states).cwiseAbs().maxCoeff() < 1e-6f);
    CHECK((states[1] - out.states).cwiseAbs().maxCoeff() < 1e-6f);
}

TEST_CASE("the conv encoder rejects pixels of the wrong size and a text model rejects images") {
    const Seq2Seq model(tiny_conv(attention::ScoreKind::additive, AttentionStyle::bahdanau), 3);
    std::vector<std::uint8_t> short_image(8 * 8 * 3 - 1);
    CHECK_THROWS_WITH_AS(model.encode_image(short_image),
                         "conv encoder: 191 bytes for 1 images of 8x8 RGB pixels (192 bytes)", InputError);
    CHECK_THROWS_WITH_AS(model.encode(std::vector<int>{1}), "encode: this model reads images, not text", InputError);
    const Seq2Seq text(testing::tiny_config(attention::ScoreKind::additive, AttentionStyle::bahdanau), 3);
    CHECK_THROWS_AS(text.encode_image(std::vector<std::uint8_t>(192)), InputError);
}

TEST_CASE("conv captioning models' gradients match finite differences for every score function") {
    for (auto score : attention::all_score_kinds)
        for (auto style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
            INFO(attention::name(score) << " " << name(style));
            Seq2Seq model(tiny_conv(score, style), 11);
            core::Rng rng(12);
            std::vector<std::vector<std::uint8_t>> images = {random_image(rng, 8), random_image(rng, 8)};
            std::vector<std::span<const std::uint8_t>> spans(images.begin(), images.end());
            const Batch batch = make_image_batch(spans, {{4, 5, 6}, {6}}, 0, 1, 2);
            CHECK(batch.images.size() == 2 * 192);
            const BatchResult r = check_conv_gradients(model, batch, 12);
            CHECK(r.tokens == 6);
        }
}

TEST_CASE("a conv model's config and checkpoint round-trip") {
    const ModelConfig c = tiny_conv(attention::ScoreKind::general, AttentionStyle::bahdanau);
    const nlohmann::json j = c.to_json();
    CHECK(j["encoder"] == "conv");
    CHECK(j["image_size"] == 8);
    CHECK(j["conv_channels"] == 2);
    const ModelConfig back = ModelConfig::from_json(j);
    CHECK(back.encoder == EncoderKind::conv);
    CHECK(back.image_size == 8);
    CHECK(back.conv_channels == 2);
    nlohmann::json odd = j;
    odd["image_size"] = 10;
    CHECK_THROWS_WITH_AS(ModelConfig::from_json(odd),
                         "model config: image_size must be a multiple of 4 (two 2x2 poolings)", InputError);
    nlohmann::json wide = j;
    wide["image_size"] = 256;
    wide["conv_channels"] = 65; // 256² × 65 > 2^22 floats of activations
    CHECK_THROWS_WITH_AS(ModelConfig::from_json(wide),
                         "model config: image_size² x conv_channels is 4259840, more than the limit of 4194304",
                         InputError);
    // Within the activations' bound, a 256-pixel picture's grid (64 × 64 cells) is still more
    // source positions than a model may read.
    wide["conv_channels"] = 64;
    wide["max_source_len"] = 64 * 64;
    CHECK_THROWS_WITH_AS(ModelConfig::from_json(wide), "model config: max_source_len must be from 1 to 512, got 4096",
                         InputError);
    wide["image_size"] = 88; // 22 × 22 cells
    wide["max_source_len"] = 22 * 22;
    CHECK(ModelConfig::from_json(wide).conv_channels == 64);
    const auto names = tensor_shapes(c);
    CHECK(names[0].name == "encoder.conv1.w");
    CHECK(names[0].shape == std::vector<std::int64_t>{2, 27});
    CHECK(names[4].name == "encoder.conv3.w");
    CHECK(names[4].shape == std::vector<std::int64_t>{3, 18});

    io::Model model(Seq2Seq(c, 5), io::Vocabulary::build({}, io::Tokenizer::words),
                    io::Vocabulary::build({{"x", "y", "z"}}, io::Tokenizer::words));
    const io::Model loaded = io::Model::load(model.save());
    CHECK_THROWS_WITH_AS(loaded.translate("x y"), "this model reads images, not text (task test)", InputError);
    core::Rng rng(6);
    const auto image = random_image(rng, 8);
    const auto a = model.network().encode_image(image), b = loaded.network().encode_image(image);
    CHECK(a.states == b.states);
    CHECK(a.initial_state == b.initial_state);
}
