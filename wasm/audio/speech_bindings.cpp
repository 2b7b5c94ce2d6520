// The embind surface of the audio module's synthesizer (the module is `audio`, loaded lazily by the
// Listen view; declared in wasm/audio/audio.d.ts): the speech task's lexicon, utterances of a
// phrase (frames and the frames each letter came from) and the sound of frames. Conversion only:
// the work is done by tasks::speech.
#include "../js_error.hpp"
#include "../lazy_bindings.hpp"
#include "audio_convert.hpp"
#include "core/limits.hpp"
#include "tasks/speech.hpp"

#include <emscripten/bind.h>

#include <cstdint>
#include <string>
#include <vector>

namespace apg::wasm::audio {
namespace {

namespace sp = tasks::speech;

val lexicon_js() {
    return array_of(sp::lexicon(), [](std::string_view w) { return val(std::string(w)); });
}

val utterance_to_js(const sp::Utterance &u) {
    val spans = val::array();
    for (const sp::LetterSpan &s : u.spans) {
        val span = val::object();
        span.set("letter", std::string(1, s.letter));
        span.set("begin", s.begin);
        span.set("end", s.end);
        spans.call<void>("push", span);
    }
    val out = val::object();
    out.set("text", u.text);
    out.set("frames", frames_to_js(u.features, u.frames));
    out.set("spans", spans);
    out.set("pitch", u.pitch);
    return out;
}

// synthesize({phrase, seed?, rate?, noise?})
val synthesize_js(val request_js) {
    if (request_js.isString())
        bad_argument("synthesize", ": expected {phrase, seed, rate, noise}, got a string (put it in phrase)");
    const val request = checked_options(request_js, "synthesize", "synthesize", {"phrase", "seed", "rate", "noise"});
    const val phrase = request["phrase"];
    if (!phrase.isString()) bad_argument("phrase", ": expected a string, got " + describe(phrase));
    const auto seed = option(request, "seed");
    const std::uint64_t s =
        seed ? static_cast<std::uint64_t>(whole_number(*seed, "seed", 0, std::int64_t{1} << 53)) : std::uint64_t{1};
    const auto rate = option(request, "rate");
    const auto noise = option(request, "noise");
    // the ranges are the synthesizer's to check (it names them); here only the types
    const float r = rate ? finite_number(*rate, "rate") : 1.0f;
    const float n = noise ? finite_number(*noise, "noise") : 0.1f;
    const std::string text = text_from_js(phrase, "text", {limits::max_input_chars, "speech: the text", true});
    return utterance_to_js(sp::synthesize(text, s, r, n));
}

val render_audio_js(val frames, val sample_rate) {
    const std::vector<float> features = frames_from_js(frames, "frames");
    const int rate = sample_rate.isUndefined()
                         ? sp::default_sample_rate
                         : static_cast<int>(whole_number(sample_rate, "sampleRate", 1, std::int64_t{1} << 30));
    return floats_to_js(sp::render_audio(features, rate));
}

val limits_js() {
    // the oscillator each band is heard as, so the page can label its frequency axis
    std::vector<float> hz(sp::bands);
    for (int b = 0; b < sp::bands; ++b) hz[b] = sp::band_frequency(b);
    return object_of({{"bands", val(sp::bands)},
                      {"bandHz", floats_to_js(hz)},
                      {"sampleRate", val(sp::default_sample_rate)},
                      {"samplesPerFrame", val(sp::default_sample_rate / 100)},
                      {"maxFrames", val(limits::max_speech_frames)},
                      {"maxFrameValue", val(limits::max_frame_value)},
                      {"minRate", val(sp::min_rate)},
                      {"maxRate", val(sp::max_rate)},
                      {"maxNoise", val(sp::max_noise)},
                      {"maxPhraseChars", val(limits::max_input_chars)},
                      {"maxFileBytes", val(static_cast<double>(limits::max_file_bytes))},
                      {"maxWorkBytes", val(static_cast<double>(limits::max_work_bytes))},
                      {"maxHeapBytes", val(static_cast<double>(limits::max_heap_bytes))},
                      {"woodchuck", val(std::string(sp::woodchuck_sentence))}});
}

} // namespace
} // namespace apg::wasm::audio

EMSCRIPTEN_BINDINGS(apg_audio_speech) {
    using namespace apg::wasm;
    using namespace apg::wasm::audio;
    exported("lexicon", entry<lexicon_js>);
    exported("synthesize", entry<synthesize_js>);
    exported("renderAudio", entry<render_audio_js>, 1); // sampleRate may be left out
    exported("limits", entry<limits_js>);
}
