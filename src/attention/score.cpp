// Stage 1 of attention: the seven score functions, forward and backward (shapes in score.hpp).
#include "attention/score.hpp"

#include "core/shape_text.hpp"
#include "core/small.hpp"
#include "core/uniform_init.hpp"

#include "core/kernels.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace apg::attention {

namespace {

[[noreturn]] APG_SMALL void fail(ScoreKind kind, const std::string &what) {
    throw std::invalid_argument(std::string(name(kind)) + " score: " + what);
}

APG_SMALL void require_matrix(ScoreKind kind, const char *what, const Mat &m, Eigen::Index rows, Eigen::Index cols) {
    if (m.rows() != rows || m.cols() != cols)
        fail(kind, std::string(what) + " is " + core::shape_text(m) + ", expected " + core::shape_text(rows, cols));
}

APG_SMALL void require_vector(ScoreKind kind, const char *what, const Vec &v, Eigen::Index size) {
    if (v.size() != size)
        fail(kind, std::string(what) + " has " + core::shape_text(v) + " elements, expected " + std::to_string(size));
}

// The cosine score divides by clamped norms, so a zero query or key scores 0 instead of NaN.
float clamped(float norm) { return std::max(norm, cosine_norm_epsilon); }

// Checks that the cache was made by prepare_keys(params, keys) for these keys.
APG_SMALL void check_cache(const ScoreParams &params, const Mat &keys, Eigen::Index dq, const KeyCache &cache) {
    const Eigen::Index n = keys.rows();
    switch (params.kind) {
    case ScoreKind::general:
        require_matrix(params.kind, "key cache (W k_j per row)", cache.projected, n, dq);
        break;
    case ScoreKind::additive:
    case ScoreKind::location:
        require_matrix(params.kind, "key cache (W_k k_j per row)", cache.projected, n, params.w_k.rows());
        break;
    case ScoreKind::cosine:
    case ScoreKind::scaled_cosine:
        require_vector(params.kind, "key cache (‖k_j‖)", cache.norms, n);
        break;
    default:
        break;
    }
}

// The gradients a backward pass accumulates into: dL/dK (n × dk), dL/d cache of the cache's
// shapes, and parameter gradients of the same score function.
APG_SMALL void check_key_gradients(const ScoreParams &params, const KeyCache &cache, const KeyCache &d_cache,
                                   const Mat &d_keys, const ScoreParams &d_params, Eigen::Index n, Eigen::Index dk) {
    require_matrix(params.kind, "d_keys", d_keys, n, dk);
    require_matrix(params.kind, "d_cache.projected", d_cache.projected, cache.projected.rows(), cache.projected.cols());
    require_vector(params.kind, "d_cache.norms", d_cache.norms, cache.norms.size());
    if (d_params.kind != params.kind)
        fail(params.kind, "d_params are for the " + std::string(name(d_params.kind)) + " score");
}

// The cosines c_j = qᵀk_j / (‖q‖_ε ν_j) of every key into out (n) and ‖q‖ into query_norm.
void cosine_forward(const Vec &query, const Mat &keys, const KeyCache &cache, Vec &out, float &query_norm) {
    query_norm = std::sqrt(core::dot(view(query), view(query)));
    core::gemv(view(keys), view(query), view(out), static_cast<std::size_t>(keys.rows()),
               static_cast<std::size_t>(keys.cols()));
    const float qn = clamped(query_norm);
    for (Eigen::Index j = 0; j < keys.rows(); ++j) out[j] /= qn * clamped(cache.norms[j]);
}

// Given dL/dc_j for the cosines c_j (of cosine_forward), ACCUMULATES dL/dq, the direct dL/dk_j and
// dL/dν_j. With ‖x‖_ε = max(‖x‖, ε) and ν_j = ‖k_j‖_ε (cached), a clamped norm is a constant, so
// its term drops out of the gradient.
void cosine_backward(const Vec &query, const Mat &keys, const KeyCache &cache, float query_norm, const Vec &cosines,
                     const Vec &d_cosines, Vec &d_query, Mat &d_keys, KeyCache &d_cache) {
    const float qn = clamped(query_norm);
    float sum_dc_c = 0; // Σ_j dc_j c_j
    for (Eigen::Index j = 0; j < keys.rows(); ++j) {
        const float kn = clamped(cache.norms[j]);
        const float dc = d_cosines[j], c = cosines[j];
        // ∂c_j/∂q = k_j / (‖q‖ ν_j) − c_j q / ‖q‖²
        core::axpy(dc / (qn * kn), row(keys, j), view(d_query));
        // ∂c_j/∂k_j directly = q / (‖q‖ ν_j);  ∂c_j/∂ν_j = −c_j / ν_j
        core::axpy(dc / (qn * kn), view(query), row(d_keys, j));
        d_cache.norms[j] -= dc * c / kn;
        sum_dc_c += dc * c;
    }
    if (query_norm >= cosine_norm_epsilon) core::axpy(-sum_dc_c / (qn * qn), view(query), view(d_query));
}

// The location part of the backward pass, given d_pre = dL/da_j (n × da) and its column sum
// dL/d(W_q q + b): ACCUMULATES dL/db, dL/dW_f, dL/dF and (when given) dL/dα_prev.
APG_SMALL void location_backward(const ScoreParams &params, const ScoreResult &fwd, const Mat &d_pre,
                                 const Vec &d_query_proj, ScoreParams &d_params, Vec *d_previous) {
    const Eigen::Index n = d_pre.rows(), da = d_pre.cols(), kf = params.w_f.cols();
    require_matrix(params.kind, "forward location features", fwd.location, n, kf);
    require_vector(params.kind, "forward previous weights", fwd.previous, n);
    require_matrix(params.kind, "dW_f", d_params.w_f, da, kf);
    require_matrix(params.kind, "dF", d_params.filters, kf, params.filters.cols());
    require_vector(params.kind, "db", d_params.b, da);
    if (d_previous) require_vector(params.kind, "d_previous", *d_previous, n);
    d_params.b += d_query_proj;
    // a_j += W_f f_j:  dW_f += d_preᵀ f,  df = d_pre W_f (n × kf)
    d_params.w_f.noalias() += d_pre.transpose() * fwd.location;
    Mat d_features(n, kf);
    core::gemm_nn(view(d_pre), view(params.w_f), view(d_features), static_cast<std::size_t>(n),
                  static_cast<std::size_t>(kf), static_cast<std::size_t>(da));
    location_features_backward(params.filters, fwd.previous, d_features, d_params.filters, d_previous);
}

// Location's part of the forward pass: α_prev and f into out, W_f f_j + b added to the
// pre-activations out.hidden (n × da), b to out.query_proj.
APG_SMALL void location_forward(const ScoreParams &params, std::span<const float> previous, ScoreResult &out) {
    const Eigen::Index n = out.hidden.rows(), da = out.hidden.cols();
    if (!previous.empty() && previous.size() != static_cast<std::size_t>(n))
        fail(params.kind, "previous weights have " + std::to_string(previous.size()) + " elements, expected " +
                              std::to_string(n) + " (one per key)");
    out.previous = previous.empty() ? initial_weights(n) : Vec(Eigen::Map<const Vec>(previous.data(), n));
    location_features(params.filters, out.previous, out.location);
    Mat projected(n, da); // row j = W_f f_j
    core::gemm_nt(view(out.location), view(params.w_f), view(projected), static_cast<std::size_t>(n),
                  static_cast<std::size_t>(da), static_cast<std::size_t>(params.w_f.cols()));
    out.hidden += projected;
    out.hidden.rowwise() += params.b.transpose();
    out.query_proj += params.b;
}

} // namespace

