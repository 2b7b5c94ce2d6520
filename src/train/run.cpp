#include "train/run.hpp"

#include "core/error.hpp"
#include "core/limits.hpp"
#include "core/quote.hpp"
#include "decode/session.hpp"
#include "models/transformer_decoder.hpp"
#include "train/budget.hpp"
#include "train/text_task.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace apg::train {

namespace {

std::string number_text(double d) {
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", d);
    return text;
}

[[noreturn]] void bad_field(const char *name, const std::string &why, Details details = {}) {
    details.insert(details.begin(), {"name", std::string(name)});
    throw InputError(ErrorCode::bad_argument, std::string(name) + ": " + why, std::move(details));
}

[[noreturn]] void out_of_range(const char *name, const std::string &range, const std::string &got, double lo,
                               double hi) {
    bad_field(name, "expected " + range + ", got " + got, {{"min", lo}, {"limit", hi}});
}

int checked_int(const char *name, int value, int lo, int hi) {
    if (value < lo || value > hi)
        out_of_range(name, "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi),
                     std::to_string(value), lo, hi);
    return value;
}

// A shape for checking a recipe before there are data: whether a score function fits a style
// and an encoder does not depend on the vocabularies or lengths.
constexpr DataShape no_data{4, 4, 1, 1};

// The Transformer decoder's recipe on a task's model: model size embed; feed-forward the Transformer
// encoder's (hidden), or twice the model size over the BiGRU, whose states are projected to it.
void with_decoder(models::ModelConfig &mc, models::DecoderKind decoder, int embed, int hidden) {
    if (decoder != models::DecoderKind::transformer) return;
    transformer_decoder_recipe(mc, embed, mc.encoder == models::EncoderKind::transformer ? hidden : 2 * embed);
}

std::vector<ScoreOption> trainable_scores(const Task &task, models::EncoderKind encoder, models::DecoderKind decoder,
                                          int embed, int hidden) {
    std::vector<attention::ScoreKind> kinds(attention::all_score_kinds.begin(), attention::all_score_kinds.end());
    kinds.push_back(attention::ScoreKind::location);
    std::vector<ScoreOption> out;
    for (const auto kind : kinds) {
        ScoreOption option{kind, {}};
        for (const auto style : {models::AttentionStyle::bahdanau, models::AttentionStyle::luong}) try {
                models::ModelConfig mc = task.config(kind, style, encoder, no_data);
                with_decoder(mc, decoder, embed, hidden);
                mc.validate();
                option.styles.push_back(style);
            } catch (const Error &) {
                // this style cannot take the kind: not offered with it
            }
        if (!option.styles.empty()) out.push_back(std::move(option));
    }
    return out;
}

// What the page's form starts from: the recipe's options and its additive Bahdanau model.
TaskInfo info_of(const Task &task, models::EncoderKind encoder, models::DecoderKind decoder) {
    if (task.fixed()) {
        encoder = task.encoders().front();
        decoder = models::DecoderKind::gru;
    }
    TrainOptions o = task.options(encoder);
    // The Transformer decoder learns position from scratch, so it needs the Transformer encoder's
    // longer schedule whichever encoder reads the source.
    if (decoder == models::DecoderKind::transformer) o.steps = std::max(o.steps, transformer_decoder_steps);
    const models::ModelConfig mc =
        task.config(attention::ScoreKind::additive, models::AttentionStyle::bahdanau, encoder, no_data);
    TaskInfo t;
    t.name = std::string(task.name());
    t.probe = task.default_probe();
    t.steps = o.steps;
    t.batch = o.batch_size;
    t.learning_rate = o.learning_rate;
    // A Transformer decoder over either encoder: model size 32, feed-forward 64 (the BiGRU's states
    // are projected to 32).
    const bool transformer = decoder == models::DecoderKind::transformer;
    t.embed = transformer ? 32 : mc.embedding;
    t.hidden = transformer ? 64 : hidden_size(mc);
    std::tie(t.source_tokenizer, t.target_tokenizer) = task.tokenizers();
    t.scores = trainable_scores(task, encoder, decoder, t.embed, t.hidden);
    return t;
}

const Task &task_for(const RunConfig &c) {
    if (c.pairs) return pairs_task();
    if (const Task *t = find_task(c.task)) return *t;
    // the registry's names as a sentence: "a, b or c"
    std::string names;
    const auto all = all_tasks();
    for (std::size_t k = 0; k < all.size(); ++k)
        names += (k == 0 ? "" : k + 1 == all.size() ? " or " : ", ") + std::string(all[k]->name());
    throw InputError(ErrorCode::bad_argument,
                     "task: expected " + names + " (or own pairs), got " + quote(c.task.substr(0, 32)),
                     {{"name", std::string("task")}});
}

// A task whose recipe fixes the model: a value for what it fixes is a mistake, not a wish to ignore.
void check_fixed(const Task &task, const RunConfig &c) {
    const FixedRecipe *fixed = task.fixed();
    if (!fixed) return;
    const std::string name(task.name());
    const models::EncoderKind own = task.encoders().front();
    // gru is the configuration's default, not a choice.
    if (c.encoder != own && c.encoder != models::EncoderKind::gru)
        bad_field("encoder", name + " " + fixed->reads + " with its " + std::string(models::name(own)) +
                                 " encoder, not a " + std::string(models::name(c.encoder)));
    const std::string sizes = name + " has the fixed sizes of its recipe " + fixed->sizes;
    if (c.embed) bad_field("embed", sizes);
    if (c.hidden) bad_field("hidden", sizes);
    if (c.activation) bad_field("activation", name + " has no transformer feed-forward");
    if (c.decoder != models::DecoderKind::gru) bad_field("decoder", name + " has the GRU decoder of its recipe");
}

bool all_finite(const std::vector<core::TensorRef> &refs) {
    for (const auto &r : refs)
        for (float x : r.data)
            if (!std::isfinite(x)) return false;
    return true;
}

void copy_out(const std::vector<core::TensorRef> &refs, std::vector<float> &flat) {
    std::size_t at = 0;
    for (const auto &r : refs) {
        std::copy(r.data.begin(), r.data.end(), flat.begin() + static_cast<std::ptrdiff_t>(at));
        at += r.data.size();
    }
}

void copy_in(const std::vector<float> &flat, const std::vector<core::TensorRef> &refs) {
    std::size_t at = 0;
    for (const auto &r : refs) {
        std::copy_n(flat.begin() + static_cast<std::ptrdiff_t>(at), r.data.size(), r.data.begin());
        at += r.data.size();
    }
}

} // namespace

