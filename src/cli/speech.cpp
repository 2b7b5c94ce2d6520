#include "cli/speech.hpp"
#include "cli/output.hpp"

#include "train/tasks/speech_prepare.hpp"

#include <cstdio>
#include <stdexcept>

namespace apg::cli {

namespace {

namespace sp = train::speech;

const train::SpecialTokens specials{io::Vocabulary::pad, io::Vocabulary::bos, io::Vocabulary::eos};

void print_score(const train::SpeechScore &s) {
    std::printf("held-out CER %.2f%% (%lld edits / %lld characters), exact match %.2f%% (%d utterances), attention "
                "monotonic at %.2f%% of %lld steps\n",
                100.0 * s.cer, s.edits, s.reference_chars, 100.0 * s.exact_match, s.utterances, 100.0 * s.monotonicity,
                s.steps);
}

} // namespace

int train_speech(const SpeechTraining &r) {
    const std::size_t train_count = r.utterances ? r.utterances : sp::default_train_utterances;
    train::PreparedSpeech task = train::prepare_speech(r.seed, train_count);
    const models::ModelConfig config = train::speech_config(r.score, r.style);
    train::TrainOptions options = train::speech_options();
    options.seed = r.seed;
    if (r.steps) options.steps = r.steps;
    if (r.batch) options.batch_size = r.batch;
    if (r.learning_rate > 0) options.learning_rate = r.learning_rate;
    options.eval_every = r.eval_every;
    options.eval_examples = 100;
    std::size_t frames = 0;
    for (const auto &f : task.train.frames) frames += f.size() / sp::bands;
    std::fprintf(stderr, "task speech: %zu train / %zu held-out utterances, %.0f frames on average, %d characters\n",
                 task.train.size(), task.heldout.size(),
                 static_cast<double>(frames) / static_cast<double>(task.train.size()), config.target_vocab);
    models::Seq2Seq network(config, r.seed);
    train::Trainer trainer(network, task.train, task.heldout, specials, options);
    const train::Progress last = trainer.run(
        [&](const train::Progress &p) {
            if (!r.quiet) print_progress(p, "held-out exact");
            return true;
        },
        100);
    const train::SpeechScore score = train::evaluate_speech(network, task.data.heldout, task.target_vocab);
    const nlohmann::json training =
        train::speech_record(r.command_line, r.seed, options, task.train.size(), task.heldout.size(), score);
    io::Model model(std::move(network), task.source_vocab, task.target_vocab, training);
    const auto bytes = model.save();
    write_file(r.out, bytes);
    std::printf("%s: ", r.out.c_str());
    print_score(score);
    std::printf("%.0f seq/s, %.0f s, %zu bytes\n", last.sequences_per_second, last.elapsed_seconds, bytes.size());
    return 0;
}

int eval_speech(const io::Model &model, const std::string &path, std::size_t limit) {
    const auto seed = model.training().value("data_seed", std::uint64_t{1});
    const sp::SpeechData data =
        sp::make_speech(seed, model.training().value("train_pairs", sp::default_train_utterances),
                        model.training().value("heldout_pairs", sp::default_heldout_utterances));
    const train::SpeechScore score = train::evaluate_speech(model.network(), data.heldout, model.target_vocab(), limit);
    std::printf("%s: task speech, encoder audio, score %s, style %s: ", path.c_str(),
                std::string(attention::name(model.config().score)).c_str(),
                std::string(models::name(model.config().style)).c_str());
    print_score(score);
    return 0;
}

int decode_speech(const io::Model &model, const std::string &phrase, std::uint64_t seed, float rate, float noise) {
    const sp::Utterance u = sp::synthesize(phrase, seed, rate, noise);
    const models::Seq2Seq &net = model.network();
    const models::EncoderOutput encoded = net.encode_audio(u.features);
    std::vector<int> ids;
    std::vector<Vec> weights;
    for (const auto &s : net.greedy(encoded, specials.start, specials.end)) {
        weights.push_back(s.attention.weights);
        Eigen::Index best;
        s.probs.maxCoeff(&best);
        if (best == specials.end) break;
        ids.push_back(static_cast<int>(best));
    }
    train::SpeechScore score;
    train::score_transcription(ids, model.target_vocab().encode(u.text), weights, score);
    std::printf("said:  %s (%d frames, pitch %+d)\nheard: %s\nCER %.2f%%, attention monotonic at %.2f%% of steps\n",
                u.text.c_str(), u.frames, u.pitch, model.target_vocab().join(ids).c_str(), 100.0 * score.cer,
                100.0 * score.monotonicity);
    const int per_state = u.frames / static_cast<int>(encoded.states.rows()) +
                          (u.frames % static_cast<int>(encoded.states.rows()) ? 1 : 0);
    std::printf("\n%d encoder states of %d frames each; per output character, where its attention peaks\n",
                static_cast<int>(encoded.states.rows()), per_state);
    for (std::size_t i = 0; i < weights.size(); ++i) {
        Eigen::Index j;
        const float w = weights[i].maxCoeff(&j);
        const int first = static_cast<int>(j) * per_state, last = std::min(u.frames, first + per_state) - 1;
        std::string heard_letter = "-";
        for (const sp::LetterSpan &s : u.spans)
            if (first < s.end && last >= s.begin) {
                heard_letter = s.letter == ' ' ? "_" : std::string(1, s.letter);
                break;
            }
        const std::string out = i < ids.size() ? model.target_vocab().token(ids[i]) : "</s>";
        std::printf("  %-4s state %3d (%3.0f%%)  frames %3d-%-3d  spoken letter %s\n", out == " " ? "_" : out.c_str(),
                    static_cast<int>(j), 100.0 * w, first, last, heard_letter.c_str());
    }
    return 0;
}

} // namespace apg::cli