APG_SMALL Vec initial_weights(Eigen::Index n) {
    Vec alpha = Vec::Zero(n);
    if (n > 0) alpha[0] = 1;
    return alpha;
}

APG_SMALL void location_features(const Mat &filters, const Vec &previous, Mat &out) {
    const Eigen::Index n = previous.size(), kf = filters.rows(), r = filters.cols(), half = (r - 1) / 2;
    out.setZero(n, kf);
    for (Eigen::Index j = 0; j < n; ++j)
        for (Eigen::Index t = std::max<Eigen::Index>(0, half - j); t < r && j + t - half < n; ++t) {
            const float a = previous[j + t - half];
            if (a != 0.0f)
                for (Eigen::Index c = 0; c < kf; ++c) out(j, c) += filters(c, t) * a;
        }
}

APG_SMALL void location_features_backward(const Mat &filters, const Vec &previous, const Mat &d_features,
                                          Mat &d_filters, Vec *d_previous) {
    const Eigen::Index n = previous.size(), kf = filters.rows(), r = filters.cols(), half = (r - 1) / 2;
    for (Eigen::Index j = 0; j < n; ++j)
        for (Eigen::Index t = std::max<Eigen::Index>(0, half - j); t < r && j + t - half < n; ++t) {
            const Eigen::Index m = j + t - half;
            float d_alpha = 0;
            for (Eigen::Index c = 0; c < kf; ++c) {
                d_filters(c, t) += d_features(j, c) * previous[m];
                d_alpha += d_features(j, c) * filters(c, t);
            }
            if (d_previous) (*d_previous)[m] += d_alpha;
        }
}