std::string_view name(Divergence d) {
    switch (d) {
    case Divergence::none:
        return "none";
    case Divergence::loss_grew:
        return "loss_grew";
    case Divergence::loss_not_finite:
        return "loss_not_finite";
    case Divergence::gradient_not_finite:
        return "gradient_not_finite";
    case Divergence::parameters_not_finite:
        return "parameters_not_finite";
    }
    return "none";
}

std::vector<TaskInfo> task_infos(models::EncoderKind encoder, models::DecoderKind decoder) {
    std::vector<TaskInfo> out;
    for (const Task *task : all_tasks()) out.push_back(info_of(*task, encoder, decoder));
    return out;
}

TaskInfo pairs_info(models::EncoderKind encoder, models::DecoderKind decoder) {
    return info_of(pairs_task(), encoder, decoder);
}

Run::Run(RunConfig config) : config_(std::move(config)), task_(&task_for(config_)) {
    const RunConfig &c = config_;
    const Task &task = *task_;
    check_fixed(task, c);
    const models::EncoderKind encoder = task.fixed() ? task.encoders().front() : c.encoder;
    const models::DecoderKind decoder = task.fixed() ? models::DecoderKind::gru : c.decoder;
    const TaskInfo recipe = info_of(task, encoder, decoder);
    const int embed = checked_int("embed", c.embed.value_or(recipe.embed), 1, limits::max_train_dim);
    const int hidden = checked_int("hidden", c.hidden.value_or(recipe.hidden), 1, limits::max_train_dim);
    const int steps = checked_int("steps", c.steps.value_or(recipe.steps), 1, limits::max_train_steps);
    const int batch = checked_int("batch", c.batch.value_or(recipe.batch), 1, limits::max_train_batch);
    const double lr = c.learning_rate.value_or(recipe.learning_rate);
    if (!(lr >= limits::min_learning_rate && lr <= limits::max_learning_rate))
        out_of_range("learningRate",
                     "a number from " + number_text(limits::min_learning_rate) + " to " +
                         number_text(limits::max_learning_rate),
                     number_text(lr), limits::min_learning_rate, limits::max_learning_rate);
    if (c.seed > limits::max_seed)
        out_of_range("seed", "a whole number from 0 to " + std::to_string(limits::max_seed), std::to_string(c.seed), 0,
                     static_cast<double>(limits::max_seed));
    checked_int("evalExamples", c.eval_examples, 1, limits::max_eval_examples);
    checked_int("evalEvery", c.eval_every, 0, limits::max_train_steps);
    if (c.probe && c.probe->size() > 4 * static_cast<std::size_t>(limits::max_input_chars))
        out_of_range("probe", "a text of at most " + std::to_string(limits::max_input_chars) + " characters",
                     std::to_string(c.probe->size()) + " bytes", 0, limits::max_input_chars);

    // The model for data of a shape: the task's recipe with the person's sizes (checked by
    // ModelConfig::validate, whose coded error names the field), first without data, so a
    // configuration no data can fix is refused before any are made.
    const auto model_for = [&](const DataShape &shape) {
        models::ModelConfig mc = task.config(c.score, c.style, encoder, shape);
        task.size(mc, embed, hidden);
        with_decoder(mc, decoder, embed, hidden);
        if (c.activation) mc.activation = *c.activation;
        if (c.location_filters) mc.location_filters = *c.location_filters;
        if (c.location_width) mc.location_width = *c.location_width;
        mc.validate();
        return mc;
    };
    model_for(no_data);

    // The data, as apg train makes it from the seed (or the pairs given).
    data_ = task.prepare(
        {c.seed, c.train_count, 0, c.pairs ? std::string_view(*c.pairs) : std::string_view(), c.tokenization});
    const models::ModelConfig mc = model_for(data_->shape);

    options_ = task.options(encoder);
    options_.seed = c.seed;
    options_.steps = steps;
    options_.batch_size = batch;
    options_.learning_rate = static_cast<float>(lr);
    options_.eval_examples = c.eval_examples;
    options_.eval_every = c.eval_every;

    try {
        probe_text_ = c.probe.value_or(data_->probe);
        probe_ = task.probe(probe_text_, *data_, mc);
    } catch (const Error &e) {
        Details details = e.details();
        details.insert(details.begin(), {"name", std::string("probe")});
        throw InputError(e.code(), "probe: " + std::string(e.text()), std::move(details));
    }

    // A run evaluates what it trains, so a module that trains a Transformer decoder decodes with it.
    if (mc.decoder == models::DecoderKind::transformer) models::register_transformer_decoder();
    check_run_memory(mc, options_, data_->train);
    // The model as apg train initialises it: Seq2Seq(config, seed).
    network_ = std::make_unique<models::Seq2Seq>(mc, c.seed);
    trainer_ = std::make_unique<Trainer>(*network_, data_->train, data_->heldout, special_tokens, options_);
    std::size_t count = 0;
    for (const auto &r : network_->tensors()) count += r.data.size();
    last_good_.resize(count);
    progress_.total_steps = steps;
}

