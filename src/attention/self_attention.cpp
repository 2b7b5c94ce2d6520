// Multi-head scaled dot-product self-attention, forward and backward (shapes in self_attention.hpp).
#include "attention/self_attention.hpp"

#include "core/kernels.hpp"
#include "core/shape_text.hpp"
#include "core/uniform_init.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace apg::attention {

namespace {

using Index = Eigen::Index;

[[noreturn]] void fail(const char *op, const std::string &what) {
    throw std::invalid_argument(std::string(op) + ": " + what);
}

void require_matrix(const char *op, const char *what, const Mat &m, Index rows, Index cols) {
    if (m.rows() != rows || m.cols() != cols)
        fail(op, std::string(what) + " is " + core::shape_text(m) + ", expected " + core::shape_text(rows, cols));
}

void require_vector(const char *op, const char *what, const Vec &v, Index size) {
    if (v.size() != size)
        fail(op,
             std::string(what) + " has " + std::to_string(v.size()) + " elements, expected " + std::to_string(size));
}

void require_params(const char *op, const SelfAttentionParams &p, Index d) {
    require_matrix(op, "W_q", p.w_q, d, d);
    require_matrix(op, "W_k", p.w_k, d, d);
    require_matrix(op, "W_v", p.w_v, d, d);
    require_matrix(op, "W_o", p.w_o, d, d);
    require_vector(op, "b_q", p.b_q, d);
    require_vector(op, "b_k", p.b_k, d);
    require_vector(op, "b_v", p.b_v, d);
    require_vector(op, "b_o", p.b_o, d);
}

// Checks x against params and options; returns dk.
Index check_inputs(const char *op, const SelfAttentionParams &params, const Mat &x,
                   const SelfAttentionOptions &options) {
    params.check();
    const Index d = params.dim(), n = x.rows();
    if (x.cols() != d) fail(op, "x is " + core::shape_text(x) + " but the parameters are for d = " + std::to_string(d));
    if (n == 0) fail(op, "x is " + core::shape_text(x) + ", an empty sequence");
    if (options.heads <= 0 || d % options.heads != 0)
        fail(op, "d = " + std::to_string(d) + " does not split into heads = " + std::to_string(options.heads) +
                     " (d must be a positive multiple of the number of heads)");
    if (!options.padding_mask.empty() && options.padding_mask.size() != static_cast<std::size_t>(n))
        fail(op, "padding mask has " + std::to_string(options.padding_mask.size()) + " bytes but x is " +
                     core::shape_text(x) + " (one byte per position)");
    return d / options.heads;
}

// out = x Wᵀ + b:  x n × d, W d × d
void project(const Mat &x, const Mat &w, const Vec &b, Mat &out) {
    const auto n = static_cast<std::size_t>(x.rows()), d = static_cast<std::size_t>(x.cols());
    out.resize(x.rows(), w.rows());
    core::gemm_nt(view(x), view(w), view(out), n, static_cast<std::size_t>(w.rows()), d);
    out.rowwise() += b.transpose();
}

// For y = x Wᵀ + b given dy: dW += dyᵀ x, db += column sums of dy, dx += dy W.
void project_backward(const Mat &x, const Mat &w, const Mat &dy, Mat &dw, Vec &db, Mat &dx) {
    dw.noalias() += dy.transpose() * x;
    db += dy.colwise().sum().transpose();
    Mat dx_part(x.rows(), x.cols());
    core::gemm_nn(view(dy), view(w), view(dx_part), static_cast<std::size_t>(dy.rows()),
                  static_cast<std::size_t>(w.cols()), static_cast<std::size_t>(dy.cols()));
    dx += dx_part;
}

} // namespace

SelfAttentionParams SelfAttentionParams::init(Eigen::Index d, core::Rng &rng) {
    if (d <= 0) fail("SelfAttentionParams::init", "model size d must be positive, got " + std::to_string(d));
    SelfAttentionParams p;
    p.w_q = core::uniform_matrix(d, d, rng);
    p.w_k = core::uniform_matrix(d, d, rng);
    p.w_v = core::uniform_matrix(d, d, rng);
    p.w_o = core::uniform_matrix(d, d, rng);
    p.b_q = p.b_k = p.b_v = p.b_o = Vec::Zero(d);
    return p;
}

