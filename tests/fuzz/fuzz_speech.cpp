// libFuzzer target: the speech task's inputs. A phrase and synthesis options (seed, rate, noise)
// → synthesize → render_audio at a sample rate → encode with a tiny audio model (0, 1 or 2 time
// reductions, additive or location-aware attention) → a few decoding steps; or, in raw mode, the
// bytes as frame values straight into render_audio and encode_audio (what a JS caller may hand
// the audio module). Findings: a crash or sanitizer report, an uncoded exception or one with an
// unexpected code, an utterance or a sound outside the stated limits (frames, levels, samples in
// [−1, 1]), spans that do not tile the transcript, a different utterance for the same request,
// and weights that are not a distribution over the encoder's positions.
//
// Input: a 20-byte header, then the phrase (or the raw frames):
//   [0]      model (low 3 bits) and flags: 8 = raw frames, 16 = raw rate and noise floats, 32 = render the sound
//   [1..4]   rate: a float32 (raw) or a u16 mapped onto [min_rate, max_rate]
//   [5..8]   noise: a float32 (raw) or a u16 mapped onto [0, max_noise]
//   [9..16]  seed (u64)
//   [17..18] sample rate: 8000 + 100 · (u16 % 401), or the u16 itself with the raw flag
//   [19]     max_steps % 12 (0: the model's own)
#include "core/error.hpp"
#include "core/limits.hpp"
#include "decode/session.hpp"
#include "io/vocab.hpp"
#include "models/seq2seq.hpp"
#include "tasks/speech.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace sp = apg::tasks::speech;
using apg::ErrorCode;

std::vector<std::unique_ptr<apg::models::Seq2Seq>> models;

[[noreturn]] void finding(const char *what, const std::string &detail) {
    std::fprintf(stderr, "fuzz_speech: %s: %s\n", what, detail.c_str());
    std::abort();
}

template <class T> T read(const std::uint8_t *at) {
    T v;
    std::memcpy(&v, at, sizeof v);
    return v;
}

// A coded error with one of the expected codes and a whole message (it reaches JS as it is).
void expect_code(const apg::Error &e, std::initializer_list<ErrorCode> codes, const char *where) {
    const std::string_view text = e.text();
    if (text.empty() || text.find('\0') != std::string_view::npos) finding("message with a NUL", std::string(text));
    for (ErrorCode c : codes)
        if (e.code() == c) return;
    finding(where, std::string(apg::name(e.code())) + ": " + std::string(text));
}

void check_distribution(const apg::Vec &w, Eigen::Index n, const char *what) {
    if (w.size() != n) finding(what, "size " + std::to_string(w.size()) + ", expected " + std::to_string(n));
    double sum = 0;
    for (Eigen::Index j = 0; j < n; ++j) {
        if (!std::isfinite(w[j]) || w[j] < 0)
            finding(what, "entry " + std::to_string(j) + " = " + std::to_string(w[j]));
        sum += w[j];
    }
    if (std::abs(sum - 1) > 1e-4) finding(what, "sums to " + std::to_string(sum));
}

void check_utterance(const sp::Utterance &u) {
    if (u.frames < sp::min_frames || u.frames > apg::limits::max_speech_frames)
        finding("frames", std::to_string(u.frames));
    if (u.features.size() != static_cast<std::size_t>(u.frames) * sp::bands) finding("features", "not T × bands");
    for (float x : u.features) {
        const float level = x * sp::level_scale;
        if (!(level >= 0 && level <= 255) || level != std::round(level)) finding("level", std::to_string(x));
    }
    if (u.spans.size() != u.text.size()) finding("spans", "not one per character");
    for (std::size_t i = 0; i < u.spans.size(); ++i) {
        const sp::LetterSpan &s = u.spans[i];
        if (s.letter != u.text[i] || s.begin >= s.end || s.end > u.frames || (i > 0 && s.begin != u.spans[i - 1].end))
            finding("spans", "span " + std::to_string(i) + " of \"" + u.text + "\"");
    }
    if (u.text.empty() || u.text.front() == ' ' || u.text.back() == ' ' || u.text.find("  ") != std::string::npos)
        finding("text", u.text);
    for (char c : u.text)
        if (sp::letter_class(c) < 0) finding("text", u.text);
    if (u.pitch < -1 || u.pitch > 1) finding("pitch", std::to_string(u.pitch));
}

void check_sound(const std::vector<float> &pcm, std::size_t frames, int sample_rate) {
    if (pcm.size() != frames * static_cast<std::size_t>(sample_rate / 100)) finding("sound", "not frames × rate/100");
    for (float x : pcm)
        if (!(x >= -1 && x <= 1)) finding("sound", "sample " + std::to_string(x));
}

