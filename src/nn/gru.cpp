#include "nn/gru.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace apg::nn {

void GruParams::list(core::ParamList out, Eigen::Index input, Eigen::Index hidden) {
    out.add("w_ih", w_ih, 3 * hidden, input);
    out.add("w_hh", w_hh, 3 * hidden, hidden);
    out.add("b_ih", b_ih, 3 * hidden);
    out.add("b_hh", b_hh, 3 * hidden);
}

GruParams GruParams::init(int input, int hidden, core::Rng &rng) {
    if (input <= 0 || hidden <= 0)
        throw std::invalid_argument("gru: input and hidden sizes must be positive, got " + std::to_string(input) +
                                    " and " + std::to_string(hidden));
    const float bound = 1.0f / std::sqrt(static_cast<float>(hidden));
    GruParams p = zeros(input, hidden);
    for (Mat *m : {&p.w_ih, &p.w_hh})
        for (Eigen::Index i = 0; i < m->size(); ++i) m->data()[i] = rng.uniform(-bound, bound);
    for (Vec *v : {&p.b_ih, &p.b_hh})
        for (Eigen::Index i = 0; i < v->size(); ++i) (*v)[i] = rng.uniform(-bound, bound);
    return p;
}

namespace {

void check_step(const GruParams &params, Eigen::Index b, const char *what, Eigen::Index rows, Eigen::Index cols,
                Eigen::Index want_cols) {
    if (rows != b || cols != want_cols)
        throw std::invalid_argument(std::string("gru step: ") + what + " is " + std::to_string(rows) + "x" +
                                    std::to_string(cols) + ", expected " + std::to_string(b) + "x" +
                                    std::to_string(want_cols) + " (hidden " + std::to_string(params.hidden()) + ")");
}

void check_mask(std::span<const std::uint8_t> mask, Eigen::Index b) {
    if (!mask.empty() && static_cast<Eigen::Index>(mask.size()) != b)
        throw std::invalid_argument("gru step: mask has " + std::to_string(mask.size()) + " bytes for " +
                                    std::to_string(b) + " rows");
}

} // namespace

void gru_step_forward(const GruParams &params, CMatMap x_proj, CMatMap h_prev, MatMap h, GruStepCache &cache,
                      std::span<const std::uint8_t> mask) {
    const Eigen::Index B = h_prev.rows(), S = params.hidden();
    check_step(params, B, "x_proj", x_proj.rows(), x_proj.cols(), 3 * S);
    check_step(params, B, "h_prev", h_prev.rows(), h_prev.cols(), S);
    check_step(params, B, "h", h.rows(), h.cols(), S);
    check_mask(mask, B);

    cache.gates.resize(B, 2 * S);
    cache.candidate.resize(B, S);
    cache.hidden_proj.resize(B, 3 * S);
    matmul_nt(h_prev, whole(params.w_hh), whole(cache.hidden_proj));
    for (Eigen::Index b = 0; b < B; ++b) {
        float *gh = cache.hidden_proj.data() + b * 3 * S;
        const float *gi = x_proj.data() + b * 3 * S;
        float *gates = cache.gates.data() + b * 2 * S;
        for (Eigen::Index k = 0; k < 3 * S; ++k) gh[k] += params.b_hh[k];
        for (Eigen::Index k = 0; k < 2 * S; ++k) gates[k] = gi[k] + gh[k];
    }
    core::sigmoid(view(cache.gates), view(cache.gates));
    for (Eigen::Index b = 0; b < B; ++b) {
        const float *gh = cache.hidden_proj.data() + b * 3 * S + 2 * S;
        const float *gi = x_proj.data() + b * 3 * S + 2 * S;
        const float *r = cache.gates.data() + b * 2 * S;
        float *n = cache.candidate.data() + b * S;
        for (Eigen::Index k = 0; k < S; ++k) n[k] = gi[k] + r[k] * gh[k];
    }
    core::tanh(view(cache.candidate), view(cache.candidate));
    for (Eigen::Index b = 0; b < B; ++b) {
        const float *hp = h_prev.data() + b * S;
        float *out = h.data() + b * S;
        if (!mask.empty() && mask[b] == 0) {
            for (Eigen::Index k = 0; k < S; ++k) out[k] = hp[k];
            continue;
        }
        const float *z = cache.gates.data() + b * 2 * S + S;
        const float *n = cache.candidate.data() + b * S;
        for (Eigen::Index k = 0; k < S; ++k) out[k] = n[k] + z[k] * (hp[k] - n[k]);
    }
}

