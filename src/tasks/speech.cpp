#include "tasks/speech.hpp"

#include "tasks/sides.hpp"

#include "core/error.hpp"
#include "core/limits.hpp"
#include "core/quote.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace apg::tasks::speech {

namespace {

constexpr std::array<std::string_view, 46> kLexicon = {
    "how",   "much",  "wood",  "would", "a",      "woodchuck", "chuck",  "if",    "could", "the",   "cat",    "dog",
    "sat",   "on",    "mat",   "big",   "red",    "sun",       "sea",    "tree",  "fox",   "jumps", "over",   "lazy",
    "quick", "brown", "hello", "world", "speech", "listen",    "attend", "spell", "sound", "word",  "letter", "you",
    "we",    "see",   "hear",  "say",   "it",     "is",        "not",    "and",   "to",    "hi"};

// The voice: every letter's pattern and base duration, from this fixed seed (the task's voice is
// the same for every data seed, so a model trained on one seed's data hears any other's).
constexpr std::uint64_t voice_seed = 0x5bee'c4a0'2026ull;
constexpr int floor_level = 6, pause_level = 4;
// Patterns closer than this (sum of level differences over the bands) are drawn again.
constexpr int min_pattern_distance = 600;
// Generated utterances stay at most this long (a redraw otherwise); synthesize allows up to the limit.
constexpr int max_generated_frames = 300;
// A strong formant's level: noise 1 is noise of this amplitude.
constexpr int noise_full_scale = 140;

struct Voice {
    std::array<std::array<int, bands>, letter_classes> patterns{};
    std::array<int, letter_classes> duration{}; // base frames at rate 1
};

int distance(const std::array<int, bands> &a, const std::array<int, bands> &b) {
    int d = 0;
    for (int k = 0; k < bands; ++k) d += std::abs(a[k] - b[k]);
    return d;
}

Voice make_voice() {
    Voice v;
    core::Rng rng(voice_seed);
    for (int c = 0; c < pause_class; ++c) {
        for (;;) {
            std::array<int, bands> p;
            p.fill(floor_level);
            const int bumps = 2 + static_cast<int>(rng.below(2));
            for (int k = 0; k < bumps; ++k) {
                const int centre = 1 + static_cast<int>(rng.below(bands - 2));
                const int width = 1 + static_cast<int>(rng.below(3));
                const int amp = 60 + static_cast<int>(rng.below(90));
                // A triangular bump: amp at the centre, falling to 0 width + 1 bands away.
                for (int b = std::max(0, centre - width); b <= std::min(bands - 1, centre + width); ++b)
                    p[b] += amp * (width + 1 - std::abs(b - centre)) / (width + 1);
            }
            for (int &x : p) x = std::min(x, 255);
            bool far = true;
            for (int e = 0; e < c && far; ++e) far = distance(p, v.patterns[e]) >= min_pattern_distance;
            if (far) {
                v.patterns[c] = p;
                break;
            }
        }
        v.duration[c] = 3 + static_cast<int>(rng.below(3));
    }
    v.patterns[pause_class].fill(pause_level);
    v.duration[pause_class] = 3;
    return v;
}

const Voice &voice() {
    static const Voice v = make_voice();
    return v;
}

std::uint64_t fnv1a(std::string_view s) {
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    return h;
}

[[noreturn]] void bad_argument(const std::string &message, const char *name, double lo, double hi) {
    throw InputError(ErrorCode::bad_argument, "speech: " + message,
                     {{"name", std::string(name)}, {"min", lo}, {"limit", hi}});
}

[[noreturn]] void too_many_frames(std::int64_t frames) {
    throw InputError(
        ErrorCode::too_long,
        "speech: the utterance would take " + std::to_string(frames) + " frames, more than the " +
            std::to_string(limits::max_speech_frames) + " this engine makes (" +
            std::to_string(limits::max_speech_frames / 100) + "." +
            std::to_string(limits::max_speech_frames % 100 / 10) + " s); say less or speak faster",
        {{"name", std::string("frames")}, {"length", frames}, {"limit", std::int64_t{limits::max_speech_frames}}});
}

struct Segment {
    int cls = pause_class;
    int frames = 0;
    int character = -1; // index into the transcript, −1 for the silence at either end
};

// The utterance from its words with the rate in thousandths and the noise as an amplitude in levels.
Utterance speak(const std::vector<std::string> &words, std::uint64_t seed, int rate_milli, int noise_level,
                int max_frames) {
    const Voice &v = voice();
    core::Rng rng(seed);
    Utterance u;
    for (std::size_t w = 0; w < words.size(); ++w) u.text += (w ? " " : "") + words[w];
    u.pitch = static_cast<int>(rng.below(3)) - 1;
    const int gain = 85 + static_cast<int>(rng.below(31)); // percent
    auto frames_for = [&](int base) {
        const int jitter = 75 + static_cast<int>(rng.below(51)); // percent
        return std::max(2, (base * jitter * 10 + rate_milli / 2) / rate_milli);
    };
    std::vector<Segment> segments;
    const int lead = 3 + static_cast<int>(rng.below(4));
    segments.push_back({pause_class, lead, -1});
    for (std::size_t i = 0; i < u.text.size(); ++i) {
        const int cls = letter_class(u.text[i]);
        const int frames = frames_for(v.duration[cls]);
        segments.push_back({cls, frames, static_cast<int>(i)});
    }
    const int trail = 3 + static_cast<int>(rng.below(4));
    segments.push_back({pause_class, trail, -1});
    std::int64_t total = 0;
    for (const Segment &s : segments) total += s.frames;
    if (total > max_frames) too_many_frames(total);
    if (total < min_frames) {
        const int missing = min_frames - static_cast<int>(total);
        segments.front().frames += missing / 2;
        segments.back().frames += missing - missing / 2;
        total = min_frames;
    }
    u.frames = static_cast<int>(total);
    u.features.resize(static_cast<std::size_t>(total) * bands);
    u.spans.resize(u.text.size());

    // A pattern shifted by the pitch: band b takes the pattern's band b − pitch (the edge band past the ends).
    auto level = [&](int cls, int b) { return v.patterns[cls][std::clamp(b - u.pitch, 0, bands - 1)]; };
    int t = 0;
    for (std::size_t s = 0; s < segments.size(); ++s) {
        const Segment &seg = segments[s];
        if (seg.character >= 0) u.spans[seg.character] = {u.text[seg.character], t, t + seg.frames};
        for (int f = 0; f < seg.frames; ++f, ++t) {
            // Blur: a segment's first frame leans a third towards the previous one, its last towards the next.
            const int neighbour = f == 0 && s > 0                                  ? segments[s - 1].cls
                                  : f == seg.frames - 1 && s + 1 < segments.size() ? segments[s + 1].cls
                                                                                   : -1;
            for (int b = 0; b < bands; ++b) {
                int x = level(seg.cls, b);
                if (neighbour >= 0) x = (2 * x + level(neighbour, b)) / 3;
                x = x * gain / 100;
                if (noise_level > 0)
                    x += static_cast<int>(rng.below(2 * static_cast<std::uint64_t>(noise_level) + 1)) - noise_level;
                u.features[static_cast<std::size_t>(t) * bands + b] =
                    static_cast<float>(std::clamp(x, 0, 255)) / level_scale;
            }
        }
    }
    return u;
}

} // namespace

