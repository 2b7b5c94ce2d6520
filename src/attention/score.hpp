// Stage 1 of attention: the score functions e_j = F(q, k_j), forward and backward.
//
// Shapes: n = number of keys, dq = query size, dk = key size, da = additive hidden size.
//   dot         e_j = qᵀ k_j                      (dq == dk)
//   scaled_dot  e_j = qᵀ k_j / √dk               (dq == dk)
//   general     e_j = qᵀ W k_j,  W: dq × dk       (Luong's bilinear form)
//   additive    e_j = vᵀ tanh(W_q q + W_k k_j),  W_q: da × dq, W_k: da × dk, v: da   (Bahdanau)
//   cosine      e_j = qᵀ k_j / (‖q‖ ‖k_j‖)       (dq == dk)
//   scaled_cosine  e_j = g · qᵀ k_j / (‖q‖ ‖k_j‖),  g: a learned scalar   (dq == dk)
//   location    e_j = vᵀ tanh(W_q q + W_k k_j + W_f f_j + b),  f = F ∗ α_prev   (Chorowski et al., 2015)
//               F: kf × r, kf filters of odd width r convolved (zero-padded, centred) over the
//               previous step's weights α_prev (n), so f_j (kf) says where the decoder looked last;
//               W_f: da × kf, b: da; W_q, W_k, v as for additive. Not among all_score_kinds: it
//               needs a previous step, which the sandbox's single query does not have.
//   none        no scores at all: the fixed-vector baseline, whose decoder reads one context made
//               from the encoder's final states (models/decoder.hpp); it has no parameters here
#pragma once

#include "core/params.hpp"
#include "core/rng.hpp"
#include "core/tensor.hpp"

#include <array>
#include <span>
#include <string_view>

namespace apg::attention {

enum class ScoreKind { dot, scaled_dot, general, additive, cosine, scaled_cosine, location, none };
// The content-based score functions; `none` is not one (nothing scores, nothing can be attended
// with it), and `location` also reads the previous step's weights.
inline constexpr std::array<ScoreKind, 6> all_score_kinds{ScoreKind::dot,     ScoreKind::scaled_dot,
                                                          ScoreKind::general, ScoreKind::additive,
                                                          ScoreKind::cosine,  ScoreKind::scaled_cosine};

// Whether the kind compares the query with the keys directly, so both must have one size.
constexpr bool same_size_query_and_keys(ScoreKind kind) {
    return kind == ScoreKind::dot || kind == ScoreKind::scaled_dot || kind == ScoreKind::cosine ||
           kind == ScoreKind::scaled_cosine;
}

// The cosine score divides by max(‖q‖, ε) · max(‖k_j‖, ε): a zero query or key scores 0 (not NaN),
// and a clamped norm counts as a constant in the backward pass.
inline constexpr float cosine_norm_epsilon = 1e-8f;

// The learned scale g of scaled_cosine starts at √dk. Cosine scores lie in [−1, 1], so with n keys
// plain cosine can give one key a weight of at most e²/(e² + n − 1); g widens that range to
// [−g, g]. Adam moves g by about the learning rate per step (a unit or two over a shipped run),
// so g has to start where a sharp softmax is already within reach: with the shipped recipe a
// start of 1 trains dates / reverse to 48 / 69 % held-out (no better than plain cosine), 5 to
// 99.8 / 99.5 %, √128 ≈ 11.3 to 100 / 99.8 %. At √dk the score of vectors whose entries are of
// unit size (‖q‖ ≈ ‖k‖ ≈ √dk) also starts where scaled dot's does: g · cos = qᵀk / √dk.
float initial_cosine_scale(Eigen::Index dk);

// Whether the kind reads the previous step's weights (score_forward's `previous`).
constexpr bool reads_previous_weights(ScoreKind kind) { return kind == ScoreKind::location; }

// "dot", "scaled_dot", "general", "additive", "cosine", "scaled_cosine", "location", "none"
std::string_view name(ScoreKind kind);
// Inverse of name() (also "location" and "none"); throws std::invalid_argument listing the valid names.
ScoreKind parse_score_kind(std::string_view text);

// The learnable parameters of a score function; the members a kind does not use stay empty.
struct ScoreParams {
    ScoreKind kind = ScoreKind::dot;
    Mat w;       // general: dq × dk
    Mat w_q;     // additive, location: da × dq
    Mat w_k;     // additive, location: da × dk
    Vec v;       // additive, location: da
    Vec scale;   // scaled_cosine: g (one element)
    Mat filters; // location: F, kf × r
    Mat w_f;     // location: da × kf
    Vec b;       // location: da

