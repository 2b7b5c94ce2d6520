#include "train/run.hpp"

#include "core/error.hpp"
#include "core/limits.hpp"
#include "core/quote.hpp"
#include "decode/session.hpp"
#include "train/budget.hpp"
#include "train/tasks/encode.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace apg::train {

namespace {

constexpr SpecialTokens kTokens{io::Vocabulary::pad, io::Vocabulary::bos, io::Vocabulary::eos};

// The input the page's alignment snapshots decode: one that shows the task's pattern (the
// reordering of zh's time and place phrases, the anti-diagonal of reverse).
// scenes: the first held-out scene of seed 1, whose composition no seed trains on (held-out
// compositions are chosen by their hash), so every run is probed on the same unseen picture.
std::string task_probe(std::string_view task) {
    if (task == "scenes") return scenes::describe(scenes::make_scenes(1, 0, 1).heldout.front().scene);
    if (task == "speech") return "how much wood would a woodchuck chuck";
    if (task == "dates") return "29 november 2026";
    if (task == "zh") return "tom chased jerry in the kitchen yesterday";
    return "abcdefj";
}

std::string number_text(double d) {
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", d);
    return text;
}

[[noreturn]] void out_of_range(const char *name, const std::string &range, const std::string &got, double lo,
                               double hi) {
    throw InputError(ErrorCode::bad_argument, std::string(name) + ": expected " + range + ", got " + got,
                     {{"name", std::string(name)}, {"min", lo}, {"limit", hi}});
}

int checked_int(const char *name, int value, int lo, int hi) {
    if (value < lo || value > hi)
        out_of_range(name, "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi),
                     std::to_string(value), lo, hi);
    return value;
}

// The recipe's model for a task, score and style, checked (ModelConfig::validate throws its coded
// error); the text tasks' vocabularies and lengths do not change which kinds fit, so none is built.
void check_recipe(std::string_view task, attention::ScoreKind score, models::AttentionStyle style,
                  models::EncoderKind encoder) {
    if (task == "scenes") {
        scenes_config(score, style);
    } else if (task == "speech") {
        speech_config(score, style);
    } else {
        PreparedTask stub;
        stub.data.name = std::string(task);
        stub.data.max_source_len = stub.data.max_target_len = 1;
        stub.source_vocab = stub.target_vocab = io::Vocabulary::build({}, io::Tokenizer::characters);
        recipe_config(stub, score, style, encoder);
    }
}

std::vector<ScoreOption> trainable_scores(std::string_view task, models::EncoderKind encoder) {
    std::vector<attention::ScoreKind> kinds(attention::all_score_kinds.begin(), attention::all_score_kinds.end());
    kinds.push_back(attention::ScoreKind::location);
    std::vector<ScoreOption> out;
    for (const auto kind : kinds) {
        ScoreOption option{kind, {}};
        for (const auto style : {models::AttentionStyle::bahdanau, models::AttentionStyle::luong}) try {
                check_recipe(task, kind, style, encoder);
                option.styles.push_back(style);
            } catch (const Error &) {
                // this style cannot take the kind: not offered with it
            }
        if (!option.styles.empty()) out.push_back(std::move(option));
    }
    return out;
}

// A task whose recipe fixes the model (scenes, speech): its info read off the recipe's options
// and its additive Bahdanau model, so the page shows what apg train would use.
TaskInfo recipe_info(std::string name, const TrainOptions &o, const models::ModelConfig &mc,
                     models::EncoderKind encoder) {
    TaskInfo t;
    t.probe = task_probe(name);
    t.steps = o.steps;
    t.batch = o.batch_size;
    t.learning_rate = o.learning_rate;
    t.embed = mc.embedding;
    t.hidden = mc.encoder_hidden;
    t.scores = trainable_scores(name, encoder);
    t.name = std::move(name);
    return t;
}

TaskInfo scenes_info() {
    return recipe_info("scenes", scenes_options(),
                       scenes_config(attention::ScoreKind::additive, models::AttentionStyle::bahdanau),
                       models::EncoderKind::conv);
}

TaskInfo speech_info() {
    TaskInfo t = recipe_info("speech", speech_options(),
                             speech_config(attention::ScoreKind::additive, models::AttentionStyle::bahdanau),
                             models::EncoderKind::audio);
    t.source_tokenizer = t.target_tokenizer = io::Tokenizer::characters;
    return t;
}

TaskInfo info_for(std::string name, models::EncoderKind encoder) {
    if (name == "scenes") return scenes_info();
    if (name == "speech") return speech_info();
    TaskInfo t;
    const bool pairs = name == "pairs";
    const TrainOptions o = recipe_options(pairs ? "dates" : name, encoder);
    t.name = name;
    t.probe = pairs ? "" : task_probe(name);
    t.steps = pairs ? (encoder == models::EncoderKind::gru ? 1000 : 3000) : o.steps;
    t.batch = o.batch_size;
    t.learning_rate = o.learning_rate;
    // recipe_config's sizes (prepare.cpp).
    t.embed = encoder == models::EncoderKind::gru ? 32 : 64;
    t.hidden = encoder == models::EncoderKind::gru ? 64 : 128;
    if (name == "dates" || name == "reverse") t.source_tokenizer = t.target_tokenizer = io::Tokenizer::characters;
    t.scores = trainable_scores(pairs ? "dates" : name, encoder);
    return t;
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

std::vector<TaskInfo> task_infos(models::EncoderKind encoder) {
    std::vector<TaskInfo> out;
    for (const auto &name : task_names()) out.push_back(info_for(name, encoder));
    out.push_back(scenes_info());
    out.push_back(speech_info());
    return out;
}

TaskInfo pairs_info(models::EncoderKind encoder) { return info_for("pairs", encoder); }

Run::Run(RunConfig config) : config_(std::move(config)) {
    const RunConfig &c = config_;
    const bool own = c.pairs.has_value();
    scenes_ = !own && c.task == "scenes";
    speech_ = !own && c.task == "speech";
    if (!own && !scenes_ && !speech_) {
        const auto names = task_names();
        if (std::find(names.begin(), names.end(), c.task) == names.end())
            throw InputError(ErrorCode::bad_argument,
                             "task: expected dates, zh, reverse, scenes or speech (or own pairs), got " +
                                 quote(c.task.substr(0, 32)),
                             {{"name", std::string("task")}});
    }
    if (scenes_) {
        // The scenes recipe fixes the conv encoder and its sizes; a value for them is a mistake, not a wish to ignore.
        const auto fixed = [](const char *name, const std::string &why) {
            throw InputError(ErrorCode::bad_argument, std::string(name) + ": " + why, {{"name", std::string(name)}});
        };
        if (c.encoder == models::EncoderKind::transformer)
            fixed("encoder", "scenes reads images with its conv encoder, not a transformer");
        if (c.embed) fixed("embed", "scenes has the fixed sizes of its recipe (embeddings 16, conv 62)");
        if (c.hidden) fixed("hidden", "scenes has the fixed sizes of its recipe (embeddings 16, conv 62)");
        if (c.activation) fixed("activation", "scenes has no transformer feed-forward");
    }
    if (speech_) {
        const auto fixed = [](const char *name, const std::string &why) {
            throw InputError(ErrorCode::bad_argument, std::string(name) + ": " + why, {{"name", std::string(name)}});
        };
        if (c.encoder == models::EncoderKind::transformer)
            fixed("encoder", "speech hears sound with its audio encoder, not a transformer");
        if (c.embed) fixed("embed", "speech has the fixed sizes of its recipe (embeddings 16, BiGRU 32)");
        if (c.hidden) fixed("hidden", "speech has the fixed sizes of its recipe (embeddings 16, BiGRU 32)");
        if (c.activation) fixed("activation", "speech has no transformer feed-forward");
    }
    const TaskInfo recipe = own ? pairs_info(c.encoder) : info_for(c.task, c.encoder);
    const int embed = checked_int("embed", c.embed.value_or(recipe.embed), 1, limits::max_train_dim);
    const int hidden = checked_int("hidden", c.hidden.value_or(recipe.hidden), 1, limits::max_train_dim);
    if (c.encoder == models::EncoderKind::transformer && embed % 4 != 0)
        throw InputError(ErrorCode::bad_argument,
                         "embed: the transformer's model size must be a multiple of its 4 heads, got " +
                             std::to_string(embed),
                         {{"name", std::string("embed")},
                          {"min", std::int64_t{4}},
                          {"limit", static_cast<std::int64_t>(limits::max_train_dim)}});
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

    // The data, as apg train makes it: the task's examples from the seed.
    if (own) {
        pairs_ = std::make_unique<PairsData>(parse_pairs(*c.pairs, c.tokenization, c.seed));
        task_.data = std::move(pairs_->data);
        task_.source_vocab = source_vocabulary(task_.data);
        task_.target_vocab = target_vocabulary(task_.data);
        task_.train = encode_examples(task_.data.train, task_.source_vocab, task_.target_vocab);
        task_.heldout = encode_examples(task_.data.heldout, task_.source_vocab, task_.target_vocab);
    } else if (scenes_) {
        PreparedScenes p = prepare_scenes(c.seed);
        task_.data.name = "scenes";
        task_.data.max_target_len = p.data.max_target_len;
        task_.source_vocab = std::move(p.source_vocab);
        task_.target_vocab = std::move(p.target_vocab);
        task_.train = std::move(p.train);
        task_.heldout = std::move(p.heldout);
        scene_heldout_ = std::move(p.data.heldout);
        for (auto &s : scene_heldout_) s.pixels = {}; // task_.heldout.images holds them
    } else if (speech_) {
        PreparedSpeech p = prepare_speech(c.seed);
        task_.data.name = "speech";
        task_.data.max_target_len = p.data.max_target_len;
        task_.source_vocab = std::move(p.source_vocab);
        task_.target_vocab = std::move(p.target_vocab);
        task_.train = std::move(p.train);
        task_.heldout = std::move(p.heldout);
        speech_heldout_ = std::move(p.data.heldout);
        for (auto &s : speech_heldout_) s.utterance.features = {}; // task_.heldout.frames holds them
    } else {
        task_ = prepare_task(c.task, c.seed);
    }

    models::ModelConfig mc = scenes_   ? scenes_config(c.score, c.style)
                             : speech_ ? speech_config(c.score, c.style)
                                       : recipe_config(task_, c.score, c.style, c.encoder);
    if (scenes_ || speech_) {
        // scenes_config and speech_config are the whole recipe.
    } else if (c.encoder == models::EncoderKind::gru) {
        mc.embedding = embed;
        mc.encoder_hidden = hidden;
        mc.decoder_hidden = 2 * hidden; // = the encoder state, so every score function fits
        mc.attention_dim = hidden;
    } else {
        mc.embedding = embed;
        mc.ff_hidden = hidden;
        // recipe_config gives dot, scaled dot and cosine a decoder state of the keys' size.
        if (mc.decoder_hidden == recipe.embed) mc.decoder_hidden = embed;
    }
    if (c.activation) mc.activation = *c.activation;
    if (c.location_filters) mc.location_filters = *c.location_filters;
    if (c.location_width) mc.location_width = *c.location_width;
    mc.validate();

    options_ = own       ? recipe_options("dates", c.encoder)
               : scenes_ ? scenes_options()
               : speech_ ? speech_options()
                         : recipe_options(c.task, c.encoder);
    options_.seed = c.seed;
    options_.steps = steps;
    options_.batch_size = batch;
    options_.learning_rate = static_cast<float>(lr);
    options_.eval_examples = c.eval_examples;
    options_.eval_every = c.eval_every;

    probe_ = c.probe.value_or(own ? (task_.data.heldout.empty() ? task_.data.train.front().source_text
                                                                : task_.data.heldout.front().source_text)
                                  : task_probe(c.task));
    if (scenes_) {
        try {
            probe_image_ = scenes::render(scenes::parse_description(probe_));
        } catch (const Error &e) {
            Details details = e.details();
            details.insert(details.begin(), {"name", std::string("probe")});
            throw InputError(e.code(), "probe: " + std::string(e.text()), std::move(details));
        }
    } else if (speech_) {
        try {
            probe_frames_ = speech::synthesize(probe_, 1).features;
        } catch (const Error &e) {
            Details details = e.details();
            details.insert(details.begin(), {"name", std::string("probe")});
            throw InputError(e.code(), "probe: " + std::string(e.text()), std::move(details));
        }
    } else
        try {
            const std::vector<int> ids = task_.source_vocab.encode(probe_);
            if (static_cast<int>(ids.size()) > mc.max_source_len)
                throw InputError(ErrorCode::too_long,
                                 "the probe has " + std::to_string(ids.size()) + " tokens, the model takes at most " +
                                     std::to_string(mc.max_source_len),
                                 {{"length", static_cast<std::int64_t>(ids.size())},
                                  {"limit", static_cast<std::int64_t>(mc.max_source_len)}});
        } catch (const Error &e) {
            Details details = e.details();
            details.insert(details.begin(), {"name", std::string("probe")});
            throw InputError(e.code(), "probe: " + std::string(e.text()), std::move(details));
        }

    // The examples as text are not needed past this point (a zh run holds ~5 MB of them).
    task_.data.train = {};
    task_.data.heldout = {};

    check_run_memory(mc, options_, task_.train);
    // The model as apg train initialises it: Seq2Seq(config, seed).
    network_ = std::make_unique<models::Seq2Seq>(mc, c.seed);
    trainer_ = std::make_unique<Trainer>(*network_, task_.train, task_.heldout, kTokens, options_);
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
        if (!std::isfinite(p.loss) || !std::isfinite(p.grad_norm) || !all_finite(refs)) {
            copy_in(last_good_, refs);
            diverged_ = true;
            const bool bad_loss = !std::isfinite(p.loss), bad_norm = !std::isfinite(p.grad_norm);
            const double bad = bad_loss ? p.loss : p.grad_norm;
            const std::string what = bad_loss ? std::string("loss became ") + (std::isnan(bad) ? "NaN" : "infinite")
                                     : bad_norm
                                         ? std::string("gradient norm became ") + (std::isnan(bad) ? "NaN" : "infinite")
                                         : std::string("parameters became non-finite");
            progress_.message = "the " + what + " at step " + std::to_string(p.step) + " (learning rate " +
                                number_text(p.learning_rate) + "): the parameters of step " +
                                std::to_string(p.step - 1) + " were kept";
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
            last_examples_ = std::min(task_.heldout.size(), static_cast<std::size_t>(options_.eval_examples));
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
    e.examples = static_cast<int>(std::min(wanted, task_.heldout.size()));
    if (e.examples > 0) {
        e.heldout_exact_match = exact_match(*network_, task_.heldout, kTokens, wanted);
        progress_.heldout_exact_match = e.heldout_exact_match;
        last_examples_ = static_cast<std::size_t>(e.examples);
    }
    decode::SessionOptions options;
    options.start_id = io::Vocabulary::bos;
    options.end_id = io::Vocabulary::eos;
    decode::DecodeSession session =
        scenes_   ? decode::DecodeSession(*network_, network_->encode_image(probe_image_), options)
        : speech_ ? decode::DecodeSession(*network_, network_->encode_audio(probe_frames_), options)
                  : decode::DecodeSession(*network_, task_.source_vocab.encode(probe_), options);
    session.run();
    const auto &steps = session.steps();
    if (scenes_) {
        const int grid = network_->config().image_size / 4;
        for (int cell = 0; cell < grid * grid; ++cell)
            e.probe.source.push_back(std::string(1, static_cast<char>('a' + cell % grid)) +
                                     std::to_string(cell / grid + 1));
    } else if (speech_) {
        // An encoder state per 2^R frames, named by its first frame.
        const int states =
            models::audio_config(network_->config()).states_for(static_cast<int>(probe_frames_.size() / speech::bands));
        const int per_state = 1 << network_->config().reductions;
        for (int j = 0; j < states; ++j) e.probe.source.push_back("t" + std::to_string(j * per_state));
    } else {
        e.probe.source = task_.source_vocab.tokenize(probe_);
    }
    // Without attention (score none) the decoder weighs no source token: the alignment is empty.
    const bool attends = network_->config().score != attention::ScoreKind::none;
    e.probe.weights.resize(attends ? static_cast<Eigen::Index>(steps.size()) : 0,
                           attends ? static_cast<Eigen::Index>(e.probe.source.size()) : 0);
    for (std::size_t i = 0; i < steps.size(); ++i) {
        e.probe.output.push_back(task_.target_vocab.token(steps[i].token));
        if (attends) e.probe.weights.row(static_cast<Eigen::Index>(i)) = steps[i].step.attention.weights.transpose();
    }
    return e;
}

nlohmann::json Run::training_record(double heldout, std::size_t examples) const {
    const RunConfig &c = config_;
    std::string command = c.command;
    if (command.empty()) {
        if (speech_) {
            command = "apg train --task speech --score " + std::string(attention::name(c.score)) + " --style " +
                      std::string(models::name(c.style)) + " --seed " + std::to_string(c.seed) +
                      " --out speech.safetensors --steps " + std::to_string(options_.steps) + " --batch " +
                      std::to_string(options_.batch_size) + " --lr " + number_text(options_.learning_rate);
        } else if (scenes_) {
            command = "apg train --task scenes --score " + std::string(attention::name(c.score)) + " --style " +
                      std::string(models::name(c.style)) + " --seed " + std::to_string(c.seed) +
                      " --out scenes.safetensors --steps " + std::to_string(options_.steps) + " --batch " +
                      std::to_string(options_.batch_size) + " --lr " + number_text(options_.learning_rate);
        } else if (c.pairs) {
            command = "trained on own pairs (" + std::to_string(pairs_->count) + " pairs, " +
                      io::tokenizer_name(pairs_->tokenizer) + " tokens)";
        } else {
            command = "apg train --task " + c.task + " --score " + std::string(attention::name(c.score)) + " --style " +
                      std::string(models::name(c.style)) + " --seed " + std::to_string(c.seed) + " --out " + c.task +
                      ".safetensors";
            if (c.encoder != models::EncoderKind::gru) command += " --encoder " + std::string(models::name(c.encoder));
            if (c.score == attention::ScoreKind::location)
                command += " --location-filters " + std::to_string(network_->config().location_filters) +
                           " --location-width " + std::to_string(network_->config().location_width);
            command += " --steps " + std::to_string(options_.steps) + " --batch " +
                       std::to_string(options_.batch_size) + " --lr " + number_text(options_.learning_rate);
        }
    }
    nlohmann::json record = {{"command", command},
                             {"encoder", std::string(models::name(c.encoder))},
                             {"seed", c.seed},
                             {"data_seed", c.seed},
                             {"steps", options_.steps},
                             {"batch_size", options_.batch_size},
                             {"learning_rate", options_.learning_rate},
                             {"final_lr_fraction", options_.final_lr_fraction},
                             {"clip_norm", options_.clip_norm},
                             {"train_pairs", task_.train.size()},
                             {"heldout_pairs", task_.heldout.size()},
                             {"heldout_exact_match", heldout >= 0 ? nlohmann::json(heldout) : nlohmann::json()}};
    if (scenes_) record["encoder"] = "conv";
    if (speech_) record["encoder"] = "audio";
    if (examples != task_.heldout.size()) record["heldout_examples"] = examples;
    if (progress_.step != options_.steps) record["steps_done"] = progress_.step;
    if (diverged_) record["diverged"] = progress_.message;
    if (c.pairs) record["tokenization"] = io::tokenizer_name(pairs_->tokenizer);
    return record;
}

io::Model Run::snapshot() const {
    return io::Model(models::Seq2Seq(network_->config(), network_->parameters()), task_.source_vocab,
                     task_.target_vocab, training_record(progress_.heldout_exact_match, last_examples_));
}

io::Model Run::trained_model() const {
    if (scenes_) {
        // What apg train --task scenes writes: the record of scenes_record, scored over every held-out scene.
        std::vector<scenes::Sample> samples = scene_heldout_;
        for (std::size_t k = 0; k < samples.size(); ++k) samples[k].pixels = task_.heldout.images[k];
        const ScenesScore score = evaluate_scenes(*network_, samples, task_.target_vocab);
        nlohmann::json record = scenes_record(training_record(-1, 0)["command"], config_.seed, options_,
                                              task_.train.size(), task_.heldout.size(), score);
        if (progress_.step != options_.steps) record["steps_done"] = progress_.step;
        if (diverged_) record["diverged"] = progress_.message;
        return io::Model(models::Seq2Seq(network_->config(), network_->parameters()), task_.source_vocab,
                         task_.target_vocab, std::move(record));
    }
    if (speech_) {
        // What apg train --task speech writes: the record of speech_record, scored over every held-out utterance.
        std::vector<speech::Sample> samples = speech_heldout_;
        for (std::size_t k = 0; k < samples.size(); ++k) samples[k].utterance.features = task_.heldout.frames[k];
        const SpeechScore score = evaluate_speech(*network_, samples, task_.target_vocab);
        nlohmann::json record = speech_record(training_record(-1, 0)["command"], config_.seed, options_,
                                              task_.train.size(), task_.heldout.size(), score);
        if (progress_.step != options_.steps) record["steps_done"] = progress_.step;
        if (diverged_) record["diverged"] = progress_.message;
        return io::Model(models::Seq2Seq(network_->config(), network_->parameters()), task_.source_vocab,
                         task_.target_vocab, std::move(record));
    }
    const double heldout = task_.heldout.size() > 0 ? exact_match(*network_, task_.heldout, kTokens) : -1;
    return io::Model(models::Seq2Seq(network_->config(), network_->parameters()), task_.source_vocab,
                     task_.target_vocab, training_record(heldout, task_.heldout.size()));
}

void Run::cancel() {
    cancelled_ = true;
    trainer_.reset();
    progress_.done = true;
}

} // namespace apg::train
