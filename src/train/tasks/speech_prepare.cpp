#include "train/tasks/speech_prepare.hpp"

#include "core/limits.hpp"

#include <algorithm>
#include <numeric>

namespace apg::train {

io::Vocabulary speech_source_vocabulary() { return io::Vocabulary::build({}, io::Tokenizer::characters); }

io::Vocabulary speech_target_vocabulary() {
    return io::Vocabulary::build({speech::transcript_characters()}, io::Tokenizer::characters);
}

PreparedSpeech prepare_speech(std::uint64_t seed, std::size_t train_count, std::size_t heldout_count) {
    PreparedSpeech p{speech::make_speech(seed, train_count, heldout_count),
                     speech_source_vocabulary(),
                     speech_target_vocabulary(),
                     {},
                     {}};
    for (auto [samples, pairs] : {std::pair{&p.data.train, &p.train}, std::pair{&p.data.heldout, &p.heldout}})
        for (const speech::Sample &s : *samples) {
            pairs->frames.push_back(s.utterance.features);
            pairs->targets.push_back(p.target_vocab.encode(s.utterance.text));
        }
    return p;
}

models::ModelConfig speech_config(attention::ScoreKind score, models::AttentionStyle style) {
    models::ModelConfig c;
    c.task = "speech";
    c.score = score;
    c.style = style;
    c.encoder = models::EncoderKind::audio;
    c.source_vocab = speech_source_vocabulary().size();
    c.target_vocab = speech_target_vocabulary().size();
    c.input_dim = speech::bands;
    c.reductions = 1;
    c.encoder_hidden = 32;
    c.bidirectional = true;
    c.embedding = 16;
    c.decoder_hidden = 64;
    c.attention_dim = 32;
    c.max_source_len = limits::max_speech_frames;
    c.max_target_len = speech::max_transcript_chars;
    c.validate();
    return c;
}

TrainOptions speech_options() {
    TrainOptions o;
    o.batch_size = 32;
    o.learning_rate = 3e-3f;
    o.final_lr_fraction = 0.1f;
    o.clip_norm = 5.0f;
    o.steps = 3000;
    return o;
}

std::size_t edit_distance(std::span<const int> a, std::span<const int> b) {
    std::vector<std::size_t> row(b.size() + 1);
    std::iota(row.begin(), row.end(), std::size_t{0});
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
}

namespace {

Eigen::Index peak(const Vec &w) {
    Eigen::Index best = 0;
    w.maxCoeff(&best);
    return best;
}

void count_monotonic(const std::vector<Vec> &weights, long long &steps, long long &monotonic) {
    for (std::size_t i = 1; i < weights.size(); ++i) {
        ++steps;
        monotonic += peak(weights[i]) >= peak(weights[i - 1]);
    }
}

} // namespace

double monotonic_share(const std::vector<Vec> &weights) {
    long long steps = 0, monotonic = 0;
    count_monotonic(weights, steps, monotonic);
    return steps ? static_cast<double>(monotonic) / static_cast<double>(steps) : 1.0;
}

void score_transcription(const std::vector<int> &output, const std::vector<int> &reference,
                         const std::vector<Vec> &weights, SpeechScore &score) {
    score.edits += static_cast<long long>(edit_distance(output, reference));
    score.reference_chars += static_cast<long long>(reference.size());
    count_monotonic(weights, score.steps, score.monotonic_steps);
    score.exact_match =
        (score.exact_match * score.utterances + (output == reference ? 1.0 : 0.0)) / (score.utterances + 1);
    ++score.utterances;
    score.cer =
        score.reference_chars ? static_cast<double>(score.edits) / static_cast<double>(score.reference_chars) : 0.0;
    score.monotonicity =
        score.steps ? static_cast<double>(score.monotonic_steps) / static_cast<double>(score.steps) : 1.0;
}

SpeechScore evaluate_speech(const models::Seq2Seq &model, const std::vector<speech::Sample> &samples,
                            const io::Vocabulary &target_vocab, std::size_t limit) {
    const std::size_t n = limit == 0 ? samples.size() : std::min(limit, samples.size());
    SpeechScore score;
    for (std::size_t k = 0; k < n; ++k) {
        const speech::Utterance &u = samples[k].utterance;
        const models::EncoderOutput encoded = model.encode_audio(u.features);
        std::vector<int> output;
        std::vector<Vec> weights;
        for (const auto &step : model.greedy(encoded, io::Vocabulary::bos, io::Vocabulary::eos)) {
            weights.push_back(step.attention.weights);
            const int best = static_cast<int>(peak(step.probs));
            if (best == io::Vocabulary::eos) break;
            output.push_back(best);
        }
        score_transcription(output, target_vocab.encode(u.text), weights, score);
    }
    return score;
}

nlohmann::json speech_record(const std::string &command, std::uint64_t seed, const TrainOptions &options,
                             std::size_t train_pairs, std::size_t heldout_pairs, const SpeechScore &score) {
    return {{"command", command},
            {"encoder", "audio"},
            {"seed", seed},
            {"data_seed", seed},
            {"steps", options.steps},
            {"batch_size", options.batch_size},
            {"learning_rate", options.learning_rate},
            {"final_lr_fraction", options.final_lr_fraction},
            {"clip_norm", options.clip_norm},
            {"train_pairs", train_pairs},
            {"heldout_pairs", heldout_pairs},
            {"heldout_exact_match", score.exact_match},
            {"heldout_cer", score.cer},
            {"monotonicity", score.monotonicity}};
}

} // namespace apg::train
