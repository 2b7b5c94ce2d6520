// Multi-head attention over projected keys and values, forward and backward (shapes in
// multi_head_attention.hpp).
#include "nn/multi_head_attention.hpp"

#include "core/kernels.hpp"
#include "nn/matmul.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace apg::nn {

namespace {

using Index = Eigen::Index;
using attention::SelfAttentionParams;

constexpr float masked = -std::numeric_limits<float>::infinity();

std::string shape(const Mat &m) { return std::to_string(m.rows()) + "×" + std::to_string(m.cols()); }

[[noreturn]] void fail(const char *op, const std::string &what) {
    throw std::invalid_argument(std::string(op) + ": " + what);
}

// out = x Wᵀ + b
void linear(const Mat &x, const Mat &w, const Vec &b, Mat &out) {
    out.resize(x.rows(), w.rows());
    matmul_nt(whole(x), whole(w), whole(out));
    out.rowwise() += b.transpose();
}

// For y = x Wᵀ + b given dy: dW += dyᵀ x, db += column sums of dy, dx += dy W.
void linear_backward(const Mat &x, const Mat &w, const Mat &dy, Mat &dw, Vec &db, Mat &dx) {
    matmul_tn(whole(dy), whole(x), whole(dw), true);
    db += dy.colwise().sum().transpose();
    matmul_nn(whole(dy), whole(w), whole(dx), true);
}

// Checks x and kv against the parameters and options; returns dk.
Index check(const char *op, const SelfAttentionParams &params, const Mat &x, const KeyValues &kv,
            const MultiHeadOptions &options) {
    params.check();
    const Index d = params.dim(), m = x.rows(), n = kv.key.rows();
    if (x.cols() != d || m == 0)
        fail(op, "queries are " + shape(x) + ", expected m × " + std::to_string(d) + ", m ≥ 1");
    if (kv.key.cols() != d || kv.value.rows() != n || kv.value.cols() != d || n == 0)
        fail(op, "keys are " + shape(kv.key) + " and values " + shape(kv.value) + ", expected n × " +
                     std::to_string(d) + " each, n ≥ 1");
    if (options.heads <= 0 || d % options.heads != 0)
        fail(op, "d = " + std::to_string(d) + " does not split into heads = " + std::to_string(options.heads));
    if (!options.allowed.empty() && options.allowed.size() != static_cast<std::size_t>(m * n))
        fail(op, "allowed has " + std::to_string(options.allowed.size()) + " bytes for " + std::to_string(m) + " × " +
                     std::to_string(n) + " pairs");
    if (!options.edits.empty() && (m != 1 || options.edits.size() != static_cast<std::size_t>(options.heads)))
        fail(op, std::to_string(options.edits.size()) + " head edits for " + std::to_string(m) + " queries and " +
                     std::to_string(options.heads) + " heads (edits are for one query, one per head)");
    return d / options.heads;
}

} // namespace

void project_key_values(const SelfAttentionParams &params, const Mat &memory, KeyValues &out) {
    params.check();
    if (memory.cols() != params.dim())
        fail("project_key_values", "memory is " + shape(memory) + ", expected n × " + std::to_string(params.dim()));
    linear(memory, params.w_k, params.b_k, out.key);
    linear(memory, params.w_v, params.b_v, out.value);
}

void project_key_values_backward(const SelfAttentionParams &params, const Mat &memory, const KeyValues &d_kv,
                                 Mat &d_memory, SelfAttentionParams &grads) {
    linear_backward(memory, params.w_k, d_kv.key, grads.w_k, grads.b_k, d_memory);
    linear_backward(memory, params.w_v, d_kv.value, grads.w_v, grads.b_v, d_memory);
}