bool Run::done() const { return cancelled_ || diverged_ || !trainer_ || trainer_->done(); }

RunProgress Run::step(int n) {
    if (diverged_)
        throw StateError(ErrorCode::bad_state, "step: the run diverged: " + progress_.message,
                         {{"name", std::string("step")}});
    if (cancelled_)
        throw StateError(ErrorCode::bad_state, "step: the run was cancelled", {{"name", std::string("step")}});
    checked_int("n", n, 1, limits::max_steps_per_call);
    if (!trainer_) return progress_;

    const std::vector<core::TensorRef> refs = network_->tensors();
    double loss = 0, accuracy = 0;
    int taken = 0;
    while (taken < n && !trainer_->done()) {
        copy_out(refs, last_good_);
        const Progress p = trainer_->step();
        if (progress_.first_loss == 0) progress_.first_loss = p.loss;
        const Divergence divergence = !std::isfinite(p.loss)        ? Divergence::loss_not_finite
                                      : !std::isfinite(p.grad_norm) ? Divergence::gradient_not_finite
                                      : !all_finite(refs)           ? Divergence::parameters_not_finite
                                      : p.loss > loss_growth_limit * progress_.first_loss ? Divergence::loss_grew
                                                                                          : Divergence::none;
        if (divergence != Divergence::none) {
            copy_in(last_good_, refs);
            diverged_ = true;
            const auto nonfinite = [](double x) { return std::string(std::isnan(x) ? "NaN" : "infinite"); };
            const std::string what =
                divergence == Divergence::loss_grew
                    ? "loss grew from " + number_text(progress_.first_loss) + " at step 1 to " + number_text(p.loss)
                : divergence == Divergence::loss_not_finite     ? "loss became " + nonfinite(p.loss)
                : divergence == Divergence::gradient_not_finite ? "gradient norm became " + nonfinite(p.grad_norm)
                                                                : std::string("parameters became non-finite");
            progress_.message = "the " + what + " at step " + std::to_string(p.step) + " (learning rate " +
                                number_text(p.learning_rate) +
                                "): try a smaller learning rate; the parameters of step " + std::to_string(p.step - 1) +
                                " were kept";
            progress_.divergence = divergence;
            progress_.diverged_loss = p.loss;
            progress_.diverged_step = p.step;
            progress_.diverged = true;
            progress_.done = true;
            progress_.elapsed_seconds = p.elapsed_seconds;
            progress_.learning_rate = p.learning_rate;
            if (taken > 0) {
                progress_.loss = loss / taken;
                progress_.token_accuracy = accuracy / taken;
            }
            trainer_.reset(); // frees the gradients, the optimiser's moments and the workspace
            return progress_;
        }
        loss += p.loss;
        accuracy += p.token_accuracy;
        ++taken;
        // The trainer's own evaluations (eval_every) count only when it made a new one.
        const double heldout = progress_.heldout_exact_match;
        const bool evaluated = options_.eval_every > 0 && p.step % options_.eval_every == 0;
        static_cast<Progress &>(progress_) = p;
        if (evaluated)
            last_examples_ = std::min(data_->heldout.size(), static_cast<std::size_t>(options_.eval_examples));
        else
            progress_.heldout_exact_match = heldout;
    }
    if (taken > 0) {
        progress_.loss = loss / taken;
        progress_.token_accuracy = accuracy / taken;
    }
    progress_.done = trainer_->done();
    if (progress_.done) trainer_.reset();
    return progress_;
}