    // The tensors the kind uses, once: general w; additive w_q, w_k, v; scaled_cosine scale;
    // location w_q, w_k, v, filters (kf × r), w_f, b (the kind as a setting).
    void list(core::ParamList out, ScoreKind wanted, Eigen::Index dq, Eigen::Index dk, Eigen::Index da,
              Eigen::Index kf = 0, Eigen::Index r = 0);
    // Small random initialisation (uniform ±1/√fan_in) from a deterministic generator;
    // scaled_cosine's g = initial_cosine_scale(dk), drawing nothing from rng; location draws
    // W_q, W_k, v as additive does, then F and W_f (b starts at 0).
    static ScoreParams init(ScoreKind kind, Eigen::Index dq, Eigen::Index dk, Eigen::Index da, core::Rng &rng,
                            Eigen::Index kf = 0, Eigen::Index r = 0);
    // Same kind and shapes, all zeros: the accumulator for gradients.
    ScoreParams zeros_like() const;
    // Throws std::invalid_argument naming the shapes when a query of dq and keys of dk do not fit.
    void check(Eigen::Index dq, Eigen::Index dk) const;
};

// What can be computed from the keys alone, once per input (additive, location: W_k k_j for every j;
// general: W k_j for every j, so each step is one gemv; cosine, scaled_cosine: ‖k_j‖).
struct KeyCache {
    Mat projected; // additive, location: n × da;  general: n × dq;  others: empty
    Vec norms;     // cosine, scaled_cosine: n
};
KeyCache prepare_keys(const ScoreParams &params, const Mat &keys);

// Every intermediate of one score evaluation, kept for the trace and for the backward pass.
struct ScoreResult {
    Vec scores;           // n
    Mat hidden;           // additive: n × da, row j = tanh(W_q q + W_k k_j) (location: + W_f f_j + b)
    Vec query_proj;       // additive: W_q q (da); location: W_q q + b
    float query_norm = 0; // cosine, scaled_cosine: ‖q‖
    Vec cosines;          // scaled_cosine: cos(q, k_j) before the scale (n)
    float scale = 1;      // scaled_cosine: g (scores = g · cosines); 1 for the other kinds
    Vec previous;         // location: the previous weights α_prev the features were made from (n)
    Mat location;         // location: f, n × kf, row j = F ∗ α_prev around position j
};

// α_0, the "previous weights" of a decoder's first step: one-hot on the first source position,
// the usual choice. Later steps' weights are mostly one sharp peak, so a peak is what the filters
// learn to read; a peak at the start lets the first step use them like any other (an output that
// does not begin with the first token, as dates put the year first, moves off it as from any
// peak), where uniform weights would be a state no later step is in.
Vec initial_weights(Eigen::Index n);

// f = F ∗ α: row j, column c = Σ_t F(c, t) α_{j + t − (r − 1)/2}, α zero outside [0, n).
// filters: kf × r (r odd); out: n × kf. Plain loops: kf·r·n multiply-adds, a few thousand per step.
void location_features(const Mat &filters, const Vec &previous, Mat &out);
// Given dL/df (n × kf), ACCUMULATES dL/dF (kf × r) and, when d_previous is given, dL/dα (n).
void location_features_backward(const Mat &filters, const Vec &previous, const Mat &d_features, Mat &d_filters,
                                Vec *d_previous);

// keys: n × dk. previous: location's α_prev (n weights; empty = initial_weights(n)), ignored by
// the other kinds. Throws std::invalid_argument for bad shapes or n == 0.
void score_forward(const ScoreParams &params, const Vec &query, const Mat &keys, const KeyCache &cache,
                   ScoreResult &out, std::span<const float> previous = {});

// Given dL/d scores, ACCUMULATES (+=) dL/d query (dq), dL/d keys (n × dk) and dL/d params
// (same kind and shapes as params, e.g. from zeros_like()). The outputs must be sized already.
// location: when d_previous is given (n), dL/dα_prev is ACCUMULATED into it too.
void score_backward(const ScoreParams &params, const Vec &query, const Mat &keys, const KeyCache &cache,
                    const ScoreResult &fwd, const Vec &d_scores, Vec &d_query, Mat &d_keys, ScoreParams &d_params,
                    Vec *d_previous = nullptr);

// Backward in two parts, for callers that score many queries against one key cache (a decoder over
// one input): at every step pass d_cache (dL/d cache, from zeros_like(cache)) to the overload below,
// which accumulates the direct gradient into d_keys and the gradient w.r.t. the cache into d_cache;
// after the last step push the sum through prepare_keys once with prepare_keys_backward. This costs
// n·da per step instead of n·da·dk (additive) and equals calling the plain score_backward each step.
KeyCache zeros_like(const KeyCache &cache);
void score_backward(const ScoreParams &params, const Vec &query, const Mat &keys, const KeyCache &cache,
                    const ScoreResult &fwd, const Vec &d_scores, Vec &d_query, Mat &d_keys, KeyCache &d_cache,
                    ScoreParams &d_params, Vec *d_previous = nullptr);
// ACCUMULATES dL/d keys and dL/d params (general: W, additive: W_k) from dL/d cache.
void prepare_keys_backward(const ScoreParams &params, const Mat &keys, const KeyCache &cache, const KeyCache &d_cache,
                           Mat &d_keys, ScoreParams &d_params);

} // namespace apg::attention
