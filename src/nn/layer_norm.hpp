// Layer normalisation over the rows of a matrix (Ba, Kiros & Hinton 2016).
// Shapes: n = rows (positions), d = features per row.
//   μ_i = mean_j x_ij,  σ²_i = mean_j (x_ij − μ_i)²,  x̂_ij = (x_ij − μ_i) / √(σ²_i + eps)
//   y_ij = gain_j · x̂_ij + bias_j
#pragma once

#include "core/params.hpp"
#include "core/tensor.hpp"

namespace apg::nn {

struct LayerNormParams {
    Vec gain;          // d
    Vec bias;          // d
    float eps = 1e-5f; // a hyperparameter, not learned (not in the checkpoint's tensors)

    // The tensors, once: gain d, bias d (eps as a setting).
    void list(core::ParamList out, Eigen::Index d, float eps_wanted);
    // gain = 1, bias = 0: the identity on already-normalised rows.
    static LayerNormParams init(Eigen::Index d, float eps = 1e-5f);
    // Same shapes and eps, all zeros: the accumulator for gradients.
    LayerNormParams zeros_like() const { return core::zeros<LayerNormParams>(dim(), eps); }
    Eigen::Index dim() const { return gain.size(); }
};

// What the forward pass keeps for the backward pass.
struct LayerNormCache {
    Mat normalized; // n × d   x̂
    Vec inv_std;    // n       1 / √(σ² + eps)
};

// x, y: n × d (y is resized; it may not alias x). Throws std::invalid_argument naming the shapes
// when x has d != gain.size(), gain and bias differ in size, or eps <= 0.
void layer_norm_forward(const LayerNormParams &params, const Mat &x, Mat &y, LayerNormCache &cache);

// Given dL/dy (n × d), ACCUMULATES (+=) dL/dx into dx (n × d, sized already) and dL/d gain,
// dL/d bias into grads (same shapes as params, e.g. from zeros_like()).
void layer_norm_backward(const LayerNormParams &params, const LayerNormCache &cache, const Mat &dy, Mat &dx,
                         LayerNormParams &grads);

} // namespace apg::nn
