// What the tasks whose recipe fixes the model share (the image task, scenes_task.hpp; the audio
// task, speech_task.hpp): one encoder and the sizes of their recipe, vocabularies that do not
// depend on the data, and a training and a held-out stream drawn from the seed, of which `apg
// eval` draws the held-out one again. An implementation says how its samples are drawn and
// encoded, its model, its probe and its reports.
#pragma once

#include "train/task.hpp"

#include <string>

namespace apg::train {

class FixedTask : public Task {
  public:
    struct Spec {
        std::string name;
        // The recipe's model: its encoder, every size and the longest source and target (the
        // score, style and vocabularies' sizes are filled in by config()).
        models::ModelConfig model;
        FixedRecipe recipe;
        io::Tokenizer tokenizer = io::Tokenizer::words;
        std::size_t train_count = 0, heldout_count = 0; // the default streams' sizes
        int steps = 0;                                  // the recipe's
        std::string count_option;                       // apg train's option for train_count
    };
    explicit FixedTask(Spec spec) : spec_(std::move(spec)) {}

    std::string_view name() const override { return spec_.name; }
    std::vector<models::EncoderKind> encoders() const override { return {spec_.model.encoder}; }
    const FixedRecipe *fixed() const override { return &spec_.recipe; }
    std::pair<io::Tokenizer, io::Tokenizer> tokenizers() const override { return {spec_.tokenizer, spec_.tokenizer}; }
    TrainOptions options(models::EncoderKind) const override { return base_options(spec_.steps); }
    models::ModelConfig config(attention::ScoreKind score, models::AttentionStyle style, models::EncoderKind,
                               const DataShape &shape) const override;
    std::unique_ptr<Dataset> prepare(const DataRequest &request) const override;
    // The held-out side alone: a stream without training samples passes over them undrawn and
    // yields the same held-out ones.
    std::unique_ptr<Dataset> heldout(const io::Model &model) const override;
    // The count option and the train usage line; an implementation adds how decode reads its input.
    CommandLine command_line() const override;
    // The shape of its data: the vocabularies' sizes (the source's the specials only: the source
    // is not tokens) and the recipe's lengths.
    DataShape shape() const;

  protected:
    // The first train_count training and heldout_count held-out samples of the seed's streams, as
    // the trainer eats them (their targets encoded with `target`), in the task's Dataset.
    virtual std::unique_ptr<Dataset> draw(std::uint64_t seed, std::size_t train_count, std::size_t heldout_count,
                                          const io::Vocabulary &target) const = 0;
    virtual io::Vocabulary target_vocabulary() const = 0;

  private:
    std::unique_ptr<Dataset> drawn(std::uint64_t seed, std::size_t train_count, std::size_t heldout_count,
                                   io::Vocabulary source, io::Vocabulary target) const;
    Spec spec_;
};

} // namespace apg::train
