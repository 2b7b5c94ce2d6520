// The three stages of one attention step (scores → weights → context), forward and backward.
#include "attention/step.hpp"

#include "core/shape_text.hpp"
#include "core/small.hpp"

#include "core/error.hpp"
#include "core/kernels.hpp"
#include "core/limits.hpp"
#include "core/number_text.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace apg::attention {

APG_SMALL void check_temperature(const char *op, float t) {
    if (t >= limits::min_temperature && t <= limits::max_temperature) return;
    throw InputError(ErrorCode::bad_argument,
                     std::string(op) + ": temperature must be from " + number_text(limits::min_temperature) + " to " +
                         number_text(limits::max_temperature) + ", got " + number_text(t),
                     {{"name", std::string("temperature")}});
}

namespace {

// Shapes shared by the forward and backward pass; `op` names the caller in the message.
APG_SMALL void check_step(const char *op, const Vec &query, const Mat &keys, const Mat &values,
                          const StepOptions &options) {
    const std::string where = std::string(op) + ": ";
    if (keys.rows() == 0)
        throw std::invalid_argument(where + "no keys to attend to (keys are " + core::shape_text(keys) +
                                    ", query has " + std::to_string(query.size()) + " elements)");
    if (values.rows() != keys.rows())
        throw std::invalid_argument(where + "values are " + core::shape_text(values) + " but keys are " +
                                    core::shape_text(keys) + " (one value row per key)");
    if (!options.mask.empty() && options.mask.size() != static_cast<std::size_t>(keys.rows()))
        throw std::invalid_argument(where + "mask has " + std::to_string(options.mask.size()) + " bytes but keys are " +
                                    core::shape_text(keys) + " (one byte per key)");
    if (!options.weights.empty() && options.weights.size() != static_cast<std::size_t>(keys.rows()))
        throw std::invalid_argument(where + "given weights do not match the keys (one weight per key)");
    if (!options.previous.empty() && options.previous.size() != static_cast<std::size_t>(keys.rows()))
        throw std::invalid_argument(where + "previous weights do not match the keys (one weight per key)");
    check_temperature(op, options.temperature);
    if (!options.mask.empty()) {
        bool any = false;
        for (std::uint8_t m : options.mask) any = any || m != 0;
        if (!any)
            throw std::invalid_argument(where + "every one of the " + std::to_string(keys.rows()) +
                                        " keys is masked, so there is nothing to attend to");
    }
}

} // namespace

void attend(const ScoreParams &params, const Vec &query, const Mat &keys, const KeyCache &cache, const Mat &values,
            const StepOptions &options, AttentionStep &out) {
    check_step("attend", query, keys, values, options);
    const auto n = static_cast<std::size_t>(keys.rows()), dv = static_cast<std::size_t>(values.cols());
    // (1) scores: n
    score_forward(params, query, keys, cache, out.score, options.previous);
    // (2) weights = softmax(scores / τ) over the mask: n
    out.weights.resize(keys.rows());
    if (options.weights.empty())
        core::softmax(view(out.score.scores), view(out.weights), options.mask, options.temperature);
    else
        std::copy(options.weights.begin(), options.weights.end(), out.weights.data());
    // (3) context = Vᵀ weights: dv
    out.context.resize(values.cols());
    core::gemv_t(view(values), view(out.weights), view(out.context), n, dv);
}

APG_SMALL AttentionStep attend(const ScoreParams &params, const Vec &query, const Mat &keys, const Mat &values,
                               const StepOptions &options) {
    check_step("attend", query, keys, values, options);
    AttentionStep step;
    attend(params, query, keys, prepare_keys(params, keys), values, options, step);
    return step;
}

namespace {

// Stages (3) and (2) backward: ACCUMULATES dL/d values and returns dL/d scores.
Vec context_softmax_backward(const Vec &query, const Mat &keys, const Mat &values, const StepOptions &options,
                             const AttentionStep &fwd, const Vec &d_context, const Vec &d_query, const Mat &d_keys,
                             Mat &d_values, const Vec *d_weights_more = nullptr) {
    const char *op = "attend_backward";
    check_step(op, query, keys, values, options);
    const Eigen::Index n = keys.rows();
    if (fwd.weights.size() != n)
        throw std::invalid_argument(std::string(op) + ": forward weights have " + std::to_string(fwd.weights.size()) +
                                    " elements, expected one per key (" + std::to_string(n) + ")");
    if (d_context.size() != values.cols())
        throw std::invalid_argument(std::string(op) + ": d_context has " + std::to_string(d_context.size()) +
                                    " elements but values are " + core::shape_text(values));
    if (d_values.rows() != values.rows() || d_values.cols() != values.cols())
        throw std::invalid_argument(std::string(op) + ": d_values is " + core::shape_text(d_values) +
                                    " but values are " + core::shape_text(values));
    if (d_keys.rows() != keys.rows() || d_keys.cols() != keys.cols())
        throw std::invalid_argument(std::string(op) + ": d_keys is " + core::shape_text(d_keys) + " but keys are " +
                                    core::shape_text(keys));
    if (d_query.size() != query.size())
        throw std::invalid_argument(std::string(op) + ": d_query has " + std::to_string(d_query.size()) +
                                    " elements but the query has " + std::to_string(query.size()));
    if (d_weights_more && d_weights_more->size() != n)
        throw std::invalid_argument(std::string(op) + ": d_weights do not match the keys (one per key)");
    const auto un = static_cast<std::size_t>(n), dv = static_cast<std::size_t>(values.cols());

    // (3) context = Σ_j α_j v_j:  dα_j = d_context · v_j,  dv_j += α_j d_context
    Vec d_weights(n);
    core::gemv(view(values), view(d_context), view(d_weights), un, dv);
    for (Eigen::Index j = 0; j < n; ++j)
        if (fwd.weights[j] != 0.0f) core::axpy(fwd.weights[j], view(d_context), row(d_values, j));
    if (d_weights_more) d_weights += *d_weights_more;

    // (2) α = softmax(e / τ):  de_j = α_j (dα_j − Σ_k α_k dα_k) / τ; masked keys have α_j = 0 and get nothing.
    const float mean = core::dot(view(fwd.weights), view(d_weights));
    return (fwd.weights.array() * (d_weights.array() - mean) / options.temperature).matrix();
}

} // namespace

void attend_backward(const ScoreParams &params, const Vec &query, const Mat &keys, const KeyCache &cache,
                     const Mat &values, const StepOptions &options, const AttentionStep &fwd, const Vec &d_context,
                     Vec &d_query, Mat &d_keys, Mat &d_values, ScoreParams &d_params) {
    const Vec d_scores =
        context_softmax_backward(query, keys, values, options, fwd, d_context, d_query, d_keys, d_values);
    score_backward(params, query, keys, cache, fwd.score, d_scores, d_query, d_keys, d_params);
}

void attend_backward(const ScoreParams &params, const Vec &query, const Mat &keys, const KeyCache &cache,
                     const Mat &values, const StepOptions &options, const AttentionStep &fwd, const Vec &d_context,
                     Vec &d_query, Mat &d_keys, KeyCache &d_cache, Mat &d_values, ScoreParams &d_params,
                     const Vec *d_weights, Vec *d_previous) {
    const Vec d_scores =
        context_softmax_backward(query, keys, values, options, fwd, d_context, d_query, d_keys, d_values, d_weights);
    score_backward(params, query, keys, cache, fwd.score, d_scores, d_query, d_keys, d_cache, d_params, d_previous);
}

} // namespace apg::attention
