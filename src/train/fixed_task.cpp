#include "train/fixed_task.hpp"

namespace apg::train {

models::ModelConfig FixedTask::config(attention::ScoreKind score, models::AttentionStyle style, models::EncoderKind,
                                      const DataShape &shape) const {
    models::ModelConfig c = spec_.model;
    c.task = spec_.name;
    c.score = score;
    c.style = style;
    c.source_vocab = shape.source_vocab;
    c.target_vocab = shape.target_vocab;
    // A conv encoder's source is its grid, whatever the data: the recipe's, even for the check
    // without data that Run makes first.
    if (c.encoder != models::EncoderKind::conv) c.max_source_len = shape.max_source_len;
    c.max_target_len = shape.max_target_len;
    c.validate();
    return c;
}

DataShape FixedTask::shape() const {
    return {io::Vocabulary::build({}, spec_.tokenizer).size(), target_vocabulary().size(), spec_.model.max_source_len,
            spec_.model.max_target_len};
}

std::unique_ptr<Dataset> FixedTask::drawn(std::uint64_t seed, std::size_t train_count, std::size_t heldout_count,
                                          io::Vocabulary source, io::Vocabulary target) const {
    auto d = draw(seed, train_count, heldout_count, target);
    d->source_vocab = std::move(source);
    d->target_vocab = std::move(target);
    d->shape = shape();
    return d;
}

std::unique_ptr<Dataset> FixedTask::prepare(const DataRequest &request) const {
    auto d = drawn(request.seed, request.train_count ? request.train_count : spec_.train_count,
                   request.heldout_count ? request.heldout_count : spec_.heldout_count,
                   io::Vocabulary::build({}, spec_.tokenizer), target_vocabulary());
    d->probe = default_probe();
    return d;
}

std::unique_ptr<Dataset> FixedTask::heldout(const io::Model &model) const {
    const auto &training = model.training();
    return drawn(training.value("data_seed", std::uint64_t{1}), 0, training.value("heldout_pairs", spec_.heldout_count),
                 model.source_vocab(), model.target_vocab());
}

CommandLine FixedTask::command_line() const {
    CommandLine c;
    c.count_option = spec_.count_option;
    c.train_usage = "  apg train --task " + spec_.name + " --score S --style bahdanau|luong --seed N --out FILE [--" +
                    spec_.count_option + " N] [...]\n";
    return c;
}

} // namespace apg::train
