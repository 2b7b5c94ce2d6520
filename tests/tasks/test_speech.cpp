#include "tasks/speech.hpp"

#include "core/error.hpp"
#include "core/limits.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

using namespace apg::tasks::speech;

namespace {

// FNV-1a over every utterance's transcript and the bit patterns of its frames, train then held out.
std::uint64_t fingerprint(const SpeechData &data) {
    std::uint64_t h = 1469598103934665603ull;
    auto add = [&](unsigned char c) { h = (h ^ c) * 1099511628211ull; };
    for (const auto *side : {&data.train, &data.heldout})
        for (const auto &s : *side) {
            for (char c : s.utterance.text) add(static_cast<unsigned char>(c));
            add(0xff);
            for (float x : s.utterance.features) add(static_cast<unsigned char>(std::lround(x * level_scale)));
        }
    return h;
}

struct CaughtSpeechError {
    apg::ErrorCode code = apg::ErrorCode::bad_state;
    std::string text;
    apg::Details details;
};

template <class F> CaughtSpeechError caught(F &&f) {
    try {
        f();
    } catch (const apg::Error &e) {
        return {e.code(), std::string(e.text()), e.details()};
    }
    FAIL("no error thrown");
    return {};
}

std::string text_detail(const CaughtSpeechError &e, const std::string &key) {
    for (const auto &[k, v] : e.details)
        if (k == key && std::holds_alternative<std::string>(v)) return std::get<std::string>(v);
    return "";
}

} // namespace

TEST_CASE("speech data are the same natively and in wasm (transcripts and frames of the first utterances)") {
    // Taken from the native build the shipped speech models were trained with; the wasm ctest run
    // checks the same constant.
    CHECK(fingerprint(make_speech(1, 200, 40)) == 4677655546332576448ull);
}

TEST_CASE("the lexicon holds the woodchuck sentence and every letter") {
    std::set<char> letters;
    for (std::string_view w : lexicon()) letters.insert(w.begin(), w.end());
    CHECK(letters.size() == 26);
    CHECK(lexicon().size() >= 30);
    CHECK(lexicon().size() <= 60);
    CHECK_NOTHROW(words_of(woodchuck_sentence));
}

TEST_CASE("an utterance: its frames are integer levels over 64, its spans tile the letters") {
    const Utterance u = synthesize("How much  WOOD", 7, 1.0f, 0.0f);
    CHECK(u.text == "how much wood");
    REQUIRE(u.spans.size() == u.text.size());
    CHECK(u.frames >= min_frames);
    CHECK(u.features.size() == static_cast<std::size_t>(u.frames) * bands);
    for (std::size_t i = 0; i < u.spans.size(); ++i) {
        CHECK(u.spans[i].letter == u.text[i]);
        CHECK(u.spans[i].end - u.spans[i].begin >= 2);
        if (i > 0) CHECK(u.spans[i].begin == u.spans[i - 1].end);
    }
    CHECK(u.spans.front().begin > 0);     // leading silence
    CHECK(u.spans.back().end < u.frames); // trailing silence
    for (float x : u.features) CHECK(x * level_scale == std::floor(x * level_scale));
    // Without noise a letter's inner frames are its pattern (shifted by the pitch) times one gain:
    // every band's ratio to the pattern is the same, up to the integer rounding.
    const LetterSpan &h = u.spans[0];
    REQUIRE(h.end - h.begin >= 3);
    const auto p = pattern(letter_class('h'));
    const int t = h.begin + 1;
    int peak = 0;
    for (int b = 1; b < bands; ++b)
        if (p[b] > p[peak]) peak = b;
    const int shifted = std::clamp(peak + u.pitch, 0, bands - 1);
    const float gain = u.features[t * bands + shifted] * level_scale / static_cast<float>(p[peak]);
    CHECK(gain >= 0.84f);
    CHECK(gain <= 1.16f);
    for (int b = 0; b < bands; ++b) {
        const int src = std::clamp(b - u.pitch, 0, bands - 1);
        CHECK(u.features[t * bands + b] * level_scale == doctest::Approx(p[src] * gain).epsilon(0.02).scale(2));
    }
}

TEST_CASE("the same seed gives the same utterance; the rate changes its length") {
    const Utterance a = synthesize("a woodchuck could chuck wood", 3, 1.0f, 0.1f);
    const Utterance b = synthesize("a woodchuck could chuck wood", 3, 1.0f, 0.1f);
    CHECK(a.features == b.features);
    const Utterance fast = synthesize("a woodchuck could chuck wood", 3, 2.0f, 0.1f);
    const int letters = a.spans.back().end - a.spans.front().begin;
    const int fast_letters = fast.spans.back().end - fast.spans.front().begin;
    CHECK(fast_letters < letters * 7 / 10); // not half: a letter keeps at least 2 frames
    CHECK(fast_letters > letters * 4 / 10);
}