std::span<const std::string_view> lexicon() { return kLexicon; }

int letter_class(char c) {
    if (c >= 'a' && c <= 'z') return c - 'a';
    if (c == ' ') return pause_class;
    return -1;
}

std::array<int, bands> pattern(int cls) {
    if (cls < 0 || cls >= letter_classes)
        throw InputError(ErrorCode::bad_argument, "speech: letter class " + std::to_string(cls) + " is outside 0..26",
                         {{"name", std::string("letter_class")}, {"limit", std::int64_t{letter_classes - 1}}});
    return voice().patterns[cls];
}

std::vector<std::string> words_of(std::string_view text) {
    if (text.size() > static_cast<std::size_t>(limits::max_input_chars))
        throw InputError(ErrorCode::too_long,
                         "speech: the text has " + std::to_string(text.size()) + " bytes, at most " +
                             std::to_string(limits::max_input_chars) + " are read",
                         {{"name", std::string("text")},
                          {"length", static_cast<std::int64_t>(text.size())},
                          {"limit", std::int64_t{limits::max_input_chars}}});
    std::vector<std::string> words;
    std::string word;
    auto flush = [&] {
        if (word.empty()) return;
        if (std::find(kLexicon.begin(), kLexicon.end(), word) == kLexicon.end()) {
            // Cut to max_token_bytes at a code point's start, so the word stays whole UTF-8.
            std::size_t cut = std::min(word.size(), static_cast<std::size_t>(limits::max_token_bytes));
            while (cut < word.size() && cut > 0 && (static_cast<unsigned char>(word[cut]) & 0xc0) == 0x80) --cut;
            const std::string shown = word.substr(0, cut);
            throw InputError(ErrorCode::unknown_token,
                             "speech: " + quote(shown) + " is not in the lexicon of " +
                                 std::to_string(kLexicon.size()) +
                                 " words (e.g. how much wood would a woodchuck chuck)",
                             {{"word", shown},
                              {"tokens", std::vector<std::string>{shown}},
                              {"limit", static_cast<std::int64_t>(kLexicon.size())}});
        }
        words.push_back(std::move(word));
        word.clear();
    };
    for (char c : text) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
            flush();
        else
            word += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    }
    flush();
    if (words.empty())
        throw InputError(ErrorCode::empty_input, "speech: the text has no words (e.g. \"how much wood\")",
                         {{"name", std::string("text")}});
    return words;
}