void multi_head_forward(const SelfAttentionParams &params, const Mat &x, const KeyValues &kv,
                        const MultiHeadOptions &options, MultiHeadResult &out) {
    const char *op = "multi_head_forward";
    const Index dk = check(op, params, x, kv, options);
    const Index m = x.rows(), n = kv.key.rows(), d = params.dim();
    const auto un = static_cast<std::size_t>(n);

    std::vector<std::uint8_t> all;
    std::span<const std::uint8_t> allowed = options.allowed;
    if (allowed.empty()) {
        all.assign(static_cast<std::size_t>(m) * un, 1);
        allowed = all;
    }
    linear(x, params.w_q, params.b_q, out.query);
    // Dividing by √dk keeps the scores' variance near 1; τ divides them once more for the softmax only.
    const float scale = 1.0f / std::sqrt(static_cast<float>(dk));
    const float tau = options.temperature;
    out.heads.resize(static_cast<std::size_t>(options.heads));
    out.concat.resize(m, d);
    std::vector<std::uint8_t> own; // one head's mask joined with `allowed` (one query)
    for (int h = 0; h < options.heads; ++h) {
        attention::SelfAttentionHead &head = out.heads[static_cast<std::size_t>(h)];
        head.query = out.query.middleCols(h * dk, dk);
        head.key = kv.key.middleCols(h * dk, dk);
        head.value = kv.value.middleCols(h * dk, dk);
        const HeadEdit *edit = options.edits.empty() ? nullptr : &options.edits[static_cast<std::size_t>(h)];
        std::span<const std::uint8_t> head_allowed = allowed;
        if (edit && !edit->mask.empty()) {
            if (edit->mask.size() != un)
                fail(op, "head " + std::to_string(h) + "'s mask has " + std::to_string(edit->mask.size()) +
                             " bytes for " + std::to_string(n) + " keys");
            own.assign(allowed.begin(), allowed.end());
            for (std::size_t c = 0; c < un; ++c) own[c] = own[c] && edit->mask[c];
            head_allowed = own;
        }
        for (Index r = 0; r < m; ++r) {
            bool any = false;
            for (Index c = 0; c < n; ++c) any = any || head_allowed[static_cast<std::size_t>(r * n + c)];
            if (!any) fail(op, "query " + std::to_string(r) + " has no key head " + std::to_string(h) + " may see");
        }
        attention::head_forward(head, head_allowed, scale / tau);
        if (tau != 1.0f) { // the scores as scaled by √dk alone, as the record shows them
            head.scores = head.raw_scores * scale;
            for (Index c = 0; c < head.scores.size(); ++c)
                if (!head_allowed[static_cast<std::size_t>(c)]) head.scores.data()[c] = masked;
        }
        if (edit && !edit->weights.empty()) {
            if (edit->weights.size() != un)
                fail(op, "head " + std::to_string(h) + " has " + std::to_string(edit->weights.size()) +
                             " pinned weights for " + std::to_string(n) + " keys");
            head.weights = Eigen::Map<const Mat>(edit->weights.data(), 1, n);
            core::gemm_nn(view(head.weights), view(head.value), view(head.output), 1, static_cast<std::size_t>(dk), un);
        }
        if (edit && edit->off) head.output.setZero();
        out.concat.middleCols(h * dk, dk) = head.output;
    }
    linear(out.concat, params.w_o, params.b_o, out.output);
}

void multi_head_backward(const SelfAttentionParams &params, const Mat &x, const KeyValues &kv,
                         const MultiHeadOptions &options, const MultiHeadResult &fwd, const Mat &d_output, Mat &d_x,
                         KeyValues &d_kv, SelfAttentionParams &grads) {
    const char *op = "multi_head_backward";
    const Index dk = check(op, params, x, kv, options);
    const Index m = x.rows(), n = kv.key.rows(), d = params.dim();
    if (!options.edits.empty() || options.temperature != 1.0f) fail(op, "what-ifs have no gradient");
    if (d_output.rows() != m || d_output.cols() != d || d_x.rows() != m || d_x.cols() != d)
        fail(op, "d_output is " + shape(d_output) + " and d_x " + shape(d_x) + ", expected " + shape(x));
    if (d_kv.key.rows() != n || d_kv.key.cols() != d || d_kv.value.rows() != n || d_kv.value.cols() != d)
        fail(op, "d_kv is " + shape(d_kv.key) + " and " + shape(d_kv.value) + ", expected " + shape(kv.key));
    if (fwd.heads.size() != static_cast<std::size_t>(options.heads) || fwd.concat.rows() != m)
        fail(op, "the forward result is not of these queries and heads");

    // Y = concat W_oᵀ + b_o
    Mat d_concat = Mat::Zero(m, d);
    linear_backward(fwd.concat, params.w_o, d_output, grads.w_o, grads.b_o, d_concat);

    const float scale = 1.0f / std::sqrt(static_cast<float>(dk));
    Mat d_query(m, d), d_head(m, dk), d_weights(m, n), d_raw(m, n);
    for (int h = 0; h < options.heads; ++h) {
        const attention::SelfAttentionHead &head = fwd.heads[static_cast<std::size_t>(h)];
        d_head = d_concat.middleCols(h * dk, dk);
        // output = weights · value
        matmul_nt(whole(std::as_const(d_head)), whole(head.value), whole(d_weights));
        d_kv.value.middleCols(h * dk, dk).noalias() += head.weights.transpose() * d_head;
        // Row-wise softmax: ds_rc = w_rc (dw_rc − Σ_k w_rk dw_rk); masked entries have w = 0 and get 0.
        for (Index r = 0; r < m; ++r) {
            const float mean = core::dot(row(head.weights, r), row(d_weights, r));
            for (Index c = 0; c < n; ++c) d_raw(r, c) = head.weights(r, c) * (d_weights(r, c) - mean) * scale;
        }
        // raw_scores = query keyᵀ
        d_query.middleCols(h * dk, dk).noalias() = d_raw * head.key;
        d_kv.key.middleCols(h * dk, dk).noalias() += d_raw.transpose() * head.query;
    }
    linear_backward(x, params.w_q, d_query, grads.w_q, grads.b_q, d_x);
}

} // namespace apg::nn