void gru_step_backward(const GruParams &params, CMatMap h_prev, const GruStepCache &cache, CMatMap d_h, MatMap d_x_proj,
                       MatMap dh_prev, GruParams &grads, Mat &d_hidden_proj, std::span<const std::uint8_t> mask) {
    const Eigen::Index B = h_prev.rows(), S = params.hidden();
    check_step(params, B, "d_h", d_h.rows(), d_h.cols(), S);
    check_step(params, B, "d_x_proj", d_x_proj.rows(), d_x_proj.cols(), 3 * S);
    check_step(params, B, "dh_prev", dh_prev.rows(), dh_prev.cols(), S);
    check_mask(mask, B);
    d_hidden_proj.resize(B, 3 * S);
    for (Eigen::Index b = 0; b < B; ++b) {
        const float *g = d_h.data() + b * S;
        float *dgi = d_x_proj.data() + b * 3 * S;
        float *dgh = d_hidden_proj.data() + b * 3 * S;
        float *dhp = dh_prev.data() + b * S;
        if (!mask.empty() && mask[b] == 0) {
            // A held row passes its gradient straight to the previous state.
            for (Eigen::Index k = 0; k < 3 * S; ++k) dgi[k] = dgh[k] = 0.0f;
            for (Eigen::Index k = 0; k < S; ++k) dhp[k] += g[k];
            continue;
        }
        const float *r = cache.gates.data() + b * 2 * S;
        const float *z = r + S;
        const float *n = cache.candidate.data() + b * S;
        const float *ghn = cache.hidden_proj.data() + b * 3 * S + 2 * S;
        const float *hp = h_prev.data() + b * S;
        for (Eigen::Index k = 0; k < S; ++k) {
            const float dn = g[k] * (1.0f - z[k]);
            const float dz = g[k] * (hp[k] - n[k]);
            dhp[k] += g[k] * z[k];
            const float da_n = dn * (1.0f - n[k] * n[k]);
            const float dr = da_n * ghn[k];
            const float da_r = dr * r[k] * (1.0f - r[k]);
            const float da_z = dz * z[k] * (1.0f - z[k]);
            dgi[k] = dgh[k] = da_r;
            dgi[S + k] = dgh[S + k] = da_z;
            dgi[2 * S + k] = da_n;
            dgh[2 * S + k] = da_n * r[k];
        }
    }
    matmul_nn(whole(std::as_const(d_hidden_proj)), whole(params.w_hh), dh_prev, true);
    matmul_tn(whole(std::as_const(d_hidden_proj)), h_prev, whole(grads.w_hh), true);
    grads.b_hh += d_hidden_proj.colwise().sum().transpose();
}

void gru_input_projection(const GruParams &params, CMatMap x, MatMap x_proj) {
    matmul_nt(x, whole(params.w_ih), x_proj);
    x_proj.rowwise() += params.b_ih.transpose();
}

void gru_input_projection_backward(const GruParams &params, CMatMap x, CMatMap d_x_proj, GruParams &grads, MatMap *dx,
                                   bool accumulate_dx) {
    matmul_tn(d_x_proj, x, whole(grads.w_ih), true);
    grads.b_ih += d_x_proj.colwise().sum().transpose();
    if (dx) matmul_nn(d_x_proj, whole(params.w_ih), *dx, accumulate_dx);
}

} // namespace apg::nn
