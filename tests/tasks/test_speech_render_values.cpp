// Frame values render_audio refuses (found by fuzz_speech's raw frames): neighbouring frames of
// ±3e38 made the interpolated amplitude infinite and the samples NaN, which Web Audio would play.
#include "tasks/speech.hpp"

#include "core/error.hpp"
#include "core/limits.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace apg::tasks::speech;

TEST_CASE("render_audio refuses frame values beyond the limit; up to it every sample stays in [-1, 1]") {
    std::vector<float> frames(4 * bands);
    for (std::size_t t = 0; t < 4; ++t)
        for (int b = 0; b < bands; ++b) frames[t * bands + b] = t % 2 ? 3e38f : -3e38f;
    try {
        render_audio(frames);
        FAIL("no error");
    } catch (const apg::InputError &e) {
        CHECK(e.code() == apg::ErrorCode::bad_argument);
        CHECK(std::string(e.what()) == "speech: a frame value is -3e+38, outside ±1e+06");
        REQUIRE(e.details().size() == 2);
        CHECK(std::get<std::string>(e.details()[0].second) == "frames");
        CHECK(std::get<double>(e.details()[1].second) == 1e6);
    }
    frames[5] = NAN;
    CHECK_THROWS_WITH_AS(render_audio(frames), "speech: a frame value is -3e+38, outside ±1e+06", apg::InputError);
    for (std::size_t t = 0; t < 4; ++t)
        for (int b = 0; b < bands; ++b) frames[t * bands + b] = (t % 2 ? 1 : -1) * apg::limits::max_frame_value;
    const std::vector<float> pcm = render_audio(frames, 8000);
    REQUIRE(pcm.size() == 4 * 80);
    for (float x : pcm) CHECK((x >= -1 && x <= 1));
    // The first frame's first sample: every band's sinusoid starts at phase 0.
    CHECK(pcm[0] == 0.0f);
    frames.assign(2 * bands, 0.0f);
    frames[bands + 7] = NAN;
    CHECK_THROWS_WITH_AS(render_audio(frames), "speech: a frame value is nan, outside ±1e+06", apg::InputError);
}