// The frames through the model and a few steps; the weights must be a distribution each step.
void listen(const apg::models::Seq2Seq &model, std::span<const float> frames, int max_steps) {
    const apg::models::EncoderOutput encoded = model.encode_audio(frames);
    const auto n = static_cast<Eigen::Index>(
        apg::models::audio_config(model.config()).states_for(static_cast<int>(frames.size() / sp::bands)));
    if (encoded.states.rows() != n) finding("encoder", "rows " + std::to_string(encoded.states.rows()));
    if (!encoded.states.allFinite()) finding("encoder", "states not finite");
    apg::decode::SessionOptions options;
    options.max_steps = max_steps;
    apg::decode::DecodeSession session(model, encoded, options);
    while (!session.done()) {
        const apg::decode::SessionStep &s = session.step();
        check_distribution(s.step.attention.weights, n, "weights");
        check_distribution(s.step.probs, model.config().target_vocab, "probs");
    }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    const apg::io::Vocabulary letters =
        apg::io::Vocabulary::build({{"a", "b", "c", "d", "e", "h", "o", "w", " "}}, apg::io::Tokenizer::characters);
    int seed = 1;
    for (int reductions : {0, 1, 2})
        for (auto score : {apg::attention::ScoreKind::additive, apg::attention::ScoreKind::location}) {
            apg::models::ModelConfig c;
            c.task = "speech";
            c.score = score;
            c.encoder = apg::models::EncoderKind::audio;
            c.source_vocab = 4;
            c.target_vocab = letters.size();
            c.embedding = 4;
            c.encoder_hidden = 3;
            c.input_dim = sp::bands;
            c.reductions = reductions;
            c.decoder_hidden = 5;
            c.attention_dim = 4;
            c.location_filters = 2;
            c.location_width = 5;
            c.max_source_len = apg::limits::max_speech_frames;
            c.max_target_len = 10;
            models.push_back(std::make_unique<apg::models::Seq2Seq>(c, seed++));
        }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size < 20) return 0;
    const int flags = data[0];
    const apg::models::Seq2Seq &model = *models[static_cast<std::size_t>(flags & 7) % models.size()];
    const bool raw_frames = flags & 8, raw_options = flags & 16, render = flags & 32;
    const float rate = raw_options ? read<float>(data + 1)
                                   : sp::min_rate + (sp::max_rate - sp::min_rate) *
                                                        static_cast<float>(read<std::uint16_t>(data + 1)) / 65535.0f;
    const float noise = raw_options ? read<float>(data + 5)
                                    : sp::max_noise * static_cast<float>(read<std::uint16_t>(data + 5)) / 65535.0f;
    const auto seed = read<std::uint64_t>(data + 9);
    const auto rate_code = read<std::uint16_t>(data + 17);
    const int sample_rate = raw_options ? rate_code : 8000 + 100 * (rate_code % 401);
    const int max_steps = data[19] % 12;
    const std::span<const std::uint8_t> rest(data + 20, size - 20);

    if (raw_frames) {
        std::vector<float> frames(rest.size() / sizeof(float));
        if (!frames.empty()) std::memcpy(frames.data(), rest.data(), frames.size() * sizeof(float));
        try {
            check_sound(sp::render_audio(frames, sample_rate), frames.size() / sp::bands, sample_rate);
        } catch (const apg::Error &e) {
            expect_code(e, {ErrorCode::bad_argument, ErrorCode::too_long}, "render_audio (raw)");
        } catch (const std::exception &e) {
            finding("render_audio: uncoded exception", e.what());
        }
        try {
            listen(model, frames, max_steps);
        } catch (const apg::Error &e) {
            expect_code(e, {ErrorCode::bad_argument, ErrorCode::too_long, ErrorCode::empty_input}, "listen (raw)");
        } catch (const std::exception &e) {
            finding("listen: uncoded exception", e.what());
        }
        return 0;
    }

    const std::string_view phrase(reinterpret_cast<const char *>(rest.data()), rest.size());
    sp::Utterance u;
    try {
        u = sp::synthesize(phrase, seed, rate, noise);
    } catch (const apg::Error &e) {
        // In range, a rate or noise is never the problem.
        if (raw_options)
            expect_code(
                e, {ErrorCode::empty_input, ErrorCode::unknown_token, ErrorCode::too_long, ErrorCode::bad_argument},
                "synthesize (raw)");
        else
            expect_code(e, {ErrorCode::empty_input, ErrorCode::unknown_token, ErrorCode::too_long}, "synthesize");
        return 0;
    } catch (const std::exception &e) {
        finding("synthesize: uncoded exception", e.what());
    }
    if (!std::isfinite(rate) || rate < sp::min_rate || rate > sp::max_rate)
        finding("rate accepted", std::to_string(rate));
    if (!std::isfinite(noise) || noise < 0 || noise > sp::max_noise) finding("noise accepted", std::to_string(noise));
    check_utterance(u);
    const sp::Utterance again = sp::synthesize(phrase, seed, rate, noise);
    if (again.features != u.features || again.spans != u.spans || again.text != u.text)
        finding("determinism", "the same request gave another utterance");
    if (render) {
        try {
            check_sound(sp::render_audio(u.features, sample_rate), static_cast<std::size_t>(u.frames), sample_rate);
        } catch (const apg::Error &e) {
            if (!raw_options) finding("render_audio refused a valid rate", std::to_string(sample_rate));
            expect_code(e, {ErrorCode::bad_argument}, "render_audio");
        }
    }
    try {
        listen(model, u.features, max_steps);
    } catch (const apg::Error &e) {
        finding("listen refused an utterance", std::string(e.text()));
    } catch (const std::exception &e) {
        finding("listen: uncoded exception", e.what());
    }
    return 0;
}