Evaluation Run::evaluate(int limit) {
    checked_int("limit", limit, 0, limits::max_eval_examples);
    const std::size_t wanted = static_cast<std::size_t>(limit == 0 ? config_.eval_examples : limit);
    Evaluation e;
    e.step = progress_.step;
    e.examples = static_cast<int>(std::min(wanted, data_->heldout.size()));
    if (e.examples > 0) {
        const EncodedPairs &heldout = data_->heldout;
        e.heldout_exact_match =
            exact_match(*network_, heldout, special_tokens, wanted, [&](std::size_t k, const PairOutcome &o) {
                if (k >= Evaluation::shown_predictions) return;
                HeldoutPrediction p;
                if (k < heldout.sources.size()) p.source = data_->source_vocab.join(heldout.sources[k]);
                p.target = data_->target_vocab.join(heldout.targets[k]);
                p.output = data_->target_vocab.join(o.output);
                p.correct = o.hit;
                e.predictions.push_back(std::move(p));
            });
        progress_.heldout_exact_match = e.heldout_exact_match;
        last_examples_ = static_cast<std::size_t>(e.examples);
    }
    decode::SessionOptions options;
    options.start_id = special_tokens.start;
    options.end_id = special_tokens.end;
    decode::DecodeSession session(*network_, probe_.encode(*network_), options);
    session.run();
    const auto &steps = session.steps();
    e.probe.text = probe_text_;
    e.probe.source = probe_.source;
    // Without attention (score none) the decoder weighs no source token: the alignment is empty.
    const bool attends = network_->config().score != attention::ScoreKind::none;
    e.probe.weights.resize(attends ? static_cast<Eigen::Index>(steps.size()) : 0,
                           attends ? static_cast<Eigen::Index>(e.probe.source.size()) : 0);
    for (std::size_t i = 0; i < steps.size(); ++i) {
        e.probe.output.push_back(data_->target_vocab.token(steps[i].token));
        if (attends) e.probe.weights.row(static_cast<Eigen::Index>(i)) = steps[i].step.attention.weights.transpose();
    }
    return e;
}

