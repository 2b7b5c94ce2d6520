// From the speech task to what the trainer eats (frames and character ids), the recipe of the
// shipped speech models, and their evaluation: the held-out character error rate and how
// monotonic the attention is (the share of decoding steps whose attention peak does not move
// back in time), the two numbers a speech model is judged by.
#pragma once

#include "io/vocab.hpp"
#include "models/seq2seq.hpp"
#include "train/tasks/speech.hpp"
#include "train/trainer.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace apg::train {

struct PreparedSpeech {
    speech::SpeechData data;
    io::Vocabulary source_vocab; // the specials only: the source is sound
    io::Vocabulary target_vocab; // a–z and the space
    EncodedPairs train, heldout; // frames and character ids
};

PreparedSpeech prepare_speech(std::uint64_t seed, std::size_t train_count = speech::default_train_utterances,
                              std::size_t heldout_count = speech::default_heldout_utterances);
io::Vocabulary speech_source_vocabulary();
io::Vocabulary speech_target_vocabulary();

// BiGRU 32 per direction over the 24 bands, one ×2 time reduction, a second BiGRU 32 (dh = 64),
// decoder GRU 64 (= dh, so every score function fits), attention 32, embeddings 16.
models::ModelConfig speech_config(attention::ScoreKind score, models::AttentionStyle style);
TrainOptions speech_options();

// Levenshtein distance (insertions, deletions, substitutions each 1).
std::size_t edit_distance(std::span<const int> a, std::span<const int> b);
// The share of steps i ≥ 1 whose weights' peak position is not before step i−1's (1 for fewer
// than two steps). weights: one vector per decoding step.
double monotonic_share(const std::vector<Vec> &weights);

struct SpeechScore {
    double cer = 0;          // Σ edit distance / Σ reference length, greedy decoding
    double exact_match = 0;  // share of utterances transcribed exactly
    double monotonicity = 0; // over every greedy decoding step of every utterance (see monotonic_share)
    long long edits = 0, reference_chars = 0;
    long long steps = 0, monotonic_steps = 0; // steps with a predecessor, and those whose peak did not go back
    int utterances = 0;
};

// The one utterance's figures, accumulated into score (what evaluate_speech sums).
void score_transcription(const std::vector<int> &output, const std::vector<int> &reference,
                         const std::vector<Vec> &weights, SpeechScore &score);
// The first `limit` held-out samples (all if 0), decoded greedily.
SpeechScore evaluate_speech(const models::Seq2Seq &model, const std::vector<speech::Sample> &samples,
                            const io::Vocabulary &target_vocab, std::size_t limit = 0);

// The training record of a speech model (what `apg train --task speech` and train::Run write).
nlohmann::json speech_record(const std::string &command, std::uint64_t seed, const TrainOptions &options,
                             std::size_t train_pairs, std::size_t heldout_pairs, const SpeechScore &score);

} // namespace apg::train