float initial_cosine_scale(Eigen::Index dk) { return std::sqrt(static_cast<float>(dk)); }

APG_SMALL std::string_view name(ScoreKind kind) {
    // In the order of ScoreKind.
    constexpr std::string_view names[] = {"dot",    "scaled_dot",    "general",  "additive",
                                          "cosine", "scaled_cosine", "location", "none"};
    const auto k = static_cast<std::size_t>(kind);
    return k < std::size(names) ? names[k] : "unknown";
}

APG_SMALL ScoreKind parse_score_kind(std::string_view text) {
    for (ScoreKind kind : all_score_kinds)
        if (name(kind) == text) return kind;
    if (text == name(ScoreKind::location)) return ScoreKind::location;
    if (text == name(ScoreKind::none)) return ScoreKind::none;
    std::string valid;
    for (ScoreKind kind : all_score_kinds) valid += (valid.empty() ? "" : ", ") + std::string(name(kind));
    valid += ", location, none";
    throw std::invalid_argument("unknown score function \"" + std::string(text) + "\"; valid names: " + valid);
}

APG_SMALL ScoreParams ScoreParams::init(ScoreKind kind, Eigen::Index dq, Eigen::Index dk, Eigen::Index da,
                                        core::Rng &rng, Eigen::Index kf, Eigen::Index r) {
    if (dq <= 0 || dk <= 0)
        fail(kind, "sizes must be positive, got dq = " + std::to_string(dq) + ", dk = " + std::to_string(dk));
    ScoreParams p;
    p.kind = kind;
    if (kind == ScoreKind::general) {
        p.w = core::uniform_matrix(dq, dk, rng);
    } else if (kind == ScoreKind::additive || kind == ScoreKind::location) {
        if (da <= 0) fail(kind, "hidden size da must be positive, got " + std::to_string(da));
        p.w_q = core::uniform_matrix(da, dq, rng);
        p.w_k = core::uniform_matrix(da, dk, rng);
        const Mat v = core::uniform_matrix(1, da, rng); // fan-in of vᵀ h is da
        p.v = v.row(0).transpose();
        if (kind == ScoreKind::location) {
            if (kf <= 0 || r <= 0 || r % 2 == 0)
                fail(kind, "needs kf ≥ 1 filters of an odd width r, got kf = " + std::to_string(kf) +
                               ", r = " + std::to_string(r));
            p.filters = core::uniform_matrix(kf, r, rng);
            p.w_f = core::uniform_matrix(da, kf, rng);
            p.b = Vec::Zero(da);
        }
    } else if (kind == ScoreKind::scaled_cosine) {
        p.scale = Vec::Constant(1, initial_cosine_scale(dk));
        p.check(dq, dk);
    } else if (kind != ScoreKind::none) {
        p.check(dq, dk);
    }
    return p;
}

