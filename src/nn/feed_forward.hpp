// The position-wise feed-forward block of a Transformer layer, applied to every row alike.
// Shapes: n = rows (positions), d = model size, f = inner size (d_ff).
//   pre    = x W1ᵀ + b1       n × f
//   hidden = act(pre)         n × f     act = ReLU or GELU (the exact erf form)
//   y      = hidden W2ᵀ + b2  n × d
#pragma once

#include "core/params.hpp"
#include "core/rng.hpp"
#include "core/tensor.hpp"

#include <string_view>

namespace apg::nn {

enum class Activation { relu, gelu };

// "relu", "gelu"
std::string_view name(Activation activation);
// Inverse of name(); throws std::invalid_argument listing the valid names.
Activation parse_activation(std::string_view text);

struct FeedForwardParams {
    Activation activation = Activation::gelu;
    Mat w1; // f × d
    Vec b1; // f
    Mat w2; // d × f
    Vec b2; // d

    // The tensors, once: w1 f × d, b1 f, w2 d × f, b2 d (the activation as a setting).
    void list(core::ParamList out, Eigen::Index d, Eigen::Index f, Activation wanted);
    // Uniform ±1/√fan_in for weights and biases (as PyTorch's nn.Linear), from a deterministic generator.
    static FeedForwardParams init(Eigen::Index d, Eigen::Index f, Activation activation, core::Rng &rng);
    // Same activation and shapes, all zeros: the accumulator for gradients.
    FeedForwardParams zeros_like() const { return core::zeros<FeedForwardParams>(dim(), inner(), activation); }
    Eigen::Index dim() const { return w1.cols(); }   // d
    Eigen::Index inner() const { return w1.rows(); } // f
};

// What the forward pass keeps for the backward pass.
struct FeedForwardCache {
    Mat pre;    // n × f   before the activation
    Mat hidden; // n × f   after it
};

// x: n × d; y is resized to n × d (may not alias x). Throws std::invalid_argument naming the
// shapes when the parameters do not fit each other or x.
void feed_forward_forward(const FeedForwardParams &params, const Mat &x, Mat &y, FeedForwardCache &cache);

// Given dL/dy (n × d), ACCUMULATES (+=) dL/dx into dx (n × d, sized already) and the parameter
// gradients into grads (same shapes as params, e.g. from zeros_like()).
void feed_forward_backward(const FeedForwardParams &params, const Mat &x, const FeedForwardCache &cache, const Mat &dy,
                           Mat &dx, FeedForwardParams &grads);

} // namespace apg::nn
