// The speech task: synthetic "utterances" of short phrases from a small lexicon, as frames of 24
// frequency-band energies (a coarse spectrogram, one frame per 10 ms), transcribed to characters.
// Each letter class (a–z, and the pause between words) is a fixed pattern of formant-like bumps
// over the bands; an utterance strings its letters' patterns together with a random duration per
// letter, a speaking rate, a pitch shift (the bands shifted up or down), blur between neighbouring
// letters, noise and pauses between words.
//
// Everything that becomes model input is integer arithmetic and the repo's RNG: glibc's and
// Emscripten's exp / sin / pow round differently, so a libm call would make the wasm build's
// data differ from the native build's the shipped models were trained on. A frame value is an
// integer level 0..255 divided by 64 (exact in a float).
#pragma once

#include "core/rng.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace apg::tasks::speech {

inline constexpr int bands = 24;          // features per frame (the model's input_dim)
inline constexpr int letter_classes = 27; // a–z, then the pause (written as a space)
inline constexpr int pause_class = 26;
inline constexpr int max_phrase_words = 6;  // in generated phrases
inline constexpr int min_frames = 80;       // shorter utterances get more silence at both ends
inline constexpr float level_scale = 64.0f; // frame value = level / level_scale
// The longest transcript a speech model decodes: the whole woodchuck sentence (69 characters) fits.
inline constexpr int max_transcript_chars = 80;

// The lexicon, in a fixed order; it includes every word of woodchuck_sentence.
std::span<const std::string_view> lexicon();
inline constexpr std::string_view woodchuck_sentence =
    "how much wood would a woodchuck chuck if a woodchuck could chuck wood";

// Speaking rate (1 = the patterns' own durations; 2 = twice as fast) and noise (0 = none, 1 = as
// loud as a strong formant) a caller may ask for.
inline constexpr float min_rate = 0.5f, max_rate = 2.0f;
inline constexpr float max_noise = 1.0f;

// The frames [begin, end) a character of the transcript was made from (a space: the pause).
struct LetterSpan {
    char letter = 0;
    int begin = 0, end = 0;
    friend bool operator==(const LetterSpan &, const LetterSpan &) = default;
};

struct Utterance {
    std::string text;              // the transcript: the words in lower case, one space between
    int frames = 0;                // T
    std::vector<float> features;   // T × bands, row-major (frame t's bands at t·bands)
    std::vector<LetterSpan> spans; // one per character of text, in order
    int pitch = 0;                 // bands the patterns were shifted by (−1, 0 or 1)
};

// The utterance of text (words of the lexicon separated by spaces; upper case is lowered) spoken
// with the seed's durations, pitch, gain and noise draws. Throws InputError: empty_input for a
// text without words; unknown_token (details "word", "limit" = lexicon size) naming the first
// word outside the lexicon; bad_argument (details "name", "min", "limit") for a rate outside
// [min_rate, max_rate] or a noise outside [0, max_noise] (or either not finite); too_long (details
// "name" = "frames", "length", "limit" = limits::max_speech_frames) when the utterance would have
// more frames than that, and (name "text") for a text over limits::max_input_chars bytes.
Utterance synthesize(std::string_view text, std::uint64_t seed, float rate = 1.0f, float noise = 0.1f);

// The phrase's words, lower case, checked against the lexicon as synthesize does (its errors).
std::vector<std::string> words_of(std::string_view text);

// The fixed pattern of a letter class (0..26) as levels 0..255 over the bands.
std::array<int, bands> pattern(int letter_class);
// 'a'..'z' → 0..25, ' ' → pause_class, anything else −1.
int letter_class(char c);

// Sound to listen to: for each band a sinusoid at its centre frequency whose amplitude follows the
// band's energy (linearly between frames), summed and scaled into [−1, 1]. sample_rate / 100
// samples per frame (160 at 16 kHz), so the result has frames × that many samples. Not model
// input, so std::sin is fine here. frames: T × bands values. Throws InputError bad_argument
// (details "name", "limit") for a sample rate that is not a multiple of 100 in [8000, 48000], a
// frame count that is not a whole number of frames or a value that is not finite or beyond
// ±limits::max_frame_value, and too_long for more than limits::max_speech_frames frames.
inline constexpr int default_sample_rate = 16000;
std::vector<float> render_audio(std::span<const float> frames, int sample_rate = default_sample_rate);
// The centre frequency (Hz) of a band.
float band_frequency(int band);

// A random phrase of 1..max_phrase_words words: a quarter of the time a stretch of the woodchuck
// sentence, else words drawn from the lexicon.
std::string random_phrase(core::Rng &rng);
// A phrase is held out (never in the training set) when its hash falls in 1 of 8.
bool heldout_phrase(std::string_view phrase);

struct Sample {
    Utterance utterance; // its text is the target
};

struct SpeechData {
    std::vector<Sample> train, heldout; // disjoint by phrase
    std::size_t max_target_len = max_transcript_chars;
};

inline constexpr std::size_t default_train_utterances = 4000, default_heldout_utterances = 400;

// The first train_count training and heldout_count held-out utterances of the seed's stream, each
// with its own rate (0.8..1.25), noise (0..0.2) and synthesis seed drawn from the stream.
SpeechData make_speech(std::uint64_t seed, std::size_t train_count = default_train_utterances,
                       std::size_t heldout_count = default_heldout_utterances);

// The target vocabulary's tokens: a–z and the space.
std::vector<std::string> transcript_characters();

} // namespace apg::tasks::speech