void SelfAttentionParams::list(core::ParamList out, Eigen::Index d) {
    out.add("w_q", w_q, d, d);
    out.add("b_q", b_q, d);
    out.add("w_k", w_k, d, d);
    out.add("b_k", b_k, d);
    out.add("w_v", w_v, d, d);
    out.add("b_v", b_v, d);
    out.add("w_o", w_o, d, d);
    out.add("b_o", b_o, d);
}

void SelfAttentionParams::check() const {
    if (w_q.rows() == 0)
        fail("self_attention", "W_q is " + core::shape_text(w_q) + ", the model size d must be positive");
    require_params("self_attention", *this, w_q.rows());
}

void head_forward(SelfAttentionHead &head, std::span<const std::uint8_t> allowed, float scale, Keep keep) {
    constexpr float masked = -std::numeric_limits<float>::infinity();
    const Index nq = head.query.rows(), nk = head.key.rows(), dk = head.query.cols();
    const auto unq = static_cast<std::size_t>(nq), unk = static_cast<std::size_t>(nk),
               udk = static_cast<std::size_t>(dk);
    head.output.resize(nq, dk);
    if (keep == Keep::outputs) {
        // An allowed matrix of ones masks nothing: the kernel then skips the per-key test.
        const bool masks = std::find(allowed.begin(), allowed.end(), std::uint8_t{0}) != allowed.end();
        core::fused_attention({view(head.query), unq, udk, udk}, {view(head.key), unk, udk, udk},
                              {view(head.value), unk, udk, udk}, {view(head.output), unq, udk, udk}, scale,
                              {.allowed = masks ? allowed : std::span<const std::uint8_t>{}});
        return;
    }
    head.raw_scores.resize(nq, nk);
    core::gemm_nt(view(head.query), view(head.key), view(head.raw_scores), unq, unk, udk);
    head.scores = head.raw_scores * scale;
    head.weights.resize(nq, nk);
    for (Index r = 0; r < nq; ++r) {
        const core::mask_span row_mask = allowed.subspan(static_cast<std::size_t>(r) * unk, unk);
        for (Index c = 0; c < nk; ++c)
            if (!row_mask[c]) head.scores(r, c) = masked;
        core::softmax(row(head.scores, r), row(head.weights, r), row_mask);
    }
    core::gemm_nn(view(head.weights), view(head.value), view(head.output), unq, udk, unk);
}

void self_attention_forward(const SelfAttentionParams &params, const Mat &x, const SelfAttentionOptions &options,
                            SelfAttentionResult &out) {
    const char *op = "self_attention_forward";
    const Index dk = check_inputs(op, params, x, options);
    const Index n = x.rows(), d = params.dim();
    const auto un = static_cast<std::size_t>(n);

    // Which (query row, key column) pairs take part: n × n.
    out.allowed.assign(un * un, 0);
    for (Index r = 0; r < n; ++r) {
        bool any = false;
        for (Index c = 0; c < n; ++c) {
            const bool on =
                (options.padding_mask.empty() || options.padding_mask[c] != 0) && (!options.causal || c <= r);
            out.allowed[r * n + c] = on ? 1 : 0;
            any = any || on;
        }
        if (!any)
            fail(op, "position " + std::to_string(r) + " of " + std::to_string(n) +
                         " has no key to attend to (every key it may see is padding" +
                         (options.causal ? ", with causal masking)" : ")"));
    }

    project(x, params.w_q, params.b_q, out.query);
    project(x, params.w_k, params.b_k, out.key);
    project(x, params.w_v, params.b_v, out.value);

    // Dividing by √dk keeps the variance of the scores near 1, so softmax does not saturate.
    const float scale = 1.0f / std::sqrt(static_cast<float>(dk));
    out.concat.resize(n, d);
    if (options.keep == Keep::outputs) {
        // Each head's columns of Q, K, V are read in place and its output written into concat's.
        out.heads.clear();
        const auto ud = static_cast<std::size_t>(d), udk = static_cast<std::size_t>(dk);
        const core::AttentionMask mask{.keys = options.padding_mask, .causal = options.causal};
        for (std::size_t h = 0; h < static_cast<std::size_t>(options.heads); ++h) {
            auto columns = [&](const Mat &m) { return core::ConstRows{view(m).subspan(h * udk), un, udk, ud}; };
            core::fused_attention(columns(out.query), columns(out.key), columns(out.value),
                                  {view(out.concat).subspan(h * udk), un, udk, ud}, scale, mask);
        }
    } else {
        out.heads.resize(static_cast<std::size_t>(options.heads));
        for (int h = 0; h < options.heads; ++h) {
            SelfAttentionHead &head = out.heads[static_cast<std::size_t>(h)];
            head.query = out.query.middleCols(h * dk, dk);
            head.key = out.key.middleCols(h * dk, dk);
            head.value = out.value.middleCols(h * dk, dk);
            head_forward(head, out.allowed, scale);
            out.concat.middleCols(h * dk, dk) = head.output;
        }
    }
    project(out.concat, params.w_o, params.b_o, out.output);
}

