// A task, as the trainer, `apg` and the trainer module see it: everything one kind of data
// needs said about it — which encoders read its input, its recipe (training options and model),
// how its data are made, its probe, how a model of it is scored on held-out data, and how `apg`
// decodes an input of it. Run (run.hpp), the command line (src/cli) and the trainer module
// (wasm/trainer) call these through all_tasks() and never name a task; the text tasks (dates, zh,
// reverse, own pairs), the image task (scenes) and the audio task (speech) are the
// implementations (text_task.hpp, scenes_task.hpp, speech_task.hpp). A new kind of input is one
// more implementation, listed in all_tasks().
#pragma once

#include "io/model.hpp"
#include "train/trainer.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace apg::train {

// Ids of the special tokens every task's vocabularies begin with.
inline constexpr SpecialTokens special_tokens{io::Vocabulary::pad, io::Vocabulary::bos, io::Vocabulary::eos};

// What the model must take: the vocabularies' sizes and the longest source and target.
struct DataShape {
    int source_vocab = 0, target_vocab = 0;
    int max_source_len = 0, max_target_len = 0;
};

// A model's held-out figures: what its training record keeps and `apg` prints.
struct HeldoutScore {
    double exact_match = -1;  // −1 when there is no held-out data
    std::size_t examples = 0; // held-out pairs scored
    // The task's own figures under their training-record keys (attention_hits, heldout_cer, …).
    nlohmann::json figures = nlohmann::json::object();
    std::string text; // as apg prints it: "held-out exact match 99.50% (1000 pairs)"
};

// The vocabularies and the encoded pairs (token ids, images or frames) of one run, and what its
// task needs to score a model on the held-out pairs.
struct Dataset {
    io::Vocabulary source_vocab, target_vocab;
    EncodedPairs train, heldout;
    DataShape shape;
    std::string probe; // the input a run probes by default ("" for none)
    // The training record's command when it is not an apg train line (own pairs), and the fields
    // the record adds (own pairs: their tokenization).
    std::string command;
    nlohmann::json record = nlohmann::json::object();

    virtual ~Dataset() = default;
    // The first `limit` held-out pairs (all if 0) decoded greedily: exact match, and the task's
    // own figures where it has them.
    virtual HeldoutScore score(const models::Seq2Seq &model, std::size_t limit = 0) const;
};

// What a run's data are made from.
struct DataRequest {
    std::uint64_t seed = 1;
    std::size_t train_count = 0, heldout_count = 0; // examples of each side; 0: the task's default
    std::string_view pairs;                         // own pairs' text (the pairs task)
    std::optional<io::Tokenizer> tokenization;      // own pairs: unset picks one (pairs.hpp)
};

// The probe's input as the model's encoder reads it, and a name for each source position.
struct Probe {
    std::function<models::EncoderOutput(const models::Seq2Seq &)> encode;
    std::vector<std::string> source;
};

// A task whose recipe fixes the model (the encoder and every size): how to say so when asked for
// another. "scenes reads images with its conv encoder" / "(embeddings 16, conv 62)".
struct FixedRecipe {
    std::string reads; // what the task's encoder reads, as in "<task> reads images"
    std::string sizes; // its sizes, as in "the fixed sizes of its recipe (…)"
};

// `apg decode`'s input for a model of the task: the text after the model's file (or the value of
// the option the task takes it from), the bytes of the file it names when the task reads files
// of that kind, and every other --key value option.
struct DecodeRequest {
    std::string input;
    std::optional<std::vector<std::uint8_t>> file;
    std::map<std::string, std::string> options;
};
// What `apg decode` prints, and the files it writes: option name → bytes (the path is that
// option's value, e.g. --ppm OUT).
struct DecodeReport {
    std::string text;
    std::map<std::string, std::vector<std::uint8_t>> files;
};

// How `apg` reaches the task beyond --task: the option giving the number of training examples
// (--scenes N), the option `apg decode` reads the input from instead of the text after the file
// (--phrase), the file ending of inputs it reads from a file (.ppm), and its usage lines.
struct CommandLine {
    std::string count_option, input_option, input_file;
    std::string train_usage, decode_usage;
};

class Task {
  public:
    virtual ~Task() = default;

    virtual std::string_view name() const = 0;
    // The encoders that read its input, the default first.
    virtual std::vector<models::EncoderKind> encoders() const = 0;
    // Set when the recipe fixes the model: embed, hidden, an activation or another encoder are
    // refused. Null when they are the person's to choose.
    virtual const FixedRecipe *fixed() const { return nullptr; }
    // The tokenizers of its source and target.
    virtual std::pair<io::Tokenizer, io::Tokenizer> tokenizers() const = 0;
    // The input its runs probe unless told otherwise ("" when it depends on the data).
    virtual std::string default_probe() const = 0;

    // The recipe: the training options, and the model for data of this shape (checked,
    // ModelConfig::validate's errors). size() applies a person's embed and hidden to it (the
    // default refuses nothing and changes nothing: a fixed recipe has refused them already).
    virtual TrainOptions options(models::EncoderKind encoder) const = 0;
    virtual models::ModelConfig config(attention::ScoreKind score, models::AttentionStyle style,
                                       models::EncoderKind encoder, const DataShape &shape) const = 0;
    virtual void size(models::ModelConfig &config, int embed, int hidden) const;

    // The run's data, as apg train makes it from the seed (or the pairs given).
    virtual std::unique_ptr<Dataset> prepare(const DataRequest &request) const = 0;
    // The held-out data a trained model was scored on (apg eval), made again from its record's
    // data seed and sizes, encoded with the model's vocabularies.
    virtual std::unique_ptr<Dataset> heldout(const io::Model &model) const = 0;
    // The probe's input for the model; throws the input's coded error when it is not one.
    virtual Probe probe(const std::string &input, const Dataset &data, const models::ModelConfig &config) const = 0;

    // apg train's line about the data.
    virtual std::string summary(const Dataset &data, const models::ModelConfig &config) const = 0;
    virtual DecodeReport decode(const io::Model &model, const DecodeRequest &request) const = 0;
    virtual CommandLine command_line() const = 0;
};

// The tasks, in the order the page offers them: dates, zh, reverse, scenes, speech.
std::span<const Task *const> all_tasks();
// Own source<TAB>target pairs: a text task whose data are given, not generated (text_task.cpp).
const Task &pairs_task();
// The task of all_tasks() of that name, or null (own pairs come with their text, not by name).
const Task *find_task(std::string_view name);
// The task a model was trained on: by its config's task name, else the first task whose input
// its encoder reads (a hand-made model of any name).
const Task &task_of(const models::ModelConfig &config);

// The options every recipe starts from: Adam at 3e-3 decaying to a tenth, gradients clipped at
// norm 5, batches of 32.
TrainOptions base_options(int steps);
// The size a person chooses as "hidden": the transformer's feed-forward, else the encoder's state.
int hidden_size(const models::ModelConfig &config);
// An option's value as a whole number or a number ("--seed needs an integer, got \"x\"" as
// std::invalid_argument otherwise): the command line's options, and those a task's decode reads.
long long whole_option(const std::string &name, const std::string &value);
float number_option(const std::string &name, const std::string &value);
// printf into a string, for the reports apg prints.
[[gnu::format(printf, 1, 2)]] std::string printed(const char *format, ...);

} // namespace apg::train
