// Frame values encode_audio refuses (found by fuzz_speech's raw frames): a NaN made every state,
// score and weight NaN, and values near the float maximum overflow the first layer's products.
#include "core/error.hpp"
#include "core/limits.hpp"
#include "decode/session.hpp"
#include "models/seq2seq.hpp"

#include "support/tiny_config.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace apg;
using namespace apg::models;

namespace {

Seq2Seq tiny_audio_model() {
    ModelConfig c = testing::tiny_config(attention::ScoreKind::additive, AttentionStyle::bahdanau,
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
    c.reductions = 1;
    return Seq2Seq(c, 5);
}

void check_audio_refused(const Seq2Seq &model, const std::vector<float> &frames, const std::string &message) {
    try {
        model.encode_audio(frames);
        FAIL("no error for " << message);
    } catch (const InputError &e) {
        CHECK(e.code() == ErrorCode::bad_argument);
        CHECK(std::string(e.what()) == message);
        REQUIRE(e.details().size() == 2);
        CHECK(std::get<std::string>(e.details()[0].second) == "frames");
        CHECK(std::get<double>(e.details()[1].second) == static_cast<double>(limits::max_frame_value));
    }
}

} // namespace

TEST_CASE("encode_audio refuses a frame value that is NaN, infinite or beyond the limit, naming the frame") {
    const Seq2Seq model = tiny_audio_model();
    std::vector<float> frames(4 * 3, 1.0f);
    frames[7] = std::numeric_limits<float>::quiet_NaN();
    check_audio_refused(model, frames, "encode_audio: frame 2 holds nan, outside ±1e+06");
    frames[7] = -std::numeric_limits<float>::infinity();
    check_audio_refused(model, frames, "encode_audio: frame 2 holds -inf, outside ±1e+06");
    // The fuzzer's input: finite, but the products overflow (this made the states NaN).
    for (std::size_t i = 0; i < frames.size(); ++i) frames[i] = (i / 3) % 2 ? 3e38f : -3e38f;
    check_audio_refused(model, frames, "encode_audio: frame 0 holds -3e+38, outside ±1e+06");
}

TEST_CASE("frame values up to the limit are encoded and decoded into finite weights that sum to 1") {
    const Seq2Seq model = tiny_audio_model();
    std::vector<float> frames(5 * 3);
    for (std::size_t i = 0; i < frames.size(); ++i) frames[i] = (i % 2 ? 1 : -1) * limits::max_frame_value;
    const EncoderOutput encoded = model.encode_audio(frames);
    CHECK(encoded.states.rows() == 3); // 5 frames → 3 positions
    CHECK(encoded.states.allFinite());
    decode::DecodeSession session(model, encoded);
    const decode::SessionStep &s = session.step();
    CHECK(s.step.attention.weights.allFinite());
    CHECK(s.step.attention.weights.sum() == doctest::Approx(1.0f).epsilon(1e-5));
}
