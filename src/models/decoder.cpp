#include "models/decoder.hpp"

#include "core/small.hpp"
#include "nn/cross_entropy.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace apg::models {

namespace {

[[noreturn]] APG_SMALL void bad_token(const DecoderParams &params, int token) {
    throw std::invalid_argument("decoder: token id " + std::to_string(token) + " is outside the target vocabulary of " +
                                std::to_string(params.embedding.rows()));
}

[[noreturn]] APG_SMALL void bad_states(const DecoderParams &params, const Mat &H) {
    throw std::invalid_argument("decoder: encoder states are " + std::to_string(H.rows()) + "x" +
                                std::to_string(H.cols()) + ", expected n x " + std::to_string(params.init_w.cols()) +
                                " with n >= 1");
}

[[noreturn]] APG_SMALL void bad_state(const Vec &prev_state, Eigen::Index Hd) {
    throw std::invalid_argument("decoder: previous state has " + std::to_string(prev_state.size()) +
                                " values, expected " + std::to_string(Hd));
}

void check_token(const DecoderParams &params, int token) {
    if (token < 0 || token >= params.embedding.rows()) bad_token(params, token);
}

bool attends(const DecoderParams &params) { return params.attn.kind != attention::ScoreKind::none; }

// The step's attention: attend(), or without attention (kind none) the mean of H as the context,
// the scores and weights empty.
void attend_or_fix(const DecoderParams &params, const Vec &query, const Mat &H, const attention::KeyCache &keys,
                   const attention::StepOptions &options, attention::AttentionStep &out) {
    if (attends(params)) {
        attention::attend(params.attn, query, H, keys, H, options, out);
        return;
    }
    out.score = {};
    out.weights.resize(0);
    out.context = H.colwise().mean().transpose();
}

std::span<const float> previous_weights(const attention::AttentionStep &step) {
    return {step.weights.data(), static_cast<std::size_t>(step.weights.size())};
}

nn::CMatMap row_view(const Vec &v) { return nn::CMatMap(v.data(), 1, v.size()); }
nn::MatMap row_view(Vec &v) { return nn::MatMap(v.data(), 1, v.size()); }

// Row-wise softmax of logits into probs (both R × V).
void softmax_rows(const Mat &logits, Mat &probs) {
    probs.resize(logits.rows(), logits.cols());
    for (Eigen::Index r = 0; r < logits.rows(); ++r) core::softmax(row(logits, r), row(probs, r));
}

} // namespace

void decoder_initial_state(const DecoderParams &params, const Mat &H, Vec &mean, Vec &state) {
    if (H.rows() == 0 || H.cols() != params.init_w.cols()) bad_states(params, H);
    mean = H.colwise().mean().transpose();
    state.resize(params.init_w.rows());
    nn::matmul_nt(row_view(std::as_const(mean)), nn::whole(params.init_w), row_view(state));
    state += params.init_b;
    core::tanh(view(state), view(state));
}

void decoder_step(const DecoderParams &params, AttentionStyle style, const Mat &H, const attention::KeyCache &keys,
                  const Vec &prev_state, int prev_token, const attention::StepOptions &options, DecoderStep &out) {
    check_token(params, prev_token);
    const Eigen::Index Hd = params.gru.hidden(), E = params.embedding.cols(), dh = H.cols();
    if (prev_state.size() != Hd) bad_state(prev_state, Hd);
    out.prev_token = prev_token;
    out.prev_state = prev_state;
    out.state.resize(Hd);
    Vec gru_in, gru_proj(3 * Hd);
    nn::GruStepCache gru;
    if (style == AttentionStyle::bahdanau) {
        out.query = prev_state;
        attend_or_fix(params, out.query, H, keys, options, out.attention);
        gru_in.resize(E + dh);
        gru_in.head(E) = params.embedding.row(prev_token).transpose();
        gru_in.tail(dh) = out.attention.context;
        nn::gru_input_projection(params.gru, row_view(std::as_const(gru_in)), row_view(gru_proj));
        nn::gru_step_forward(params.gru, row_view(std::as_const(gru_proj)), row_view(prev_state), row_view(out.state),
                             gru);
        Vec features(Hd + dh + E);
        features << out.state, out.attention.context, params.embedding.row(prev_token).transpose();
        out.attentional.resize(0);
        out.logits = params.out_w * features + params.out_b;
    } else {
        gru_in = params.embedding.row(prev_token).transpose();
        nn::gru_input_projection(params.gru, row_view(std::as_const(gru_in)), row_view(gru_proj));
        nn::gru_step_forward(params.gru, row_view(std::as_const(gru_proj)), row_view(prev_state), row_view(out.state),
                             gru);
        out.query = out.state;
        attend_or_fix(params, out.query, H, keys, options, out.attention);
        Vec combined(dh + Hd);
        combined << out.attention.context, out.state;
        out.attentional = params.combine_w * combined;
        core::tanh(view(out.attentional), view(out.attentional));
        out.logits = params.out_w * out.attentional + params.out_b;
    }
    out.probs.resize(out.logits.size());
    core::softmax(view(std::as_const(out.logits)), view(out.probs));
}