APG_SMALL void ScoreParams::list(core::ParamList out, ScoreKind wanted, Eigen::Index dq, Eigen::Index dk,
                                 Eigen::Index da, Eigen::Index kf, Eigen::Index r) {
    out.setting("kind", kind, wanted);
    if (wanted == ScoreKind::general) out.add("w", w, dq, dk);
    if (wanted == ScoreKind::additive || wanted == ScoreKind::location) {
        out.add("w_q", w_q, da, dq);
        out.add("w_k", w_k, da, dk);
        out.add("v", v, da);
    }
    if (wanted == ScoreKind::location) {
        out.add("filters", filters, kf, r);
        out.add("w_f", w_f, da, kf);
        out.add("b", b, da);
    }
    if (wanted == ScoreKind::scaled_cosine) out.add("scale", scale, 1);
}

APG_SMALL ScoreParams ScoreParams::zeros_like() const {
    // The sizes a dot-like kind does not store are not needed: it has no tensors.
    const Eigen::Index dq = kind == ScoreKind::general ? w.rows() : w_q.cols();
    const Eigen::Index dk = kind == ScoreKind::general ? w.cols() : w_k.cols();
    return core::zeros<ScoreParams>(kind, dq, dk, w_q.rows(), filters.rows(), filters.cols());
}

APG_SMALL void ScoreParams::check(Eigen::Index dq, Eigen::Index dk) const {
    switch (kind) {
    case ScoreKind::dot:
    case ScoreKind::scaled_dot:
    case ScoreKind::cosine:
    case ScoreKind::scaled_cosine:
        if (dq != dk)
            fail(kind, "needs query and key of the same size, got a query of " + std::to_string(dq) + " and keys of " +
                           std::to_string(dk) + " columns");
        if (kind == ScoreKind::scaled_cosine) require_vector(kind, "the scale g", scale, 1);
        break;
    case ScoreKind::general:
        require_matrix(kind, "W", w, dq, dk);
        break;
    case ScoreKind::additive:
    case ScoreKind::location:
        if (w_q.rows() == 0) fail(kind, "W_q is " + core::shape_text(w_q) + ", the hidden size da must be positive");
        require_matrix(kind, "W_q", w_q, w_q.rows(), dq);
        require_matrix(kind, "W_k", w_k, w_q.rows(), dk);
        require_vector(kind, "v", v, w_q.rows());
        if (kind == ScoreKind::location) {
            if (filters.rows() == 0 || filters.cols() % 2 == 0)
                fail(kind, "F is " + core::shape_text(filters) + ", expected kf ≥ 1 filters of an odd width");
            require_matrix(kind, "W_f", w_f, w_q.rows(), filters.rows());
            require_vector(kind, "b", b, w_q.rows());
        }
        break;
    case ScoreKind::none:
        // Reached by score_forward / backward only: a model without attention never scores.
        fail(kind, "a model without attention has no score function");
    }
}

APG_SMALL KeyCache prepare_keys(const ScoreParams &params, const Mat &keys) {
    const auto n = static_cast<std::size_t>(keys.rows());
    const auto dk = static_cast<std::size_t>(keys.cols());
    KeyCache cache;
    switch (params.kind) {
    case ScoreKind::general:  // row j = W k_j:  n × dq
    case ScoreKind::additive: // row j = W_k k_j:  n × da
    case ScoreKind::location: {
        const bool general = params.kind == ScoreKind::general;
        const Mat &w = general ? params.w : params.w_k;
        const std::string name = general ? "W" : "W_k";
        if (w.cols() != keys.cols())
            fail(params.kind, name + " is " + core::shape_text(w) + " but keys are " + core::shape_text(keys) + " (" +
                                  name + " needs dk columns)");
        cache.projected.resize(keys.rows(), w.rows());
        core::gemm_nt(view(keys), view(w), view(cache.projected), n, w.rows(), dk);
        break;
    }
    case ScoreKind::cosine:
    case ScoreKind::scaled_cosine:
        cache.norms.resize(keys.rows());
        for (Eigen::Index j = 0; j < keys.rows(); ++j)
            cache.norms[j] = std::sqrt(core::dot(row(keys, j), row(keys, j)));
        break;
    default:
        break;
    }
    return cache;
}

