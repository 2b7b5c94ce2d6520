// One training run from a configuration a person chose: a task (or their own pairs), a score
// function, a style, an encoder, sizes and training options. It builds the data, the
// vocabularies and the model through the task's descriptor (task.hpp) — `apg train` runs this
// class too, so the same configuration and seed give the same weights — drives the Trainer a few
// steps at a time, evaluates held-out exact match with the alignment of a probe input, and hands
// out the model: as an io::Model, or as the bytes of the CLI's .safetensors file. The trainer
// module of the page (wasm/trainer/) wraps this class; this header is all of train/ it reads.
//
// A run diverges when a loss, gradient norm or parameter is not finite, or when a mini-batch's
// loss grows past loss_growth_limit times the first one's (an untrained model's, about ln of the
// target vocabulary; a learning rate far too large drives it to 1e6 while staying finite). Either
// stops the run: the parameters before the step that showed it come back, step() reports
// `diverged` with what happened once, and every later step() throws StateError(bad_state).
#pragma once

#include "io/model.hpp"
#include "tasks/pairs.hpp"
#include "train/task.hpp"
#include "train/trainer.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace apg::train {

struct RunConfig {
    // A task of all_tasks() (a task whose recipe fixes the model refuses embed, hidden, an activation
    // and another encoder); ignored when pairs is set.
    std::string task = "dates";
    std::optional<std::string> pairs;          // own source<TAB>target text (tasks/pairs.hpp)
    std::optional<io::Tokenizer> tokenization; // own pairs: unset picks one
    std::size_t train_count = 0;               // training examples of a generated task; 0: its default
    attention::ScoreKind score = attention::ScoreKind::additive;
    models::AttentionStyle style = models::AttentionStyle::bahdanau;
    models::EncoderKind encoder = models::EncoderKind::gru;
    // transformer: the Transformer decoder (2 layers × 4 heads of the model size embed, score
    // scaled_dot and style luong, which the config then requires); tasks that read tokens only.
    models::DecoderKind decoder = models::DecoderKind::gru;
    // Unset: the task's recipe. embed is the embedding size (the transformer's
    // model size, a multiple of its 4 heads); hidden is the GRU encoder's state per direction
    // (the decoder's state is 2 · hidden and the additive attention hidden) or the transformer's
    // feed-forward size.
    std::optional<int> embed, hidden;
    std::optional<double> learning_rate;
    std::optional<int> batch, steps;
    std::uint64_t seed = 1;                   // data, initialisation and batch order, as `apg train --seed`
    int eval_examples = 200;                  // held-out pairs an evaluate() decodes by default
    std::optional<std::string> probe;         // the alignment's input, as the task reads it; unset: the task's probe
    std::optional<nn::Activation> activation; // the transformer's feed-forward (recipe: ReLU)
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
// Those of all_tasks(), and of own pairs (the text recipe's sizes, 1,000 steps).
std::vector<TaskInfo> task_infos(models::EncoderKind encoder = models::EncoderKind::gru,
                                 models::DecoderKind decoder = models::DecoderKind::gru);
TaskInfo pairs_info(models::EncoderKind encoder = models::EncoderKind::gru,
                    models::DecoderKind decoder = models::DecoderKind::gru);

// A model that has learned anything has a loss below its untrained first one; past ten times that,
// the run is not learning but diverging.
inline constexpr double loss_growth_limit = 10;

// How a run diverged: the page says it in the reader's language from these.
enum class Divergence { none, loss_grew, loss_not_finite, gradient_not_finite, parameters_not_finite };
std::string_view name(Divergence d);

struct RunProgress : Progress {
    bool done = false;
    bool diverged = false;
    std::string message; // why the run stopped early (divergence), else empty
    Divergence divergence = Divergence::none;
    double first_loss = 0;    // the first mini-batch's loss (the untrained model's), 0 before it
    double diverged_loss = 0; // with divergence: the mini-batch loss that showed it (NaN, ±inf or finite)
    int diverged_step = 0;    // with divergence: the step that showed it
};

struct ProbeAlignment {
    std::string text;                // the probe as given: RunConfig::probe, or the data's own
    std::vector<std::string> source; // a name per source position (tokens, grid cells, frames), Probe::source
    std::vector<std::string> output; // one token per decoding step, the end token included if taken
    Mat weights; // steps × n, row i = the attention weights of step i; 0 × 0 without attention (score none)
};

// One held-out pair as the model answers it now, written as text the vocabularies' way (words with
// a space between them, characters without; no start or end token), so no reader has to know how.
struct HeldoutPrediction {
    std::string source; // "" where the source is an image or a sound
    std::string target, output;
    bool correct = false; // the output is the target and the decode ended
};

struct Evaluation {
    // The held-out pairs an evaluation lists, right or wrong: the first ones of the split, the
    // same at every evaluation, so a reader watches the same pairs turn right as a run trains.
    static constexpr std::size_t shown_predictions = 8;

    int step = 0;
    double heldout_exact_match = -1;            // −1 when the data has no held-out pairs
    int examples = 0;                           // held-out pairs decoded
    std::vector<HeldoutPrediction> predictions; // the first min(examples, shown_predictions) of them
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
    // The task's held-out figures over every held-out pair, and the model with them in its record
    // (what apg train writes), and its .safetensors bytes.
    HeldoutScore score() const;
    io::Model trained_model(const HeldoutScore &score) const;
    io::Model trained_model() const { return trained_model(score()); }
    std::vector<std::uint8_t> save() const { return trained_model().save(); }
    // Stops the run for good and frees the trainer's buffers; the model stays.
    void cancel();

    bool done() const;
    bool diverged() const { return diverged_; }
    const RunConfig &config() const { return config_; }
    const models::ModelConfig &model_config() const { return network_->config(); }
    const models::Seq2Seq &network() const { return *network_; }
    const Task &task() const { return *task_; }
    // The vocabularies and the encoded pairs (the examples as text are dropped once encoded).
    const Dataset &data() const { return *data_; }
    const TrainOptions &options() const { return options_; }
    const RunProgress &progress() const { return progress_; }

  private:
    nlohmann::json training_record(double heldout, std::size_t examples) const;

    RunConfig config_;
    const Task *task_;
    std::unique_ptr<Dataset> data_;
    TrainOptions options_;
    Probe probe_;
    std::string probe_text_;                   // what probe_ was made from
    std::unique_ptr<models::Seq2Seq> network_; // fixed address: the trainer and Adam point into it
    std::unique_ptr<Trainer> trainer_;
    std::vector<float> last_good_; // the parameters before the step under way
    RunProgress progress_;
    std::size_t last_examples_ = 0; // held-out pairs behind progress_.heldout_exact_match
    bool diverged_ = false, cancelled_ = false;
};

} // namespace apg::train