void self_attention_backward(const SelfAttentionParams &params, const Mat &x, const SelfAttentionOptions &options,
                             const SelfAttentionResult &fwd, const Mat &d_output, Mat &d_x,
                             SelfAttentionParams &d_params) {
    const char *op = "self_attention_backward";
    const Index dk = check_inputs(op, params, x, options);
    const Index n = x.rows(), d = params.dim();
    const auto un = static_cast<std::size_t>(n), udk = static_cast<std::size_t>(dk);
    require_matrix(op, "d_output", d_output, n, d);
    require_matrix(op, "d_x", d_x, n, d);
    require_params(op, d_params, d);
    require_matrix(op, "forward concat", fwd.concat, n, d);
    if (fwd.heads.size() != static_cast<std::size_t>(options.heads))
        fail(op, "the forward result has " + std::to_string(fwd.heads.size()) + " heads, options say " +
                     std::to_string(options.heads) + " (a forward pass that keeps only its outputs keeps no heads)");

    // Y = concat W_oᵀ + b_o
    Mat d_concat = Mat::Zero(n, d);
    project_backward(fwd.concat, params.w_o, d_output, d_params.w_o, d_params.b_o, d_concat);

    const float scale = 1.0f / std::sqrt(static_cast<float>(dk));
    Mat d_query(n, d), d_key(n, d), d_value(n, d);
    Mat d_head_output(n, dk), d_weights(n, n), d_raw_scores(n, n), d_head_query(n, dk);
    for (int h = 0; h < options.heads; ++h) {
        const SelfAttentionHead &head = fwd.heads[static_cast<std::size_t>(h)];
        require_matrix(op, "forward head weights", head.weights, n, n);
        d_head_output = d_concat.middleCols(h * dk, dk);
        // output = weights · value:  d_weights = d_output valueᵀ,  d_value = weightsᵀ d_output
        core::gemm_nt(view(d_head_output), view(head.value), view(d_weights), un, un, udk);
        d_value.middleCols(h * dk, dk).noalias() = head.weights.transpose() * d_head_output;
        // Row-wise softmax: ds_rc = w_rc (dw_rc − Σ_k w_rk dw_rk); masked entries have w = 0 and get 0.
        for (Index r = 0; r < n; ++r) {
            const float mean = core::dot(row(head.weights, r), row(d_weights, r));
            for (Index c = 0; c < n; ++c)
                d_raw_scores(r, c) = head.weights(r, c) * (d_weights(r, c) - mean) * scale; // scale: back through ÷√dk
        }
        // raw_scores = query keyᵀ:  d_query = d_raw key,  d_key = d_rawᵀ query
        core::gemm_nn(view(d_raw_scores), view(head.key), view(d_head_query), un, udk, un);
        d_query.middleCols(h * dk, dk) = d_head_query;
        d_key.middleCols(h * dk, dk).noalias() = d_raw_scores.transpose() * head.query;
    }
    project_backward(x, params.w_q, d_query, d_params.w_q, d_params.b_q, d_x);
    project_backward(x, params.w_k, d_key, d_params.w_k, d_params.b_k, d_x);
    project_backward(x, params.w_v, d_value, d_params.w_v, d_params.b_v, d_x);
}

} // namespace apg::attention
