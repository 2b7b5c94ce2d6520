// Gated recurrent unit (the PyTorch formulation), batched over B rows.
// Shapes: B = batch rows, I = input size, S = state (hidden) size: He in the encoder, Hd in the
// decoder. Gate blocks are stacked [r; z; n].
//   r = σ(x W_irᵀ + b_ir + h W_hrᵀ + b_hr)
//   z = σ(x W_izᵀ + b_iz + h W_hzᵀ + b_hz)
//   n = tanh(x W_inᵀ + b_in + r ⊙ (h W_hnᵀ + b_hn))
//   h' = (1 − z) ⊙ n + z ⊙ h
// The input projection x W_ihᵀ + b_ih is taken as an argument so callers can compute it for
// every time step in one product.
#pragma once

#include "core/params.hpp"
#include "core/rng.hpp"
#include "nn/matmul.hpp"

#include <cstdint>
#include <span>

namespace apg::nn {

struct GruParams {
    Mat w_ih; // 3S × I
    Mat w_hh; // 3S × S
    Vec b_ih; // 3S
    Vec b_hh; // 3S

    // The tensors, once: w_ih 3S × I, w_hh 3S × S, b_ih 3S, b_hh 3S.
    void list(core::ParamList out, Eigen::Index input, Eigen::Index hidden);
    // Uniform ±1/√S, like PyTorch.
    static GruParams init(int input, int hidden, core::Rng &rng);
    static GruParams zeros(Eigen::Index input, Eigen::Index hidden) { return core::zeros<GruParams>(input, hidden); }
    GruParams zeros_like() const { return zeros(input(), hidden()); }
    Eigen::Index input() const { return w_ih.cols(); }
    Eigen::Index hidden() const { return w_hh.cols(); }
};

// What one batched step keeps for its backward pass (and for anyone who wants to look).
struct GruStepCache {
    Mat gates;       // B × 2S   [r | z]
    Mat candidate;   // B × S    n
    Mat hidden_proj; // B × 3S   h W_hhᵀ + b_hh
};

// x_proj: B × 3S (x W_ihᵀ + b_ih), h_prev: B × S, h: B × S (must not alias h_prev).
// Rows whose mask byte is 0 keep their previous state (padding); an empty mask updates every row.
void gru_step_forward(const GruParams &params, CMatMap x_proj, CMatMap h_prev, MatMap h, GruStepCache &cache,
                      std::span<const std::uint8_t> mask = {});

// d_h: B × S, the gradient of the loss with respect to h. Writes d_x_proj (B × 3S: the gradient
// of x W_ihᵀ + b_ih, so d b_ih is its column sum and d x = d_x_proj W_ih), ACCUMULATES dh_prev
// (B × S) and the w_hh / b_hh gradients in grads (w_ih and b_ih are left to the caller).
void gru_step_backward(const GruParams &params, CMatMap h_prev, const GruStepCache &cache, CMatMap d_h, MatMap d_x_proj,
                       MatMap dh_prev, GruParams &grads, Mat &d_hidden_proj, std::span<const std::uint8_t> mask = {});

// x_proj = x W_ihᵀ + b_ih for a block of rows (x: R × I, x_proj: R × 3S).
void gru_input_projection(const GruParams &params, CMatMap x, MatMap x_proj);
// The gradient of gru_input_projection: ACCUMULATES w_ih and b_ih in grads, and dx (R × I) if given.
void gru_input_projection_backward(const GruParams &params, CMatMap x, CMatMap d_x_proj, GruParams &grads, MatMap *dx,
                                   bool accumulate_dx);

} // namespace apg::nn