Utterance synthesize(std::string_view text, std::uint64_t seed, float rate, float noise) {
    const std::vector<std::string> words = words_of(text);
    if (!std::isfinite(rate) || rate < min_rate || rate > max_rate)
        bad_argument("the rate must be from 0.5 to 2, got " + std::to_string(rate), "rate", min_rate, max_rate);
    if (!std::isfinite(noise) || noise < 0 || noise > max_noise)
        bad_argument("the noise must be from 0 to 1, got " + std::to_string(noise), "noise", 0, max_noise);
    // Rounded once to integers, so everything after is integer arithmetic.
    const int rate_milli = static_cast<int>(std::lround(rate * 1000.0f));
    const int noise_level = static_cast<int>(std::lround(noise * static_cast<float>(noise_full_scale)));
    return speak(words, seed, rate_milli, noise_level, limits::max_speech_frames);
}

float band_frequency(int band) { return 200.0f + 150.0f * static_cast<float>(band); }

std::vector<float> render_audio(std::span<const float> frames, int sample_rate) {
    if (sample_rate < 8000 || sample_rate > 48000 || sample_rate % 100 != 0)
        throw InputError(ErrorCode::bad_argument,
                         "speech: the sample rate must be a multiple of 100 from 8000 to 48000, got " +
                             std::to_string(sample_rate),
                         {{"name", std::string("sample_rate")}, {"limit", std::int64_t{48000}}});
    if (frames.size() % bands != 0)
        throw InputError(ErrorCode::bad_argument,
                         "speech: " + std::to_string(frames.size()) + " values are not whole frames of " +
                             std::to_string(bands) + " bands",
                         {{"name", std::string("frames")}, {"limit", std::int64_t{bands}}});
    const std::int64_t T = static_cast<std::int64_t>(frames.size() / bands);
    if (T > limits::max_speech_frames) too_many_frames(T);
    for (float x : frames)
        if (!(std::abs(x) <= limits::max_frame_value)) { // NaN too
            char message[96];
            std::snprintf(message, sizeof message, "speech: a frame value is %g, outside ±%g", static_cast<double>(x),
                          static_cast<double>(limits::max_frame_value));
            throw InputError(
                ErrorCode::bad_argument, message,
                {{"name", std::string("frames")}, {"limit", static_cast<double>(limits::max_frame_value)}});
        }
    // The sound is for people, never model input: std::sin and std::cos may round as they like.
    const int per_frame = sample_rate / 100;
    std::vector<float> out(static_cast<std::size_t>(T) * per_frame, 0.0f);
    const double two_pi = 2.0 * std::numbers::pi;
    for (int b = 0; b < bands; ++b) {
        const double step = two_pi * band_frequency(b) / sample_rate;
        if (band_frequency(b) * 2 >= static_cast<float>(sample_rate)) continue; // above Nyquist: silent
        const double cs = std::cos(step), sn = std::sin(step);
        for (std::int64_t t = 0; t < T; ++t) {
            const float a0 = frames[static_cast<std::size_t>(t) * bands + b];
            const float a1 = t + 1 < T ? frames[static_cast<std::size_t>(t + 1) * bands + b] : a0;
            // The oscillator restarts from the exact phase each frame (a rotation drifts slowly).
            const double phase = step * static_cast<double>(t * per_frame);
            double c = std::cos(phase), s = std::sin(phase);
            for (int n = 0; n < per_frame; ++n) {
                const float amp = a0 + (a1 - a0) * static_cast<float>(n) / static_cast<float>(per_frame);
                out[static_cast<std::size_t>(t) * per_frame + n] += amp * static_cast<float>(s);
                const double c2 = c * cs - s * sn;
                s = s * cs + c * sn;
                c = c2;
            }
        }
    }
    // A frame of a few strong formants sums to about 10; 1/16 keeps speech inside [−1, 1].
    for (float &x : out) x = std::clamp(x / 16.0f, -1.0f, 1.0f);
    return out;
}