void score_forward(const ScoreParams &params, const Vec &query, const Mat &keys, const KeyCache &cache,
                   ScoreResult &out, std::span<const float> previous) {
    const Eigen::Index n = keys.rows(), dq = query.size(), dk = keys.cols();
    if (n == 0) fail(params.kind, "no keys (keys are " + core::shape_text(keys) + ")");
    params.check(dq, dk);
    check_cache(params, keys, dq, cache);
    const auto un = static_cast<std::size_t>(n), udk = static_cast<std::size_t>(dk);

    out.scores.resize(n);
    out.hidden.resize(0, 0);
    out.query_proj.resize(0);
    out.query_norm = 0;
    out.cosines.resize(0);
    out.scale = 1;
    out.previous.resize(0);
    out.location.resize(0, 0);
    switch (params.kind) {
    case ScoreKind::dot:
        core::gemv(view(keys), view(query), view(out.scores), un, udk);
        break;
    case ScoreKind::scaled_dot:
        // Dividing by √dk keeps the variance of qᵀk near 1 for unit-variance inputs, so softmax does not saturate.
        core::gemv(view(keys), view(query), view(out.scores), un, udk);
        out.scores /= std::sqrt(static_cast<float>(dk));
        break;
    case ScoreKind::general:
        core::gemv(view(cache.projected), view(query), view(out.scores), un, static_cast<std::size_t>(dq));
        break;
    case ScoreKind::additive:
    case ScoreKind::location: {
        const Eigen::Index da = params.w_q.rows();
        out.query_proj.resize(da);
        core::gemv(view(params.w_q), view(query), view(out.query_proj), static_cast<std::size_t>(da),
                   static_cast<std::size_t>(dq));
        out.hidden = cache.projected.rowwise() + out.query_proj.transpose();
        if (params.kind == ScoreKind::location) location_forward(params, previous, out);
        core::tanh(view(out.hidden), view(out.hidden));
        core::gemv(view(out.hidden), view(params.v), view(out.scores), un, static_cast<std::size_t>(da));
        break;
    }
    case ScoreKind::cosine:
        cosine_forward(query, keys, cache, out.scores, out.query_norm);
        break;
    case ScoreKind::scaled_cosine:
        out.cosines.resize(n);
        cosine_forward(query, keys, cache, out.cosines, out.query_norm);
        out.scale = params.scale[0];
        out.scores = out.scale * out.cosines;
        break;
    case ScoreKind::none: // params.check() refused it above
        break;
    }
}

KeyCache zeros_like(const KeyCache &cache) {
    KeyCache z;
    z.projected = Mat::Zero(cache.projected.rows(), cache.projected.cols());
    z.norms = Vec::Zero(cache.norms.size());
    return z;
}

