// The embind surface of the trainer module (declared for TypeScript in trainer.d.ts): the training
// limits and task recipes, own-pairs parsing, and TrainRun (step, evaluate, snapshot, save,
// cancel) over apg::train::Run. Conversion only: every number comes from the library. Every JS
// value is read through the checks of convert.hpp (after guard_entry's plain copy), so a string
// for a number, NaN, a huge or negative value or an unknown field is a coded bad_argument.
#include "../convert.hpp"
#include "../handle.hpp"
#include "../js_error.hpp"
#include "../model_convert.hpp"
#include "core/limits.hpp"
#include "core/quote.hpp"
#include "models/transformer_decoder.hpp"
#include "tasks/pairs.hpp"
#include "train/run.hpp"

#include <emscripten/bind.h>
#include <emscripten/emscripten.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

// clang-format off
// `new TrainRun(config)`: a JS constructor function that returns the handle made by the guarded
// class function TrainRunHandle.create, with the handle's prototype so instanceof holds.
EM_JS(void, apg_trainer_constructor_js, (), {
    addOnPostRun(function() {
        const Handle = Module['TrainRunHandle'];
        const TrainRun = function TrainRun(config) {
            if (!new.target) throw Module['apgPlainCopy'].coded('TrainRun: call it with new', 'bad_argument', {});
            return Handle['create'](config);
        };
        TrainRun.prototype = Handle.prototype;
        Module['TrainRun'] = TrainRun;
    });
});
// clang-format on