std::string random_phrase(core::Rng &rng) {
    const int count = 1 + static_cast<int>(rng.below(max_phrase_words));
    std::string out;
    if (rng.below(4) == 0) {
        std::vector<std::string_view> sentence;
        for (std::size_t at = 0; at < woodchuck_sentence.size();) {
            const std::size_t space = std::min(woodchuck_sentence.find(' ', at), woodchuck_sentence.size());
            sentence.push_back(woodchuck_sentence.substr(at, space - at));
            at = space + 1;
        }
        const std::size_t start = rng.below(sentence.size() - static_cast<std::size_t>(count) + 1);
        for (int k = 0; k < count; ++k) out += (k ? " " : "") + std::string(sentence[start + k]);
        return out;
    }
    for (int k = 0; k < count; ++k) out += (k ? " " : "") + std::string(kLexicon[rng.below(kLexicon.size())]);
    return out;
}

bool heldout_phrase(std::string_view phrase) { return fnv1a(phrase) % 8 == 0; }

SpeechData make_speech(std::uint64_t seed, std::size_t train_count, std::size_t heldout_count) {
    core::Rng rng(seed);
    SpeechData data;
    fill_sides(data.train, data.heldout, train_count, heldout_count, [&rng](auto side_for) {
        const std::string phrase = random_phrase(rng);
        // Drawn one by one (never inside one call's arguments, whose order compilers choose).
        const int rate_milli = 800 + static_cast<int>(rng.below(451));
        const int noise_level = static_cast<int>(rng.below(29));
        const std::uint64_t voice = rng.next_u64();
        auto *side = side_for(heldout_phrase(phrase));
        if (!side) return;
        std::vector<std::string> words;
        for (std::size_t at = 0; at < phrase.size();) {
            const std::size_t space = std::min(phrase.find(' ', at), phrase.size());
            words.emplace_back(phrase.substr(at, space - at));
            at = space + 1;
        }
        try {
            side->push_back({speak(words, voice, rate_milli, noise_level, max_generated_frames)});
        } catch (const InputError &) {
            // Too long at this rate: the stream moves on to the next phrase.
        }
    });
    return data;
}

std::vector<std::string> transcript_characters() {
    std::vector<std::string> out;
    for (char c = 'a'; c <= 'z'; ++c) out.emplace_back(1, c);
    out.emplace_back(" ");
    return out;
}

} // namespace apg::tasks::speech