void score_backward(const ScoreParams &params, const Vec &query, const Mat &keys, const KeyCache &cache,
                    const ScoreResult &fwd, const Vec &d_scores, Vec &d_query, Mat &d_keys, KeyCache &d_cache,
                    ScoreParams &d_params, Vec *d_previous) {
    const Eigen::Index n = keys.rows(), dq = query.size(), dk = keys.cols();
    if (n == 0) fail(params.kind, "no keys (keys are " + core::shape_text(keys) + ")");
    params.check(dq, dk);
    check_cache(params, keys, dq, cache);
    require_vector(params.kind, "forward scores", fwd.scores, n);
    require_vector(params.kind, "d_scores", d_scores, n);
    require_vector(params.kind, "d_query", d_query, dq);
    check_key_gradients(params, cache, d_cache, d_keys, d_params, n, dk);
    const auto un = static_cast<std::size_t>(n), udk = static_cast<std::size_t>(dk);

    switch (params.kind) {
    case ScoreKind::dot:
    case ScoreKind::scaled_dot: {
        const float scale = params.kind == ScoreKind::dot ? 1.0f : 1.0f / std::sqrt(static_cast<float>(dk));
        Vec dq_part(dq); // Kᵀ d_scores
        core::gemv_t(view(keys), view(d_scores), view(dq_part), un, udk);
        core::axpy(scale, view(dq_part), view(d_query));
        for (Eigen::Index j = 0; j < n; ++j) core::axpy(scale * d_scores[j], view(query), row(d_keys, j));
        break;
    }
    case ScoreKind::general: {
        // e_j = qᵀ p_j with p_j = W k_j (cached):  dq += Pᵀ d_scores,  dp_j += d_scores_j q
        Vec dq_part(dq);
        core::gemv_t(view(cache.projected), view(d_scores), view(dq_part), un, static_cast<std::size_t>(dq));
        d_query += dq_part;
        for (Eigen::Index j = 0; j < n; ++j) core::axpy(d_scores[j], view(query), row(d_cache.projected, j));
        break;
    }
    case ScoreKind::additive:
    case ScoreKind::location: {
        // e_j = vᵀ h_j,  h_j = tanh(a_j),  a_j = W_q q + p_j with p_j = W_k k_j (cached);
        // location adds W_f f_j + b to a_j.
        const Eigen::Index da = params.w_q.rows();
        const auto uda = static_cast<std::size_t>(da);
        require_matrix(params.kind, "forward hidden", fwd.hidden, n, da);
        require_matrix(params.kind, "dW_q", d_params.w_q, da, dq);
        require_vector(params.kind, "dv", d_params.v, da);
        Vec dv_part(da); // Hᵀ d_scores
        core::gemv_t(view(fwd.hidden), view(d_scores), view(dv_part), un, uda);
        d_params.v += dv_part;
        // d a_j = d_scores_j · v ⊙ (1 − h_j²):  n × da; this is also d p_j.
        Mat d_pre = (1.0f - fwd.hidden.array().square()).matrix();
        for (Eigen::Index j = 0; j < n; ++j) d_pre.row(j).array() *= d_scores[j] * params.v.transpose().array();
        d_cache.projected += d_pre;
        // W_q q is shared by every j, so its gradient is the column sum.
        const Vec d_query_proj = d_pre.colwise().sum().transpose();
        Vec dq_part(dq); // W_qᵀ d(W_q q)
        core::gemv_t(view(params.w_q), view(d_query_proj), view(dq_part), uda, static_cast<std::size_t>(dq));
        d_query += dq_part;
        for (Eigen::Index a = 0; a < da; ++a) core::axpy(d_query_proj[a], view(query), row(d_params.w_q, a));
        if (params.kind == ScoreKind::location)
            location_backward(params, fwd, d_pre, d_query_proj, d_params, d_previous);
        break;
    }
    case ScoreKind::cosine: // e_j = c_j
        cosine_backward(query, keys, cache, fwd.query_norm, fwd.scores, d_scores, d_query, d_keys, d_cache);
        break;
    case ScoreKind::scaled_cosine: {
        // e_j = g c_j:  dg += Σ_j de_j c_j,  dc_j = g de_j
        require_vector(params.kind, "forward cosines", fwd.cosines, n);
        require_vector(params.kind, "dg", d_params.scale, 1);
        d_params.scale[0] += core::dot(view(d_scores), view(fwd.cosines));
        const Vec d_cosines = params.scale[0] * d_scores;
        cosine_backward(query, keys, cache, fwd.query_norm, fwd.cosines, d_cosines, d_query, d_keys, d_cache);
        break;
    }
    case ScoreKind::none: // params.check() refused it above
        break;
    }
}