namespace apg::wasm {
namespace {

using train::Run;

bool is_object(const val &v) { return v.typeOf().as<std::string>() == "object" && !v.isNull() && !v.isArray(); }

val ints_to_js(const std::vector<int> &items) {
    return array_of(items, [](int x) { return val(x); });
}

// A name (a task, a score function, a tokenization): at most 64 characters.
std::string text_field(const val &v, const std::string &field) {
    if (!v.isString()) bad_argument(field, ": expected a string, got " + describe(v));
    return name_from_js(v, field);
}

// Own pairs, measured as parse_pairs measures them, before they are copied.
std::string pairs_text(const val &v, const std::string &field) {
    if (!v.isString()) bad_argument(field, ": expected a string, got " + describe(v));
    return text_from_js(
        v, "pairs",
        {static_cast<std::int64_t>(limits::max_pairs_bytes), "pairs: the text", true, ErrorCode::limit_exceeded});
}

// A name the library parses (score, style, encoder, activation): its error, coded, with the field.
template <class Parse> auto named(const val &v, const std::string &field, Parse parse) {
    const std::string text = text_field(v, field);
    try {
        return parse(text);
    } catch (const std::exception &e) {
        bad_argument(field, std::string(": ") + e.what());
    }
}

double number_field(const val &v, const std::string &field, double lo, double hi) {
    if (!v.isNumber()) bad_argument(field, ": expected a number, got " + describe(v));
    const double d = v.as<double>();
    if (!(d >= lo && d <= hi))
        bad_argument(field, ": expected a number from " + number_text(lo) + " to " + number_text(hi) + ", got " +
                                number_text(d));
    return d;
}

int int_field(const val &v, const std::string &field, std::int64_t lo, std::int64_t hi) {
    return static_cast<int>(whole_number(v, field, lo, hi));
}

// The JS API's names of own pairs' tokenizers: 'auto' (unset: the library picks), 'char', 'word'.
std::optional<io::Tokenizer> tokenization(const val &v, const std::string &field) {
    const std::string text = text_field(v, field);
    if (text == "auto") return std::nullopt;
    if (text == "char") return io::Tokenizer::characters;
    if (text == "word") return io::Tokenizer::words;
    bad_argument("tokenization", ": expected 'auto', 'char' or 'word', got " + quote(text.substr(0, 16)));
}

std::string tokenization_name(io::Tokenizer t) { return t == io::Tokenizer::words ? "word" : "char"; }

constexpr const char *kConfigKeys[] = {
    "task",         "pairs", "tokenization", "score", "style",        "encoder",   "decoder", "embed",     "hidden",
    "learningRate", "batch", "steps",        "seed",  "evalExamples", "evalEvery", "probe",   "activation"};

train::RunConfig run_config(const val &config) {
    if (!is_object(config)) bad_argument("config", ": expected an object, got " + describe(config));
    std::string known;
    for (const char *k : kConfigKeys) known += (known.empty() ? "" : ", ") + std::string(k);
    for (const auto &key : own_keys(config)) {
        bool ok = false;
        for (const char *k : kConfigKeys) ok = ok || key == k;
        if (!ok) bad_argument("config." + key.substr(0, 32), " is not a field of a training run (" + known + ")");
    }
    const auto get = [&](const char *name) -> std::optional<val> {
        if (!config.hasOwnProperty(name) || config[name].isUndefined()) return std::nullopt;
        return config[name];
    };
    train::RunConfig c;
    const auto task = get("task");
    const auto pairs = get("pairs");
    if (task && pairs) bad_argument("config.task", ": give a task or pairs, not both");
    if (!task && !pairs) bad_argument("config.task", ": missing (a task name, or pairs: source<TAB>target lines)");
    if (task) c.task = text_field(*task, "config.task");
    if (pairs) {
        c.pairs = pairs_text(*pairs, "config.pairs");
        if (const auto t = get("tokenization")) c.tokenization = tokenization(*t, "config.tokenization");
    } else if (get("tokenization")) {
        bad_argument("config.tokenization", ": only with pairs");
    }
    if (const auto v = get("decoder")) {
        c.decoder = named(*v, "config.decoder", [](const std::string &s) { return models::parse_decoder_kind(s); });
        // Its cross-attention is scaled dot-product, queried by its new state: the config's score and style.
        if (c.decoder == models::DecoderKind::transformer) {
            c.score = attention::ScoreKind::scaled_dot;
            c.style = models::AttentionStyle::luong;
        }
    }
    if (const auto v = get("score"))
        c.score = named(*v, "config.score", [](const std::string &s) { return attention::parse_score_kind(s); });
    if (const auto v = get("style"))
        c.style = named(*v, "config.style", [](const std::string &s) { return models::parse_attention_style(s); });
    if (const auto v = get("encoder"))
        c.encoder = named(*v, "config.encoder", [](const std::string &s) {
            return models::parse_encoder_kind(s == "bigru" ? std::string("gru") : s);
        });
    if (const auto v = get("activation"))
        c.activation = named(*v, "config.activation", [](const std::string &s) { return nn::parse_activation(s); });
    if (const auto v = get("embed")) c.embed = int_field(*v, "config.embed", 1, limits::max_train_dim);
    if (const auto v = get("hidden")) c.hidden = int_field(*v, "config.hidden", 1, limits::max_train_dim);
    if (const auto v = get("learningRate"))
        c.learning_rate = number_field(*v, "config.learningRate", limits::min_learning_rate, limits::max_learning_rate);
    if (const auto v = get("batch")) c.batch = int_field(*v, "config.batch", 1, limits::max_train_batch);
    if (const auto v = get("steps")) c.steps = int_field(*v, "config.steps", 1, limits::max_train_steps);
    if (const auto v = get("seed"))
        c.seed =
            static_cast<std::uint64_t>(whole_number(*v, "config.seed", 0, static_cast<std::int64_t>(limits::max_seed)));
    if (const auto v = get("evalExamples"))
        c.eval_examples = int_field(*v, "config.evalExamples", 1, limits::max_eval_examples);
    if (const auto v = get("evalEvery")) c.eval_every = int_field(*v, "config.evalEvery", 0, limits::max_train_steps);
    if (const auto v = get("probe")) {
        if (!v->isString()) bad_argument("config.probe", ": expected a string, got " + describe(*v));
        c.probe = text_from_js(*v, "probe", {limits::max_input_chars, "probe"});
    }
    return c;
}

val nullable(double x) { return x >= 0 ? val(x) : val::null(); }

val progress_to_js(const train::RunProgress &p) {
    val out = object_of({{"step", val(p.step)},
                         {"totalSteps", val(p.total_steps)},
                         {"sequences", val(static_cast<double>(p.sequences))},
                         {"loss", val(p.loss)},
                         {"tokenAccuracy", val(p.token_accuracy)},
                         {"gradNorm", val(p.grad_norm)},
                         {"learningRate", val(p.learning_rate)},
                         {"elapsedSeconds", val(p.elapsed_seconds)},
                         {"sequencesPerSecond", val(p.sequences_per_second)},
                         {"heldoutExactMatch", nullable(p.heldout_exact_match)},
                         {"done", val(p.done)},
                         {"diverged", val(p.diverged)},
                         {"firstLoss", val(p.first_loss)}});
    if (p.diverged) {
        out.set("message", p.message);
        out.set("divergence", std::string(train::name(p.divergence)));
        out.set("divergedLoss", p.diverged_loss);
        out.set("divergedStep", p.diverged_step);
    }
    return out;
}

val task_info_to_js(const train::TaskInfo &t) {
    val scores = val::array();
    for (const auto &option : t.scores) {
        val styles = val::array();
        for (const auto style : option.styles) styles.call<void>("push", std::string(models::name(style)));
        scores.call<void>("push",
                          object_of({{"name", val(std::string(attention::name(option.kind)))}, {"styles", styles}}));
    }
    return object_of({{"name", val(t.name)},
                      {"probe", val(t.probe)},
                      {"defaultSteps", val(t.steps)},
                      {"batch", val(t.batch)},
                      {"learningRate", val(t.learning_rate)},
                      {"embed", val(t.embed)},
                      {"hidden", val(t.hidden)},
                      {"sourceTokenizer", val(std::string(io::tokenizer_name(t.source_tokenizer)))},
                      {"targetTokenizer", val(std::string(io::tokenizer_name(t.target_tokenizer)))},
                      {"scores", scores}});
}

models::EncoderKind encoder_arg(const val &v) {
    if (v.isUndefined()) return models::EncoderKind::gru;
    return named(v, "encoder", [](const std::string &s) {
        return models::parse_encoder_kind(s == "bigru" ? std::string("gru") : s);
    });
}

models::DecoderKind decoder_arg(const val &v) {
    if (v.isUndefined()) return models::DecoderKind::gru;
    return named(v, "decoder", [](const std::string &s) { return models::parse_decoder_kind(s); });
}

val train_tasks_js(val encoder, val decoder) {
    val out = val::array();
    for (const auto &t : train::task_infos(encoder_arg(encoder), decoder_arg(decoder)))
        out.call<void>("push", task_info_to_js(t));
    return out;
}

val pairs_recipe_js(val encoder, val decoder) {
    return task_info_to_js(train::pairs_info(encoder_arg(encoder), decoder_arg(decoder)));
}

val train_limits_js() {
    return object_of({{"maxPairs", val(limits::max_pairs)},
                      {"maxBytes", val(static_cast<double>(limits::max_pairs_bytes))},
                      {"maxSourceTokens", val(limits::max_pair_tokens)},
                      {"maxTargetTokens", val(limits::max_pair_tokens)},
                      {"maxTokenBytes", val(limits::max_token_bytes)},
                      {"maxVocabTokens", val(limits::max_vocab_tokens)},
                      {"maxSteps", val(limits::max_train_steps)},
                      {"maxStepsPerCall", val(limits::max_steps_per_call)},
                      {"maxBatch", val(limits::max_train_batch)},
                      {"minLearningRate", val(limits::min_learning_rate)},
                      {"maxLearningRate", val(limits::max_learning_rate)},
                      {"maxEmbed", val(limits::max_train_dim)},
                      {"maxHidden", val(limits::max_train_dim)},
                      {"maxEvalExamples", val(limits::max_eval_examples)},
                      {"maxSeed", val(static_cast<double>(limits::max_seed))},
                      {"maxProbeChars", val(limits::max_input_chars)},
                      {"maxWorkBytes", val(static_cast<double>(limits::max_work_bytes))},
                      {"maxHeapBytes", val(static_cast<double>(limits::max_heap_bytes))}});
}

val parse_pairs_js(val text, val tokenization_js, val seed) {
    const std::string t = pairs_text(text, "parsePairs");
    const std::optional<io::Tokenizer> how =
        tokenization_js.isUndefined() ? std::nullopt : tokenization(tokenization_js, "tokenization");
    const auto s =
        seed.isUndefined()
            ? std::uint64_t{1}
            : static_cast<std::uint64_t>(whole_number(seed, "seed", 0, static_cast<std::int64_t>(limits::max_seed)));
    const tasks::PairsData p = tasks::parse_pairs(t, how, s);
    const io::Vocabulary source = tasks::source_vocabulary(p.data), target = tasks::target_vocabulary(p.data);
    val out = val::object();
    out.set("count", static_cast<double>(p.count));
    out.set("tokenization", tokenization_name(p.tokenizer));
    out.set("sourceVocab", source.size());
    out.set("targetVocab", target.size());
    out.set("trainCount", static_cast<double>(p.data.train.size()));
    out.set("heldoutCount", static_cast<double>(p.data.heldout.size()));
    out.set("sourceLengths", ints_to_js(p.source_lengths));
    out.set("targetLengths", ints_to_js(p.target_lengths));
    out.set("longestSource", static_cast<double>(p.longest_source));
    out.set("longestTarget", static_cast<double>(p.longest_target));
    return out;
}

// ---- TrainRun ----

val create_js(val config) { return val(Handle<Run>{std::make_shared<Run>(run_config(config))}); }

val step_js(Run &run, val n) { return progress_to_js(run.step(int_field(n, "step", 1, limits::max_steps_per_call))); }

val evaluate_js(Run &run, val limit) {
    const int l = limit.isUndefined() ? 0 : int_field(limit, "evaluate", 0, limits::max_eval_examples);
    const train::Evaluation e = run.evaluate(l);
    val probe = val::object();
    probe.set("text", e.probe.text);
    probe.set("source", strings_to_js(e.probe.source));
    probe.set("output", strings_to_js(e.probe.output));
    probe.set("rows", static_cast<int>(e.probe.weights.rows()));
    probe.set("cols", static_cast<int>(e.probe.weights.cols()));
    probe.set("weights", to_js(e.probe.weights.data(), e.probe.weights.size())); // row-major (Mat is)
    const val predictions = array_of(e.predictions, [](const train::HeldoutPrediction &p) {
        return object_of({{"source", val(p.source)},
                          {"target", val(p.target)},
                          {"output", val(p.output)},
                          {"correct", val(p.correct)}});
    });
    val out = val::object();
    out.set("step", e.step);
    out.set("heldoutExactMatch", nullable(e.heldout_exact_match));
    out.set("examples", e.examples);
    out.set("predictions", predictions);
    out.set("probe", probe);
    return out;
}

val snapshot_js(Run &run) { return val(Handle<const io::Model>{std::make_shared<const io::Model>(run.snapshot())}); }

val bytes_to_js(const std::vector<std::uint8_t> &bytes) {
    return val::global("Uint8Array").new_(emscripten::typed_memory_view(bytes.size(), bytes.data()));
}

val save_js(Run &run) { return bytes_to_js(run.save()); }

val snapshot_bytes_js(Run &run) { return bytes_to_js(run.snapshot().save()); }

val save_scored_js(Run &run) {
    const train::HeldoutScore score = run.score();
    val out = val::object();
    out.set("bytes", bytes_to_js(run.trained_model(score).save()));
    out.set("heldoutExactMatch", nullable(score.exact_match));
    out.set("examples", static_cast<double>(score.examples));
    return out;
}

val cancel_js(Run &run) {
    run.cancel();
    return val::undefined();
}

val settings_js(Run &run) {
    const auto &c = run.model_config();
    const auto &o = run.options();
    const auto &rc = run.config();
    val out = val::object();
    out.set("task", rc.pairs ? std::string("pairs") : rc.task);
    out.set("score", std::string(attention::name(c.score)));
    out.set("style", std::string(models::name(c.style)));
    out.set("encoder", std::string(models::name(c.encoder)));
    out.set("decoder", std::string(models::name(c.decoder)));
    out.set("embed", c.embedding);
    out.set("hidden", c.encoder == models::EncoderKind::transformer ? c.ff_hidden : c.encoder_hidden);
    out.set("steps", o.steps);
    out.set("batch", o.batch_size);
    out.set("learningRate", o.learning_rate);
    out.set("seed", static_cast<double>(rc.seed));
    out.set("evalExamples", o.eval_examples);
    out.set("trainCount", static_cast<double>(run.data().train.size()));
    out.set("heldoutCount", static_cast<double>(run.data().heldout.size()));
    out.set("sourceVocab", c.source_vocab);
    out.set("targetVocab", c.target_vocab);
    out.set("sourceTokenizer", std::string(io::tokenizer_name(run.data().source_vocab.tokenizer())));
    out.set("targetTokenizer", std::string(io::tokenizer_name(run.data().target_vocab.tokenizer())));
    return out;
}

val progress_js(Run &run) { return progress_to_js(run.progress()); }

} // namespace
} // namespace apg::wasm

EMSCRIPTEN_BINDINGS(apg_trainer) {
    using namespace apg::wasm;
    // This module decodes Transformer-decoder checkpoints too: the page's module links none of it.
    apg::models::register_transformer_decoder();
    exported("trainLimits", entry<train_limits_js>);
    exported("trainTasks", entry<train_tasks_js>, 2);
    exported("pairsRecipe", entry<pairs_recipe_js>, 2);
    exported("parsePairs", entry<parse_pairs_js>, 2);
    ExportedClass<Run>("TrainRunHandle")
        .class_function("create", entry<create_js>)
        .method("step", method<step_js>)
        .method("evaluate", method<evaluate_js>, 1)
        .method("snapshot", method<snapshot_js>)
        .method("save", method<save_js>)
        .method("snapshotBytes", method<snapshot_bytes_js>)
        .method("saveScored", method<save_scored_js>)
        .method("cancel", method<cancel_js>)
        .method("settings", method<settings_js>)
        .method("progress", method<progress_js>);
    apg_trainer_constructor_js();
}
