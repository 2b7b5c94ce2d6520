// The embind surface of the engine (declared for TypeScript in playground.d.ts). Each function
// converts its JS arguments, calls the library, and converts the result back; C++ exceptions
// reach JS as Error with their message. Every argument is taken as `val` so that a wrongly
// typed argument becomes a C++ exception with a clear message instead of an embind TypeError.
#include "attention/cosine_bound.hpp"
#include "attention/score.hpp"
#include "attention/softmax_terms.hpp"
#include "attention/step.hpp"
#include "convert.hpp"
#include "core/kernels.hpp"
#include "core/rng.hpp"
#include "handle.hpp"
#include "js_error.hpp"
#include "model_convert.hpp"
#include "trace/compare.hpp"

#include <emscripten/bind.h>

#include <cmath>
#include <cstdint>
#include <string>

namespace apg::wasm {
namespace {

using attention::ScoreKind;
using attention::ScoreParams;

// The seed of the parameters the sandbox uses when the caller gives none; fixed so the page and
// the tests see the same numbers on every load.
constexpr std::uint64_t kDefaultParamsSeed = 2026;

ScoreKind to_kind(const val &kind) {
    if (!kind.isString()) bad_argument("kind", ": expected a score function name, got " + describe(kind));
    return attention::parse_score_kind(name_from_js(kind, "kind"));
}

// A sandbox's sizes are a model's widths, with the same bound.
constexpr std::int64_t kMaxParamsSize = limits::max_model_dim;

Eigen::Index to_size(const val &v, const std::string &field) {
    return static_cast<Eigen::Index>(whole_number(v, field, 1, kMaxParamsSize));
}

ScoreParams default_params(ScoreKind kind, Eigen::Index dq, Eigen::Index dk, Eigen::Index da) {
    core::Rng rng(kDefaultParamsSeed);
    return ScoreParams::init(kind, dq, dk, da, rng);
}

// The sandbox's bound on a scaled cosine's g: at |g| = 1000 the weights are one-hot already.
constexpr double kMaxCosineScale = 1000;

// {kind, w} for general, {kind, w_q, w_k, v} for additive, {kind, scale} for scaled_cosine, {kind} otherwise.
val params_to_js(const ScoreParams &params) {
    val out = val::object();
    out.set("kind", std::string(attention::name(params.kind)));
    if (params.kind == ScoreKind::general) out.set("w", to_js(params.w));
    if (params.kind == ScoreKind::additive) {
        out.set("w_q", to_js(params.w_q));
        out.set("w_k", to_js(params.w_k));
        out.set("v", to_js(params.v));
    }
    if (params.kind == ScoreKind::scaled_cosine) out.set("scale", params.scale[0]);
    return out;
}

ScoreParams params_from_js(ScoreKind kind, const val &params) {
    ScoreParams out;
    out.kind = kind;
    const auto field = [&](const char *name) {
        if (!params.hasOwnProperty(name))
            bad_argument(std::string("options.params.") + name,
                         " is missing (needed by " + std::string(attention::name(kind)) + ")");
        return params[name];
    };
    if (kind == ScoreKind::general) out.w = to_mat(field("w"), "options.params.w");
    if (kind == ScoreKind::additive) {
        out.w_q = to_mat(field("w_q"), "options.params.w_q");
        out.w_k = to_mat(field("w_k"), "options.params.w_k");
        out.v = to_vec(field("v"), "options.params.v");
    }
    if (kind == ScoreKind::scaled_cosine) {
        const val scale = field("scale");
        if (!scale.isNumber()) bad_argument("options.params.scale", ": expected a number, got " + describe(scale));
        const double g = scale.as<double>();
        if (!(std::abs(g) <= kMaxCosineScale))
            bad_argument("options.params.scale", ": expected a number from -1000 to 1000, got " + number_text(g),
                         static_cast<std::int64_t>(kMaxCosineScale));
        out.scale = Vec::Constant(1, static_cast<float>(g));
    }
    return out;
}

bool is_object(const val &v) { return v.typeOf().as<std::string>() == "object" && !v.isNull(); }

// options: {temperature?, mask?, params?, hidden_size?}; see playground.d.ts.
val attend_js(val kind_js, val query_js, val keys_js, val values_js, val options_js) {
    const ScoreKind kind = to_kind(kind_js);
    const Vec query = to_vec(query_js, "query");
    const Mat keys = to_mat(keys_js, "keys");
    const Mat values = to_mat(values_js, "values");
    const val options = options_js.isUndefined() ? val::object() : options_js;
    if (!is_object(options)) bad_argument("options", ": expected an object, got " + describe(options));

    attention::StepOptions step_options;
    if (options.hasOwnProperty("temperature")) {
        const val temperature = options["temperature"];
        step_options.temperature = to_temperature(temperature);
    }
    std::vector<std::uint8_t> mask;
    if (options.hasOwnProperty("mask") && !options["mask"].isUndefined()) {
        mask = to_mask(options["mask"], "options.mask");
        step_options.mask = mask;
    }
    ScoreParams params;
    if (options.hasOwnProperty("params") && !options["params"].isUndefined()) {
        if (!is_object(options["params"]))
            bad_argument("options.params", ": expected an object, got " + describe(options["params"]));
        params = params_from_js(kind, options["params"]);
    } else {
        const Eigen::Index da = options.hasOwnProperty("hidden_size")
                                    ? to_size(options["hidden_size"], "options.hidden_size")
                                    : query.size();
        params = default_params(kind, query.size(), keys.cols(), da);
    }

    const attention::AttentionStep step = attention::attend(params, query, keys, values, step_options);

    val out = val::object();
    out.set("kind", std::string(attention::name(kind)));
    out.set("temperature", step_options.temperature);
    out.set("scores", to_js(step.score.scores));
    out.set("weights", to_js(step.weights));
    out.set("context", to_js(step.context));
    out.set("hidden", kind == ScoreKind::additive ? to_js(step.score.hidden) : val::null());
    out.set("query_proj", kind == ScoreKind::additive ? to_js(step.score.query_proj) : val::null());
    const bool cosine = kind == ScoreKind::cosine || kind == ScoreKind::scaled_cosine;
    out.set("query_norm", cosine ? val(step.score.query_norm) : val::null());
    out.set("scale", kind == ScoreKind::scaled_cosine ? val(step.score.scale) : val::null());
    out.set("params", params_to_js(params));
    // stage 2 spelled out: exp((e_j − max)/τ), their sum, and the entropy of the weights
    const attention::SoftmaxTerms terms = attention::softmax_terms(step.score.scores, step_options);
    out.set("exps", to_js(terms.exps));
    out.set("maxScore", terms.max_score);
    out.set("expSum", terms.exp_sum);
    out.set("entropy", terms.entropy);
    out.set("maxEntropy", terms.max_entropy);
    return out;
}

val default_params_js(val kind, val dq, val dk, val da) {
    return params_to_js(default_params(to_kind(kind), to_size(dq, "dq"), to_size(dk, "dk"), to_size(da, "da")));
}

val score_kinds_js() {
    return array_of(attention::all_score_kinds, [](ScoreKind kind) { return val(std::string(attention::name(kind))); });
}

// {value, row, col, a, b}: where the weights a and b (steps × source positions, e.g. two models'
// decodes of one input) differ most; see trace::largest_weight_difference.
val weight_difference_js(val a_js, val b_js) {
    const trace::WeightDifference d = trace::largest_weight_difference(to_mat(a_js, "a"), to_mat(b_js, "b"));
    return object_of({{"value", val(d.value)},
                      {"row", val(d.row)},
                      {"col", val(d.col)},
                      {"a", val(d.a)},
                      {"b", val(d.b)},
                      {"meanDistance", val(d.mean_distance)}});
}

// What the engine accepts (core/limits.hpp); a model's own limits are in its info().limits.
val limits_js() {
    return object_of({{"maxFileBytes", val(static_cast<double>(limits::max_file_bytes))},
                      {"maxInputChars", val(limits::max_input_chars)},
                      {"maxInputTokens", val(limits::max_input_tokens)},
                      {"maxVectorLength", val(static_cast<double>(limits::max_vector_length))},
                      {"maxParamsSize", val(static_cast<double>(kMaxParamsSize))},
                      {"maxCosineScale", val(kMaxCosineScale)},
                      {"maxSteps", val(limits::max_decode_steps)},
                      {"maxBeamWidth", val(limits::max_beam_width)},
                      {"maxArgumentElements", val(static_cast<double>(limits::max_argument_elements))},
                      {"maxArgumentDepth", val(static_cast<double>(limits::max_argument_depth))},
                      {"maxArgumentChars", val(static_cast<double>(limits::max_argument_chars))},
                      {"maxWorkBytes", val(static_cast<double>(limits::max_work_bytes))},
                      {"maxHeapBytes", val(static_cast<double>(limits::max_heap_bytes))},
                      {"minTemperature", val(limits::min_temperature)},
                      {"maxTemperature", val(limits::max_temperature)}});
}

// The largest weight cosine attention can give over n keys with scale g (attention/cosine_bound.hpp).
val cosine_weight_bound_js(val n, val scale) {
    const auto keys = static_cast<int>(whole_number(n, "n", 1, limits::max_input_tokens));
    double g = 1;
    if (!scale.isUndefined()) {
        if (!scale.isNumber()) bad_argument("scale", ": expected a number, got " + describe(scale));
        g = scale.as<double>();
    }
    return val(attention::cosine_weight_bound(keys, g));
}

std::string simdIsa() { return core::simd_isa(); }

} // namespace
} // namespace apg::wasm

EMSCRIPTEN_BINDINGS(apg) {
    using namespace apg::wasm;
    exported("attend", entry<attend_js>, 1);                         // options may be left out
    exported("cosineWeightBound", entry<cosine_weight_bound_js>, 1); // scale may be left out
    exported("defaultParams", entry<default_params_js>);
    exported("limits", entry<limits_js>);
    exported("scoreKinds", entry<score_kinds_js>);
    exported("simdIsa", &simdIsa);
    exported("weightDifference", entry<weight_difference_js>);
}
