// One training run from a configuration a person chose: a task (or their own pairs), a score
// function, a style, an encoder, sizes and training options. It builds the data, the
// vocabularies and the model exactly as `apg train` does (the same configuration and seed give
// the same weights), drives the Trainer a few steps at a time, evaluates held-out exact match with
// the alignment of a probe input, and hands out the model: as an io::Model, or as the bytes of
// the CLI's .safetensors file. The trainer module of the page (wasm/trainer/) wraps this class.
//
// A non-finite loss, gradient norm or parameter stops the run: the parameters of the last
// finite step come back, step() reports `diverged` with a message once, and every later step()
// throws StateError(bad_state).
#pragma once

#include "io/model.hpp"
#include "train/pairs.hpp"
#include "train/prepare.hpp"
#include "train/tasks/scenes_prepare.hpp"
#include "train/tasks/speech_prepare.hpp"
#include "train/trainer.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace apg::train {

struct RunConfig {
    // A task of task_names() or "scenes" (captions of images: the recipe of `apg train --task
    // scenes`, a conv encoder; embed, hidden and activation are fixed by it) or "speech" (the
    // same for `apg train --task speech`, an audio encoder; its probe is a phrase of the
    // lexicon, spoken with seed 1); ignored when pairs is set.
    std::string task = "dates";
    std::optional<std::string> pairs; // own source<TAB>target text (pairs.hpp)
    Tokenization tokenization = Tokenization::automatic;
    attention::ScoreKind score = attention::ScoreKind::additive;
    models::AttentionStyle style = models::AttentionStyle::bahdanau;
    models::EncoderKind encoder = models::EncoderKind::gru;
    // Unset: the task's recipe (prepare.hpp). embed is the embedding size (the transformer's
    // model size, a multiple of its 4 heads); hidden is the GRU encoder's state per direction
    // (the decoder's state is 2 · hidden and the additive attention hidden) or the transformer's
    // feed-forward size.
    std::optional<int> embed, hidden;
    std::optional<double> learning_rate;
    std::optional<int> batch, steps;
    std::uint64_t seed = 1;           // data, initialisation and batch order, as `apg train --seed`
    int eval_examples = 200;          // held-out pairs an evaluate() decodes by default
    std::optional<std::string> probe; // the alignment's input (scenes: a scene description); unset: the task's probe
    std::optional<nn::Activation> activation;            // the transformer's feed-forward (recipe: ReLU)
    std::optional<int> location_filters, location_width; // location: kf, r (unset: ModelConfig's 8, 7)
    int eval_every = 0;  // held-out exact match inside step() every this many steps (0: never)
    std::string command; // the training record's "command"; empty: the `apg train` line
};

// An attention score function the trainer can train for a task, and the styles it takes there.
struct ScoreOption {
    attention::ScoreKind kind = attention::ScoreKind::additive;
    std::vector<models::AttentionStyle> styles;
};

// The recipe values a task starts from, its probe, and the score functions it trains, for the page's form.
struct TaskInfo {
    std::string name, probe;
    int steps = 0, batch = 0, embed = 0, hidden = 0;
    double learning_rate = 0;
    io::Tokenizer source_tokenizer = io::Tokenizer::words, target_tokenizer = io::Tokenizer::words;
    // The content-based score functions and location, in that order, each with the styles whose
    // recipe model passes ModelConfig::validate (a kind no style takes is left out). `none` is not
    // among them: it is the baseline without attention, not a score function to race.
    std::vector<ScoreOption> scores;
};
std::vector<TaskInfo> task_infos(models::EncoderKind encoder = models::EncoderKind::gru);
// The defaults for own pairs (the dates recipe's sizes and options, 1,000 steps).
TaskInfo pairs_info(models::EncoderKind encoder = models::EncoderKind::gru);

struct RunProgress : Progress {
    bool done = false;
    bool diverged = false;
    std::string message; // why the run stopped early (divergence), else empty
};

struct ProbeAlignment {
    std::vector<std::string> source; // n source tokens (scenes: the 64 cells row by row, named as the Caption view
                                     // does: column a–h, row 1–8)
    std::vector<std::string> output; // one token per decoding step, the end token included if taken
    Mat weights; // steps × n, row i = the attention weights of step i; 0 × 0 without attention (score none)
};

struct Evaluation {
    int step = 0;
    double heldout_exact_match = -1; // −1 when the data has no held-out pairs
    int examples = 0;                // held-out pairs decoded
    ProbeAlignment probe;
};

class Run {
  public:
    // Validates every field against core/limits.hpp (InputError bad_argument or limit_exceeded
    // with details "name" = the field, "limit"), then builds data, model and trainer. Own pairs
    // throw parse_pairs' errors; a probe the source vocabulary cannot encode throws the
    // vocabulary's error with "probe: " before it.
    explicit Run(RunConfig config);
    Run(const Run &) = delete;
    Run &operator=(const Run &) = delete;

    // Trains up to n (1..limits::max_steps_per_call) mini-batches, fewer at the end of the run.
    // The progress's loss and token accuracy are the means of the batches of this call. Throws
    // StateError(bad_state) once the run diverged or was cancelled; after the last step it
    // returns the progress again with done set.
    RunProgress step(int n);
    // Held-out exact match of the first `limit` held-out pairs (0: eval_examples; at most
    // limits::max_eval_examples) and the probe's alignment from a decoding session's trace.
    Evaluation evaluate(int limit = 0);
    // The model as trained so far, with its vocabularies and training record.
    io::Model snapshot() const;
    // The model with its record's heldout_exact_match over every held-out pair (what apg train
    // writes), and its .safetensors bytes.
    io::Model trained_model() const;
    std::vector<std::uint8_t> save() const { return trained_model().save(); }
    // Stops the run for good and frees the trainer's buffers; the model stays.
    void cancel();

    bool done() const;
    bool diverged() const { return diverged_; }
    const RunConfig &config() const { return config_; }
    const models::ModelConfig &model_config() const { return network_->config(); }
    const models::Seq2Seq &network() const { return *network_; }
    // The vocabularies and the encoded pairs; data().data keeps the task's name, tokenizers and
    // length limits, its examples (as text) are dropped once encoded.
    const PreparedTask &data() const { return task_; }
    const TrainOptions &options() const { return options_; }
    const RunProgress &progress() const { return progress_; }
    // Own pairs only: the count, tokenizer and length histograms parse_pairs read (null for a task;
    // its data moved into data()).
    const PairsData *pairs() const { return pairs_.get(); }

  private:
    nlohmann::json training_record(double heldout, std::size_t examples) const;

    RunConfig config_;
    std::unique_ptr<PairsData> pairs_;
    PreparedTask task_;
    TrainOptions options_;
    std::string probe_;
    std::unique_ptr<models::Seq2Seq> network_; // fixed address: the trainer and Adam point into it
    std::unique_ptr<Trainer> trainer_;
    std::vector<float> last_good_; // the parameters before the step under way
    bool scenes_ = false;
    std::vector<scenes::Sample> scene_heldout_; // scenes: the held-out samples trained_model() scores
    std::vector<std::uint8_t> probe_image_;     // scenes: the probe scene's pixels
    bool speech_ = false;
    std::vector<speech::Sample> speech_heldout_; // speech: the held-out utterances trained_model() scores
    std::vector<float> probe_frames_;            // speech: the probe phrase spoken (seed 1, rate 1, noise 0.1)
    RunProgress progress_;
    std::size_t last_examples_ = 0; // held-out pairs behind progress_.heldout_exact_match
    bool diverged_ = false, cancelled_ = false;
};

} // namespace apg::train
