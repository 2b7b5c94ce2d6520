#include "core/error.hpp"
#include "core/limits.hpp"
#include "io/model.hpp"
#include "models/audio_encoder.hpp"
#include "models/seq2seq.hpp"

#include "support/model_gradcheck.hpp"
#include "support/tiny_config.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace apg;
using namespace apg::models;

namespace {

// 3 features per frame, BiGRU 2 per direction (dh = 4 = decoder_hidden), R reductions.
ModelConfig tiny_audio(attention::ScoreKind score, AttentionStyle style, int reductions) {
    ModelConfig c = testing::tiny_config(score, style,
                                         {.source_vocab = 4,
                                          .target_vocab = 7,
                                          .embedding = 3,
                                          .encoder_hidden = 2,
                                          .decoder_hidden = 4,
                                          .attention_dim = 3,
                                          .max_source_len = 12,
                                          .max_target_len = 4});
    c.encoder = EncoderKind::audio;
    c.input_dim = 3;
    c.reductions = reductions;
    return c;
}

std::vector<float> random_frames(core::Rng &rng, int frames, int dim) {
    std::vector<float> out(static_cast<std::size_t>(frames * dim));
    for (float &x : out) x = rng.uniform(0, 2);
    return out;
}

} // namespace

TEST_CASE("audio models' gradients match finite differences (odd lengths, 1 and 2 reductions)") {
    for (int reductions : {0, 1, 2})
        for (auto score : {attention::ScoreKind::additive, attention::ScoreKind::dot, attention::ScoreKind::general})
            for (auto style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
                INFO(reductions << " reductions, " << attention::name(score) << " " << name(style));
                Seq2Seq model(tiny_audio(score, style, reductions), 11);
                core::Rng rng(12);
                // 7 frames (odd at every level: 7 → 4 → 2) and 4 frames (4 → 2 → 1) in one padded batch.
                std::vector<std::vector<float>> utterances = {random_frames(rng, 7, 3), random_frames(rng, 4, 3)};
                std::vector<std::span<const float>> spans(utterances.begin(), utterances.end());
                const Batch batch = make_audio_batch(spans, 3, {{4, 5, 6}, {6}}, 0, 1, 2);
                CHECK(batch.source_lengths == std::vector<int>{7, 4});
                CHECK(batch.frames.size() == 7 * 2 * 3);
                const BatchResult r = test::check_model_gradients(model, batch, 12);
                CHECK(r.tokens == 6);
            }
}

TEST_CASE("an utterance encodes alone as it does inside a padded batch, with ceil(n / 2^R) states") {
    Seq2Seq model(tiny_audio(attention::ScoreKind::additive, AttentionStyle::bahdanau, 2), 5);
    core::Rng rng(6);
    const std::vector<float> a = random_frames(rng, 9, 3), b = random_frames(rng, 3, 3);
    const EncoderOutput alone = model.encode_audio(b);
    CHECK(alone.states.rows() == 1);                 // 3 → 2 → 1
    CHECK(model.encode_audio(a).states.rows() == 3); // 9 → 5 → 3
    CHECK(audio_config(model.config()).states_for(9) == 3);
    AudioEncoderCache cache;
    std::vector<Mat> states;
    std::vector<float> batch(9 * 2 * 3, 7.0f); // the padding of b is 7s: it must not matter
    for (int t = 0; t < 9; ++t)
        for (int f = 0; f < 3; ++f) batch[(t * 2) * 3 + f] = a[t * 3 + f];
    for (int t = 0; t < 3; ++t)
        for (int f = 0; f < 3; ++f) batch[(t * 2 + 1) * 3 + f] = b[t * 3 + f];
    audio_encoder_forward(model.parameters().audio, audio_config(model.config()), batch, std::vector<int>{9, 3}, cache,
                          states);
    CHECK(states[1].isApprox(alone.states, 1e-6f));
    CHECK(states[0].isApprox(model.encode_audio(a).states, 1e-6f));
}

TEST_CASE("encode_audio refuses what is not an utterance of this model") {
    const Seq2Seq model(tiny_audio(attention::ScoreKind::additive, AttentionStyle::bahdanau, 1), 3);
    CHECK_THROWS_WITH_AS(model.encode_audio(std::vector<float>(4)), "encode_audio: 4 values are not whole frames of 3",
                         InputError);
    CHECK_THROWS_AS(model.encode_audio({}), InputError);
    try {
        model.encode_audio(std::vector<float>(13 * 3));
        FAIL("no error");
    } catch (const InputError &e) {
        CHECK(e.code() == ErrorCode::too_long);
    }
    CHECK_THROWS_WITH_AS(model.encode(std::vector<int>{1}), "encode: this model reads sound, not text", InputError);
    CHECK_THROWS_AS(model.encode_image(std::vector<std::uint8_t>(192)), InputError);
    const Seq2Seq text(testing::tiny_config(attention::ScoreKind::additive, AttentionStyle::bahdanau), 3);
    CHECK_THROWS_AS(text.encode_audio(std::vector<float>(6)), InputError);
}

TEST_CASE("an audio model's config and checkpoint round-trip; absurd values are refused") {
    const ModelConfig c = tiny_audio(attention::ScoreKind::general, AttentionStyle::bahdanau, 1);
    const nlohmann::json j = c.to_json();
    CHECK(j["encoder"] == "audio");
    CHECK(j["input_dim"] == 3);
    CHECK(j["reductions"] == 1);
    const ModelConfig back = ModelConfig::from_json(j);
    CHECK(back.encoder == EncoderKind::audio);
    CHECK(back.input_dim == 3);
    CHECK(back.reductions == 1);
    CHECK(back.encoder_state() == 4);
    auto refused = [&](const char *field, nlohmann::json value, const char *message) {
        nlohmann::json bad = j;
        bad[field] = std::move(value);
        CHECK_THROWS_WITH_AS(ModelConfig::from_json(bad), message, InputError);
    };
    refused("reductions", 5, "model config: reductions must be from 0 to 4, got 5");
    refused("reductions", -1, "model config: reductions must be from 0 to 4, got -1");
    refused("input_dim", 0, "model config: input_dim must be positive, got 0");
    refused("bidirectional", false, "model config: the audio encoder's GRUs are bidirectional");
    refused("max_source_len", limits::max_speech_frames + 1,
            "model config: max_source_len must be from 1 to 480, got 481");
    nlohmann::json missing = j;
    missing.erase("reductions");
    CHECK_THROWS_WITH_AS(ModelConfig::from_json(missing), "model config: missing field \"reductions\"", InputError);
    const auto names = tensor_shapes(c);
    CHECK(names[0].name == "encoder.layers.0.fwd.w_ih");
    CHECK(names[0].shape == std::vector<std::int64_t>{6, 3});
    CHECK(names[8].name == "encoder.layers.1.fwd.w_ih");
    CHECK(names[8].shape == std::vector<std::int64_t>{6, 8}); // 4He: two neighbouring BiGRU states

    io::Model model(Seq2Seq(c, 5), io::Vocabulary::build({}, io::Tokenizer::characters),
                    io::Vocabulary::build({{"x", "y", "z"}}, io::Tokenizer::characters));
    const io::Model loaded = io::Model::load(model.save());
    core::Rng rng(6);
    const auto frames = random_frames(rng, 5, 3);
    CHECK(model.network().encode_audio(frames).states == loaded.network().encode_audio(frames).states);
}
