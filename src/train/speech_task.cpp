#include "train/speech_task.hpp"

#include "core/limits.hpp"
#include "train/fixed_task.hpp"

#include <algorithm>
#include <numeric>

namespace apg::train {

namespace sp = tasks::speech;

namespace {

io::Vocabulary transcript_vocabulary() {
    return io::Vocabulary::build({sp::transcript_characters()}, io::Tokenizer::characters);
}

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

// One utterance transcribed greedily: the character ids and each step's weights.
std::vector<int> transcribe(const models::Seq2Seq &model, const std::vector<float> &frames, std::vector<Vec> &weights) {
    std::vector<int> output;
    for (const auto &step : model.greedy(model.encode_audio(frames), special_tokens.start, special_tokens.end)) {
        weights.push_back(step.attention.weights);
        const int best = static_cast<int>(peak(step.probs));
        if (best == special_tokens.end) break;
        output.push_back(best);
    }
    return output;
}

std::string score_text(const SpeechScore &s) {
    return printed("held-out CER %.2f%% (%lld edits / %lld characters), exact match %.2f%% (%d utterances), attention "
                   "monotonic at %.2f%% of %lld steps",
                   100.0 * s.cer, s.edits, s.reference_chars, 100.0 * s.exact_match, s.utterances,
                   100.0 * s.monotonicity, s.steps);
}

// Utterances score from their frames and transcripts alone, which the encoded pairs hold.
struct SpeechDataset final : Dataset {
    HeldoutScore score(const models::Seq2Seq &model, std::size_t limit) const override {
        const SpeechScore s = evaluate_speech(model, heldout.frames, heldout.targets, limit);
        return {s.exact_match,
                static_cast<std::size_t>(s.utterances),
                {{"heldout_cer", s.cer}, {"monotonicity", s.monotonicity}},
                score_text(s)};
    }
};

class SpeechTask final : public FixedTask {
  public:
    SpeechTask()
        : FixedTask({"speech",
                     // BiGRU 32 per direction over the bands, one ×2 time reduction, the rest as
                     // speech_task.hpp says; up to the engine's frame limit, the longest transcript.
                     {.task = "speech",
                      .embedding = 16,
                      .encoder = models::EncoderKind::audio,
                      .encoder_hidden = 32,
                      .bidirectional = true,
                      .input_dim = sp::bands,
                      .reductions = 1,
                      .decoder_hidden = 64,
                      .attention_dim = 32,
                      .max_source_len = limits::max_speech_frames,
                      .max_target_len = sp::max_transcript_chars},
                     {"hears sound", "(embeddings 16, BiGRU 32)"},
                     io::Tokenizer::characters,
                     sp::default_train_utterances,
                     sp::default_heldout_utterances,
                     3000,
                     "utterances"}) {}

    // A phrase of the lexicon, spoken with seed 1 (probe()).
    std::string default_probe() const override { return "how much wood would a woodchuck chuck"; }

    // The phrase spoken with seed 1, rate 1 and noise 0.1; an encoder state per 2^R frames, named
    // by its first frame.
    Probe probe(const std::string &input, const Dataset &, const models::ModelConfig &config) const override {
        std::vector<float> frames = sp::synthesize(input, 1).features;
        const int states = models::audio_config(config).states_for(static_cast<int>(frames.size() / sp::bands));
        const int per_state = 1 << config.reductions;
        Probe p{[frames = std::move(frames)](const models::Seq2Seq &network) { return network.encode_audio(frames); },
                {}};
        for (int j = 0; j < states; ++j) p.source.push_back("t" + std::to_string(j * per_state));
        return p;
    }

    std::string summary(const Dataset &data, const models::ModelConfig &config) const override {
        std::size_t frames = 0;
        for (const auto &f : data.train.frames) frames += f.size() / sp::bands;
        return printed("task speech: %zu train / %zu held-out utterances, %.0f frames on average, %d characters",
                       data.train.size(), data.heldout.size(),
                       static_cast<double>(frames) / static_cast<double>(data.train.size()), config.target_vocab);
    }