void decoder_forward(const DecoderParams &params, AttentionStyle style, const std::vector<Mat> &H,
                     const std::vector<attention::KeyCache> &keys, const std::vector<int> &inputs,
                     const std::vector<int> &targets, const std::vector<int> &lengths, DecoderCache &c) {
    const int B = static_cast<int>(lengths.size());
    if (B == 0 || static_cast<int>(H.size()) != B || static_cast<int>(keys.size()) != B ||
        inputs.size() != targets.size() || inputs.size() % B != 0)
        throw std::invalid_argument("decoder: batch of " + std::to_string(B) + " with " + std::to_string(H.size()) +
                                    " encoder outputs, " + std::to_string(inputs.size()) + " inputs and " +
                                    std::to_string(targets.size()) + " targets");
    const int T = static_cast<int>(inputs.size() / B);
    const Eigen::Index Hd = params.gru.hidden(), E = params.embedding.cols(), dh = params.init_w.cols();
    const Eigen::Index V = params.out_w.rows();
    for (int b = 0; b < B; ++b)
        if (lengths[b] < 1 || lengths[b] > T)
            throw std::invalid_argument("decoder: target length " + std::to_string(lengths[b]) + " is outside [1, " +
                                        std::to_string(T) + "]");
    for (int x : inputs) check_token(params, x);
    for (int y : targets)
        if (y >= V) throw std::invalid_argument("decoder: target id " + std::to_string(y) + " is out of range");
    c.batch = B;
    c.steps = T;
    c.inputs = inputs;
    c.targets = targets;
    c.lengths = lengths;

    // s_0 for every row
    c.means.resize(B, dh);
    for (int b = 0; b < B; ++b) c.means.row(b) = H[b].colwise().mean();
    c.states.resize((T + 1) * B, Hd);
    nn::MatMap s0 = nn::rows(c.states, 0, B);
    nn::matmul_nt(nn::whole(std::as_const(c.means)), nn::whole(params.init_w), s0);
    s0.rowwise() += params.init_b.transpose();
    core::tanh({s0.data(), static_cast<std::size_t>(s0.size())}, {s0.data(), static_cast<std::size_t>(s0.size())});

    c.embedded.resize(T * B, E);
    for (int r = 0; r < T * B; ++r) c.embedded.row(r) = params.embedding.row(inputs[r]);
    c.contexts.setZero(T * B, dh);
    c.gru_proj.resize(T * B, 3 * Hd);
    if (static_cast<int>(c.gru.size()) < T) c.gru.resize(T);
    if (static_cast<int>(c.attention.size()) < T * B) {
        c.attention.resize(T * B);
        c.queries.resize(T * B);
    }
    const bool carries = attention::reads_previous_weights(params.attn.kind);
    auto attend_row = [&](int i, int b, const Mat &query_block_source, Eigen::Index query_row) {
        const int r = i * B + b;
        c.queries[r] = query_block_source.row(query_row).transpose();
        if (!attends(params)) {
            c.contexts.row(r) = c.means.row(b); // the fixed vector
            return;
        }
        attention::StepOptions options{};
        if (carries && i > 0) options.previous = previous_weights(c.attention[r - B]);
        attention::attend(params.attn, c.queries[r], H[b], keys[b], H[b], options, c.attention[r]);
        c.contexts.row(r) = c.attention[r].context.transpose();
    };

    if (style == AttentionStyle::bahdanau) {
        c.gru_inputs.resize(T * B, E + dh);
        for (int i = 0; i < T; ++i) {
            for (int b = 0; b < B; ++b)
                if (i < lengths[b]) attend_row(i, b, c.states, i * B + b);
            for (int b = 0; b < B; ++b) {
                const int r = i * B + b;
                c.gru_inputs.row(r).head(E) = c.embedded.row(r);
                c.gru_inputs.row(r).tail(dh) = c.contexts.row(r);
            }
            nn::gru_input_projection(params.gru, nn::rows(std::as_const(c.gru_inputs), i * B, B),
                                     nn::rows(c.gru_proj, i * B, B));
            nn::gru_step_forward(params.gru, nn::rows(std::as_const(c.gru_proj), i * B, B),
                                 nn::rows(std::as_const(c.states), i * B, B), nn::rows(c.states, (i + 1) * B, B),
                                 c.gru[i]);
        }
        c.features.resize(T * B, Hd + dh + E);
        c.features.leftCols(Hd) = c.states.bottomRows(T * B);
        c.features.middleCols(Hd, dh) = c.contexts;
        c.features.rightCols(E) = c.embedded;
    } else {
        nn::gru_input_projection(params.gru, nn::whole(std::as_const(c.embedded)), nn::whole(c.gru_proj));
        for (int i = 0; i < T; ++i) {
            nn::gru_step_forward(params.gru, nn::rows(std::as_const(c.gru_proj), i * B, B),
                                 nn::rows(std::as_const(c.states), i * B, B), nn::rows(c.states, (i + 1) * B, B),
                                 c.gru[i]);
            for (int b = 0; b < B; ++b)
                if (i < lengths[b]) attend_row(i, b, c.states, (i + 1) * B + b);
        }
        c.combined.resize(T * B, dh + Hd);
        c.combined.leftCols(dh) = c.contexts;
        c.combined.rightCols(Hd) = c.states.bottomRows(T * B);
        c.features.resize(T * B, Hd);
        nn::matmul_nt(nn::whole(std::as_const(c.combined)), nn::whole(params.combine_w), nn::whole(c.features));
        core::tanh(view(std::as_const(c.features)), view(c.features));
    }

    Mat &logits = c.d_logits; // reused as the gradient in backward
    logits.resize(T * B, V);
    nn::matmul_nt(nn::whole(std::as_const(c.features)), nn::whole(params.out_w), nn::whole(logits));
    logits.rowwise() += params.out_b.transpose();
    softmax_rows(logits, c.probs);
    c.tokens = c.correct = 0;
    c.loss_sum = 0;
    for (int r = 0; r < T * B; ++r) {
        const int y = targets[r];
        if (y < 0) continue;
        ++c.tokens;
        c.loss_sum += nn::cross_entropy(row(std::as_const(logits), r), y);
        Eigen::Index best;
        c.probs.row(r).maxCoeff(&best);
        if (best == y) ++c.correct;
    }
}