void prepare_keys_backward(const ScoreParams &params, const Mat &keys, const KeyCache &cache, const KeyCache &d_cache,
                           Mat &d_keys, ScoreParams &d_params) {
    const Eigen::Index n = keys.rows(), dk = keys.cols();
    check_key_gradients(params, cache, d_cache, d_keys, d_params, n, dk);
    const auto un = static_cast<std::size_t>(n), udk = static_cast<std::size_t>(dk);

    // projected = K Mᵀ (M = W or W_k, rows × dk):  dK += dP M,  dM += dPᵀ K
    auto through_projection = [&](const Mat &m, Mat &d_m, const char *what) {
        require_matrix(params.kind, "key cache", cache.projected, n, m.rows());
        require_matrix(params.kind, what, d_m, m.rows(), dk);
        Mat dk_part(n, dk);
        core::gemm_nn(view(d_cache.projected), view(m), view(dk_part), un, udk, static_cast<std::size_t>(m.rows()));
        d_keys += dk_part;
        d_m.noalias() += d_cache.projected.transpose() * keys;
    };
    switch (params.kind) {
    case ScoreKind::general:
        through_projection(params.w, d_params.w, "dW");
        break;
    case ScoreKind::additive:
    case ScoreKind::location:
        through_projection(params.w_k, d_params.w_k, "dW_k");
        break;
    case ScoreKind::cosine:
    case ScoreKind::scaled_cosine:
        // ν_j = ‖k_j‖ unless clamped:  dk_j += dν_j k_j / ‖k_j‖
        require_vector(params.kind, "key cache (‖k_j‖)", cache.norms, n);
        for (Eigen::Index j = 0; j < n; ++j)
            if (cache.norms[j] >= cosine_norm_epsilon)
                core::axpy(d_cache.norms[j] / cache.norms[j], row(keys, j), row(d_keys, j));
        break;
    default:
        break;
    }
}

void score_backward(const ScoreParams &params, const Vec &query, const Mat &keys, const KeyCache &cache,
                    const ScoreResult &fwd, const Vec &d_scores, Vec &d_query, Mat &d_keys, ScoreParams &d_params,
                    Vec *d_previous) {
    if (params.kind != ScoreKind::general) {
        KeyCache d_cache = zeros_like(cache);
        score_backward(params, query, keys, cache, fwd, d_scores, d_query, d_keys, d_cache, d_params, d_previous);
        prepare_keys_backward(params, keys, cache, d_cache, d_keys, d_params);
        return;
    }
    // general for a single query: going round the cache would cost n·dq·dk; directly it is
    // dk_j += d_scores_j Wᵀq and dW += q (Kᵀ d_scores)ᵀ, O((n + dq)·dk).
    const Eigen::Index n = keys.rows(), dq = query.size(), dk = keys.cols();
    if (n == 0) fail(params.kind, "no keys (keys are " + core::shape_text(keys) + ")");
    params.check(dq, dk);
    check_cache(params, keys, dq, cache);
    require_vector(params.kind, "d_scores", d_scores, n);
    require_vector(params.kind, "d_query", d_query, dq);
    require_matrix(params.kind, "d_keys", d_keys, n, dk);
    if (d_params.kind != params.kind)
        fail(params.kind, "d_params are for the " + std::string(name(d_params.kind)) + " score");
    require_matrix(params.kind, "dW", d_params.w, dq, dk);
    const auto un = static_cast<std::size_t>(n), udq = static_cast<std::size_t>(dq), udk = static_cast<std::size_t>(dk);
    Vec dq_part(dq); // Pᵀ d_scores
    core::gemv_t(view(cache.projected), view(d_scores), view(dq_part), un, udq);
    d_query += dq_part;
    Vec wt_q(dk); // Wᵀ q = ∂e_j/∂k_j
    core::gemv_t(view(params.w), view(query), view(wt_q), udq, udk);
    for (Eigen::Index j = 0; j < n; ++j) core::axpy(d_scores[j], view(wt_q), row(d_keys, j));
    Vec kt_ds(dk); // Kᵀ d_scores
    core::gemv_t(view(keys), view(d_scores), view(kt_ds), un, udk);
    for (Eigen::Index i = 0; i < dq; ++i) core::axpy(query[i], view(kt_ds), row(d_params.w, i));
}

} // namespace apg::attention