    // --phrase P [--seed N] [--rate X] [--noise X]: what was said and heard, and per output
    // character where its attention peaks.
    DecodeReport decode(const io::Model &model, const DecodeRequest &request) const override {
        const auto option = [&](const char *name, const char *fallback) {
            const auto it = request.options.find(name);
            return it == request.options.end() ? std::string(fallback) : it->second;
        };
        const sp::Utterance u =
            sp::synthesize(request.input, static_cast<std::uint64_t>(whole_option("seed", option("seed", "1"))),
                           number_option("rate", option("rate", "1")), number_option("noise", option("noise", "0.1")));
        const models::Seq2Seq &net = model.network();
        std::vector<Vec> weights;
        const std::vector<int> ids = transcribe(net, u.features, weights);
        SpeechScore score;
        score_transcription(ids, model.target_vocab().encode(u.text), weights, score);
        DecodeReport r;
        r.text = printed("said:  %s (%d frames, pitch %+d)\nheard: %s\nCER %.2f%%, attention monotonic at %.2f%% of "
                         "steps\n",
                         u.text.c_str(), u.frames, u.pitch, model.target_vocab().join(ids).c_str(), 100.0 * score.cer,
                         100.0 * score.monotonicity);
        const int positions = models::audio_config(net.config()).states_for(u.frames);
        const int per_state = u.frames / positions + (u.frames % positions ? 1 : 0);
        r.text += printed("\n%d encoder states of %d frames each; per output character, where its attention peaks\n",
                          positions, per_state);
        for (std::size_t i = 0; i < weights.size(); ++i) {
            const Eigen::Index j = peak(weights[i]);
            const int first = static_cast<int>(j) * per_state, last = std::min(u.frames, first + per_state) - 1;
            std::string heard_letter = "-";
            for (const sp::LetterSpan &s : u.spans)
                if (first < s.end && last >= s.begin) {
                    heard_letter = s.letter == ' ' ? "_" : std::string(1, s.letter);
                    break;
                }
            const std::string out = i < ids.size() ? model.target_vocab().token(ids[i]) : "</s>";
            r.text += printed("  %-4s state %3d (%3.0f%%)  frames %3d-%-3d  spoken letter %s\n",
                              out == " " ? "_" : out.c_str(), static_cast<int>(j), 100.0 * weights[i](j), first, last,
                              heard_letter.c_str());
        }
        return r;
    }

    CommandLine command_line() const override {
        CommandLine c = FixedTask::command_line();
        c.input_option = "phrase";
        c.decode_usage = "  apg decode SPEECH_FILE --phrase \"how much wood\" [--seed N] [--rate X] [--noise X]\n";
        return c;
    }

  protected:
    std::unique_ptr<Dataset> draw(std::uint64_t seed, std::size_t train_count, std::size_t heldout_count,
                                  const io::Vocabulary &target) const override {
        sp::SpeechData data = sp::make_speech(seed, train_count, heldout_count);
        auto d = std::make_unique<SpeechDataset>();
        for (auto [samples, pairs] : {std::pair{&data.train, &d->train}, std::pair{&data.heldout, &d->heldout}})
            for (sp::Sample &s : *samples) {
                pairs->targets.push_back(target.encode(s.utterance.text));
                pairs->frames.push_back(std::move(s.utterance.features));
            }
        return d;
    }
    io::Vocabulary target_vocabulary() const override { return transcript_vocabulary(); }
};

const SpeechTask &speech_instance() {
    static const SpeechTask task;
    return task;
}

} // namespace

models::ModelConfig speech_config(attention::ScoreKind score, models::AttentionStyle style) {
    return speech_instance().config(score, style, models::EncoderKind::audio, speech_instance().shape());
}

TrainOptions speech_options() { return speech_task().options(models::EncoderKind::audio); }

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

SpeechScore evaluate_speech(const models::Seq2Seq &model, std::span<const std::vector<float>> frames,
                            std::span<const std::vector<int>> references, std::size_t limit) {
    const std::size_t n = limit == 0 ? frames.size() : std::min(limit, frames.size());
    SpeechScore score;
    for (std::size_t k = 0; k < n; ++k) {
        std::vector<Vec> weights;
        const std::vector<int> output = transcribe(model, frames[k], weights);
        score_transcription(output, references[k], weights, score);
    }
    return score;
}

SpeechScore evaluate_speech(const models::Seq2Seq &model, std::span<const sp::Sample> samples,
                            const io::Vocabulary &target_vocab, std::size_t limit) {
    const std::size_t n = limit == 0 ? samples.size() : std::min(limit, samples.size());
    std::vector<std::vector<float>> frames;
    std::vector<std::vector<int>> references;
    for (std::size_t k = 0; k < n; ++k) {
        frames.push_back(samples[k].utterance.features);
        references.push_back(target_vocab.encode(samples[k].utterance.text));
    }
    return evaluate_speech(model, frames, references);
}

const Task &speech_task() { return speech_instance(); }

} // namespace apg::train
