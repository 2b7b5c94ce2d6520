// The three stages of one attention step for a single query:
//   (1) scores  e = score(q, K)                   n
//   (2) weights α = softmax(e / τ) over the mask   n, sums to 1
//   (3) context c = Σ_j α_j v_j                    dv
// keys K: n × dk, values V: n × dv (in seq2seq both are the encoder states H).
#pragma once

#include "attention/score.hpp"

#include <cstdint>
#include <span>

namespace apg::attention {

struct StepOptions {
    std::span<const std::uint8_t> mask{}; // n bytes, 1 = attend; empty = attend to every key
    float temperature = 1.0f;             // within [limits::min_temperature, max_temperature]
    // A what-if (forward only): n weights used instead of stage 2's softmax; the scores are still
    // computed. The caller checks them (finite, ≥ 0, summing to 1). Empty = the softmax.
    std::span<const float> weights{};
    // location: the previous step's weights α_{i−1} (n), what the location features read; empty =
    // initial_weights(n), the first step's. Ignored by the content-based kinds.
    std::span<const float> previous{};
};

// Every named buffer of the step; the trace and the page read these by name.
struct AttentionStep {
    ScoreResult score; // score.scores are the stage-1 numbers (before temperature)
    Vec weights;       // n
    Vec context;       // dv
};

// Throws InputError(bad_argument) unless limits::min_temperature ≤ t ≤ limits::max_temperature:
// outside that range the softmax of finite scores can give NaN or infinite weights.
void check_temperature(const char *op, float t);

// Throws std::invalid_argument for mismatched shapes, no keys, a fully masked row or a τ outside
// [limits::min_temperature, limits::max_temperature].
void attend(const ScoreParams &params, const Vec &query, const Mat &keys, const KeyCache &cache, const Mat &values,
            const StepOptions &options, AttentionStep &out);

// Convenience for one-off use (the sandbox): prepares the key cache itself.
AttentionStep attend(const ScoreParams &params, const Vec &query, const Mat &keys, const Mat &values,
                     const StepOptions &options = {});

// Given dL/d context, ACCUMULATES dL/d query, dL/d keys, dL/d values and dL/d params.
void attend_backward(const ScoreParams &params, const Vec &query, const Mat &keys, const KeyCache &cache,
                     const Mat &values, const StepOptions &options, const AttentionStep &fwd, const Vec &d_context,
                     Vec &d_query, Mat &d_keys, Mat &d_values, ScoreParams &d_params);

// The same, but the gradient w.r.t. the key cache is ACCUMULATED into d_cache (from zeros_like(cache))
// instead of being pushed through prepare_keys at every step: d_keys gets only the direct part. A
// decoder calls this at each step and prepare_keys_backward once per input (see score.hpp); for
// additive attention that saves n·da·dk multiply-adds per step. For location attention across
// steps: d_weights (n, or null) is dL/d weights from outside the context, i.e. from the next step's
// location features, and d_previous (n, or null) ACCUMULATES dL/d options.previous, which the
// caller hands to the previous step as its d_weights (backpropagation through time).
void attend_backward(const ScoreParams &params, const Vec &query, const Mat &keys, const KeyCache &cache,
                     const Mat &values, const StepOptions &options, const AttentionStep &fwd, const Vec &d_context,
                     Vec &d_query, Mat &d_keys, KeyCache &d_cache, Mat &d_values, ScoreParams &d_params,
                     const Vec *d_weights = nullptr, Vec *d_previous = nullptr);

} // namespace apg::attention