nlohmann::json Run::training_record(double heldout, std::size_t examples) const {
    const RunConfig &c = config_;
    const models::ModelConfig &mc = network_->config();
    std::string command = c.command.empty() ? data_->command : c.command;
    if (command.empty()) {
        // The apg train line that makes this model: the flags of what the recipe leaves free.
        command = "apg train --task " + c.task + " --score " + std::string(attention::name(c.score)) + " --style " +
                  std::string(models::name(c.style)) + " --seed " + std::to_string(c.seed) + " --out " + c.task +
                  ".safetensors";
        if (!task_->fixed()) {
            if (mc.encoder != task_->encoders().front())
                command += " --encoder " + std::string(models::name(mc.encoder));
            if (mc.decoder != models::DecoderKind::gru)
                command += " --decoder " + std::string(models::name(mc.decoder));
            if (c.score == attention::ScoreKind::location)
                command += " --location-filters " + std::to_string(mc.location_filters) + " --location-width " +
                           std::to_string(mc.location_width);
        }
        command += " --steps " + std::to_string(options_.steps) + " --batch " + std::to_string(options_.batch_size) +
                   " --lr " + number_text(options_.learning_rate);
    }
    nlohmann::json record = {{"command", command},
                             {"encoder", std::string(models::name(mc.encoder))},
                             {"seed", c.seed},
                             {"data_seed", c.seed},
                             {"steps", options_.steps},
                             {"batch_size", options_.batch_size},
                             {"learning_rate", options_.learning_rate},
                             {"final_lr_fraction", options_.final_lr_fraction},
                             {"clip_norm", options_.clip_norm},
                             {"train_pairs", data_->train.size()},
                             {"heldout_pairs", data_->heldout.size()},
                             {"heldout_exact_match", heldout >= 0 ? nlohmann::json(heldout) : nlohmann::json()}};
    if (mc.decoder != models::DecoderKind::gru) record["decoder"] = std::string(models::name(mc.decoder));
    if (examples != data_->heldout.size()) record["heldout_examples"] = examples;
    if (progress_.step != options_.steps) record["steps_done"] = progress_.step;
    if (diverged_) record["diverged"] = progress_.message;
    record.update(data_->record);
    return record;
}

io::Model Run::snapshot() const {
    return io::Model(models::Seq2Seq(network_->config(), network_->parameters()), data_->source_vocab,
                     data_->target_vocab, training_record(progress_.heldout_exact_match, last_examples_));
}

HeldoutScore Run::score() const { return data_->score(*network_); }

io::Model Run::trained_model(const HeldoutScore &score) const {
    nlohmann::json record = training_record(score.exact_match, score.examples);
    record.update(score.figures);
    return io::Model(models::Seq2Seq(network_->config(), network_->parameters()), data_->source_vocab,
                     data_->target_vocab, std::move(record));
}

void Run::cancel() {
    cancelled_ = true;
    trainer_.reset();
    progress_.done = true;
}

} // namespace apg::train