TEST_CASE("speech input errors are coded and name what is wrong") {
    const CaughtSpeechError unknown = caught([] { synthesize("how much woodpecker", 1); });
    CHECK(unknown.code == apg::ErrorCode::unknown_token);
    CHECK(text_detail(unknown, "word") == "woodpecker");
    CHECK(unknown.text.find("woodpecker") != std::string::npos);
    // A long word outside the lexicon is named cut at a code point, quoted with its control characters escaped.
    const CaughtSpeechError cut = caught([] { synthesize("wood " + std::string(63, 'x') + "\xc3\xa9\x01", 1); });
    CHECK(cut.code == apg::ErrorCode::unknown_token);
    CHECK(text_detail(cut, "word") == std::string(63, 'x'));
    const CaughtSpeechError control = caught([] {
        synthesize("a\x01"
                   "b",
                   1);
    });
    CHECK(control.text == "speech: \"a\\u0001b\" is not in the lexicon of 46 words (e.g. how much wood would a "
                          "woodchuck chuck)");
    CHECK(caught([] { synthesize("   ", 1); }).code == apg::ErrorCode::empty_input);
    CHECK(caught([] { synthesize("", 1); }).code == apg::ErrorCode::empty_input);
    std::string long_text;
    for (int k = 0; k < 30; ++k) long_text += "woodchuck ";
    const CaughtSpeechError too_long = caught([&] { synthesize(long_text, 1); });
    CHECK(too_long.code == apg::ErrorCode::too_long);
    CHECK(text_detail(too_long, "name") == "frames");
    CHECK(caught([] { synthesize("wood", 1, 0.1f); }).code == apg::ErrorCode::bad_argument);
    CHECK(caught([] { synthesize("wood", 1, NAN); }).code == apg::ErrorCode::bad_argument);
    CHECK(caught([] { synthesize("wood", 1, 1.0f, -0.5f); }).code == apg::ErrorCode::bad_argument);
    CHECK(caught([] { synthesize(std::string(apg::limits::max_input_chars + 1, 'a'), 1); }).code ==
          apg::ErrorCode::too_long);
    // The whole sentence fits at the normal rate.
    CHECK(synthesize(woodchuck_sentence, 1).frames <= apg::limits::max_speech_frames);
}

TEST_CASE("render_audio: one band's energy is a sinusoid at its centre frequency") {
    std::vector<float> frames(2 * bands, 0.0f);
    frames[3] = 1.0f, frames[bands + 3] = 1.0f; // band 3, two frames of level 64
    const std::vector<float> pcm = render_audio(frames, 16000);
    REQUIRE(pcm.size() == 2 * 160);
    const double f = band_frequency(3);
    CHECK(f == 650.0);
    for (int n : {0, 1, 37, 200, 319})
        CHECK(pcm[n] == doctest::Approx(std::sin(2 * 3.141592653589793 * f * n / 16000) / 16).epsilon(1e-4));
    CHECK(render_audio(synthesize("wood", 1).features, 8000).size() ==
          static_cast<std::size_t>(synthesize("wood", 1).frames) * 80);
    CHECK(caught([&] { render_audio(frames, 44101); }).code == apg::ErrorCode::bad_argument);
    CHECK(caught([&] { render_audio(std::span<const float>(frames).first(5)); }).code == apg::ErrorCode::bad_argument);
    frames[4] = INFINITY;
    CHECK(caught([&] { render_audio(frames); }).code == apg::ErrorCode::bad_argument);
    CHECK(caught([] { render_audio(std::vector<float>((apg::limits::max_speech_frames + 1) * bands)); }).code ==
          apg::ErrorCode::too_long);
}

TEST_CASE("the held-out split is by phrase and the generated lengths stay in 80..300 frames") {
    const SpeechData data = make_speech(2, 300, 60);
    std::set<std::string> train;
    for (const auto &s : data.train) train.insert(s.utterance.text);
    for (const auto &s : data.heldout) {
        CHECK(train.count(s.utterance.text) == 0);
        CHECK(heldout_phrase(s.utterance.text));
    }
    for (const auto *side : {&data.train, &data.heldout})
        for (const auto &s : *side) {
            CHECK(s.utterance.frames >= 80);
            CHECK(s.utterance.frames <= 300);
        }
}

TEST_CASE("the letter patterns differ from each other") {
    for (int a = 0; a < pause_class; ++a)
        for (int b = a + 1; b < pause_class; ++b) {
            int d = 0;
            const auto pa = pattern(a), pb = pattern(b);
            for (int k = 0; k < bands; ++k) d += std::abs(pa[k] - pb[k]);
            CHECK(d >= 600);
        }
}
