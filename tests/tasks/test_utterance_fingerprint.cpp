// The utterances the Listen view asks the audio module for (a phrase, a seed, a speaking rate and
// a noise), fingerprinted: the audio module's JS test (tests/js/audio.test.mjs) computes the same
// FNV-1a over what synthesize() gives in wasm and checks the same constant, so the page hears and
// shows the very frames the native build (and its trained models) would.
#include "tasks/speech.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>

using namespace apg::tasks::speech;

namespace {

struct Request {
    const char *phrase;
    std::uint64_t seed;
    float rate, noise;
};

// The same list as tests/js/audio.test.mjs.
constexpr Request requests[] = {
    {"how much wood would a woodchuck chuck if a woodchuck could chuck wood", 1, 1.0f, 0.1f},
    {"how much wood", 7, 0.5f, 0.0f},
    {"a woodchuck could chuck", 12345, 2.0f, 1.0f},
    {"Wood  Chuck", 3, 1.25f, 0.35f},
};

} // namespace

TEST_CASE("utterances of the Listen view: text, levels, spans and pitch fingerprinted (= the wasm module's)") {
    std::uint64_t h = 1469598103934665603ull;
    auto add = [&](std::uint64_t byte) { h = (h ^ (byte & 0xff)) * 1099511628211ull; };
    for (const Request &r : requests) {
        const Utterance u = synthesize(r.phrase, r.seed, r.rate, r.noise);
        for (char c : u.text) add(static_cast<unsigned char>(c));
        add(0xff);
        for (float x : u.features) add(static_cast<std::uint64_t>(std::lround(x * level_scale)));
        for (const LetterSpan &s : u.spans) {
            add(static_cast<unsigned char>(s.letter));
            add(static_cast<std::uint64_t>(s.begin));
            add(static_cast<std::uint64_t>(s.end));
        }
        add(static_cast<std::uint64_t>(u.pitch + 1));
    }
    CHECK(h == 7408708020160785172ull);
}