void decoder_backward(const DecoderParams &params, AttentionStyle style, const std::vector<Mat> &H,
                      const std::vector<attention::KeyCache> &keys, DecoderCache &c, float scale, DecoderParams &grads,
                      std::vector<Mat> &d_H) {
    const int B = c.batch, T = c.steps;
    const Eigen::Index Hd = params.gru.hidden(), E = params.embedding.cols(), dh = params.init_w.cols();
    const Eigen::Index V = params.out_w.rows();
    if (static_cast<int>(d_H.size()) != B)
        throw std::invalid_argument("decoder backward: " + std::to_string(d_H.size()) +
                                    " encoder-state gradients for a batch of " + std::to_string(B));

    // dL/dlogits = scale · (p − onehot(y)) at active steps, 0 elsewhere.
    c.d_logits.resize(T * B, V);
    for (int r = 0; r < T * B; ++r) {
        if (c.targets[r] < 0)
            c.d_logits.row(r).setZero();
        else
            nn::cross_entropy_backward(row(std::as_const(c.probs), r), c.targets[r], scale, row(c.d_logits, r));
    }
    nn::matmul_tn(nn::whole(std::as_const(c.d_logits)), nn::whole(std::as_const(c.features)), nn::whole(grads.out_w),
                  true);
    grads.out_b += c.d_logits.colwise().sum().transpose();
    c.d_features.resize(T * B, c.features.cols());
    nn::matmul_nn(nn::whole(std::as_const(c.d_logits)), nn::whole(params.out_w), nn::whole(c.d_features));

    // Gradients of the attention inputs per sequence.
    if (c.d_keys.size() < static_cast<std::size_t>(B)) {
        c.d_keys.resize(B);
        c.d_values.resize(B);
    }
    if (c.d_caches.size() < static_cast<std::size_t>(B)) c.d_caches.resize(B);
    for (int b = 0; b < B; ++b) {
        c.d_keys[b].setZero(H[b].rows(), H[b].cols());
        c.d_values[b].setZero(H[b].rows(), H[b].cols());
        c.d_caches[b] = attention::zeros_like(keys[b]);
    }
    // Location attention: step i's weights also fed step i+1's location features, so their
    // gradient from there (d_weights[b], filled at step i+1) joins the one through the context.
    const bool carries = attention::reads_previous_weights(params.attn.kind);
    if (carries) {
        c.d_weights.resize(B);
        c.d_previous.resize(B);
        for (int b = 0; b < B; ++b) c.d_weights[b].setZero(H[b].rows());
    }
    // Backward of attention at (i, b) given dL/dc; dL/dq is added to carry row b.
    // Without attention every step's context is the mean of H: its gradient is summed here (B × dh).
    c.d_means.setZero(B, dh);
    auto attend_step_back = [&](int i, int b) {
        const int r = i * B + b;
        attention::StepOptions options{};
        Vec *d_previous = nullptr;
        if (carries && i > 0) {
            options.previous = previous_weights(c.attention[r - B]);
            c.d_previous[b].setZero(H[b].rows());
            d_previous = &c.d_previous[b];
        }
        c.d_query.setZero(Hd);
        attention::attend_backward(params.attn, c.queries[r], H[b], keys[b], H[b], options, c.attention[r], c.d_context,
                                   c.d_query, c.d_keys[b], c.d_caches[b], c.d_values[b], grads.attn,
                                   carries ? &c.d_weights[b] : nullptr, d_previous);
        c.carry.row(b) += c.d_query.transpose();
        if (carries) {
            if (d_previous)
                std::swap(c.d_weights[b], c.d_previous[b]); // dL/dα_{i−1} for step i − 1
            else
                c.d_weights[b].setZero();
        }
    };
    auto attend_back = [&](int i, int b, const Mat &d_contexts, Eigen::Index d_col) {
        const int r = i * B + b;
        c.d_context = d_contexts.row(r).segment(d_col, dh).transpose();
        if (!attends(params)) {
            c.d_means.row(b) += c.d_context.transpose();
            return;
        }
        attend_step_back(i, b);
    };

    c.d_gru_proj.resize(T * B, 3 * Hd);
    c.carry.setZero(B, Hd);
    if (style == AttentionStyle::bahdanau) {
        // features = [s_i | c_i | emb(y_{i-1})]
        c.d_gru_inputs.resize(B, E + dh);
        c.d_embedded = c.d_features.rightCols(E);
        for (int i = T - 1; i >= 0; --i) {
            c.carry += c.d_features.block(i * B, 0, B, Hd); // carry = dL/ds_i
            c.carry_next.setZero(B, Hd);
            nn::gru_step_backward(params.gru, nn::rows(std::as_const(c.states), i * B, B), c.gru[i],
                                  nn::whole(std::as_const(c.carry)), nn::rows(c.d_gru_proj, i * B, B),
                                  nn::whole(c.carry_next), grads.gru, c.d_hidden_proj);
            std::swap(c.carry, c.carry_next); // carry = dL/ds_{i-1} so far
            nn::matmul_nn(nn::rows(std::as_const(c.d_gru_proj), i * B, B), nn::whole(params.gru.w_ih),
                          nn::whole(c.d_gru_inputs));
            nn::rows(c.d_embedded, i * B, B) += c.d_gru_inputs.leftCols(E);
            // dL/dc_i = from the output layer + from the GRU input
            c.d_gru_inputs.rightCols(dh) += c.d_features.block(i * B, Hd, B, dh);
            for (int b = 0; b < B; ++b) {
                if (i >= c.lengths[b]) continue;
                c.d_context = c.d_gru_inputs.row(b).tail(dh).transpose();
                if (!attends(params)) {
                    c.d_means.row(b) += c.d_context.transpose();
                    continue;
                }
                attend_step_back(i, b);
            }
        }
        nn::matmul_tn(nn::whole(std::as_const(c.d_gru_proj)), nn::whole(std::as_const(c.gru_inputs)),
                      nn::whole(grads.gru.w_ih), true);
        grads.gru.b_ih += c.d_gru_proj.colwise().sum().transpose();
    } else {
        // features = a = tanh(combined W_cᵀ), combined = [c_i | s_i]
        for (Eigen::Index k = 0; k < c.d_features.size(); ++k) {
            const float a = c.features.data()[k];
            c.d_features.data()[k] *= 1.0f - a * a;
        }
        nn::matmul_tn(nn::whole(std::as_const(c.d_features)), nn::whole(std::as_const(c.combined)),
                      nn::whole(grads.combine_w), true);
        c.d_combined.resize(T * B, dh + Hd);
        nn::matmul_nn(nn::whole(std::as_const(c.d_features)), nn::whole(params.combine_w), nn::whole(c.d_combined));
        for (int i = T - 1; i >= 0; --i) {
            c.carry += c.d_combined.block(i * B, dh, B, Hd); // + dL/ds_i from the attentional state
            for (int b = 0; b < B; ++b)
                if (i < c.lengths[b]) attend_back(i, b, c.d_combined, 0); // query = s_i
            c.carry_next.setZero(B, Hd);
            nn::gru_step_backward(params.gru, nn::rows(std::as_const(c.states), i * B, B), c.gru[i],
                                  nn::whole(std::as_const(c.carry)), nn::rows(c.d_gru_proj, i * B, B),
                                  nn::whole(c.carry_next), grads.gru, c.d_hidden_proj);
            std::swap(c.carry, c.carry_next);
        }
        c.d_embedded.resize(T * B, E);
        nn::MatMap d_embedded = nn::whole(c.d_embedded);
        nn::gru_input_projection_backward(params.gru, nn::whole(std::as_const(c.embedded)),
                                          nn::whole(std::as_const(c.d_gru_proj)), grads.gru, &d_embedded, false);
    }
    for (int r = 0; r < T * B; ++r) grads.embedding.row(c.inputs[r]) += c.d_embedded.row(r);

    // s_0 = tanh(mean W_initᵀ + b_init); carry = dL/ds_0
    const Mat &s0 = c.states; // rows [0, B)
    for (int b = 0; b < B; ++b)
        for (Eigen::Index k = 0; k < Hd; ++k) c.carry(b, k) *= 1.0f - s0(b, k) * s0(b, k);
    nn::matmul_tn(nn::whole(std::as_const(c.carry)), nn::whole(std::as_const(c.means)), nn::whole(grads.init_w), true);
    grads.init_b += c.carry.colwise().sum().transpose();
    c.carry_next.resize(B, dh); // dL/dmean
    nn::matmul_nn(nn::whole(std::as_const(c.carry)), nn::whole(params.init_w), nn::whole(c.carry_next));
    c.carry_next += c.d_means;
    for (int b = 0; b < B; ++b) {
        // The key cache's gradient, summed over the steps, goes through prepare_keys once.
        attention::prepare_keys_backward(params.attn, H[b], keys[b], c.d_caches[b], c.d_keys[b], grads.attn);
        Mat &dHb = d_H[b];
        const float inv_n = 1.0f / static_cast<float>(H[b].rows());
        dHb += c.d_keys[b] + c.d_values[b];
        dHb.rowwise() += inv_n * c.carry_next.row(b);
    }
}

} // namespace apg::models
