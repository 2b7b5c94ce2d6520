// The audio task: utterances of the speech task (tasks/speech.hpp) transcribed by a model with the
// audio encoder. Its descriptor (task.hpp: its data are frames and character ids, its source
// vocabulary the specials only, its target a–z and the space), the recipe of the shipped speech
// models, and its evaluation (the held-out character error rate, and how monotonic the
// attention is: the share of decoding steps whose peak does not move back in time, the two numbers
// a speech model is judged by).
#pragma once

#include "io/vocab.hpp"
#include "models/seq2seq.hpp"
#include "tasks/speech.hpp"
#include "train/task.hpp"
#include "train/trainer.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace apg::train {

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
// The first `limit` held-out utterances (all if 0), decoded greedily: frames (T × bands each) and
// their transcripts' character ids.
SpeechScore evaluate_speech(const models::Seq2Seq &model, std::span<const std::vector<float>> frames,
                            std::span<const std::vector<int>> references, std::size_t limit = 0);
// The same over samples, their transcripts read with the target vocabulary.
SpeechScore evaluate_speech(const models::Seq2Seq &model, std::span<const tasks::speech::Sample> samples,
                            const io::Vocabulary &target_vocab, std::size_t limit = 0);

const Task &speech_task();

} // namespace apg::train
