// Adam and gradient-norm clipping over the named tensors of a model.
#pragma once

#include "models/seq2seq.hpp"

#include <vector>

namespace apg::train {

struct AdamOptions {
    float learning_rate = 3e-3f;
    float beta1 = 0.9f;
    float beta2 = 0.999f;
    float epsilon = 1e-8f;
};

class Adam {
  public:
    // params: the tensors to update (views; they must outlive the optimiser).
    Adam(std::vector<models::TensorRef> params, AdamOptions options);
    // θ ← θ − lr · m̂ / (√v̂ + ε), with bias-corrected moments. grads in the same order and shapes.
    void step(const std::vector<models::TensorRef> &grads);
    int steps() const { return steps_; }
    AdamOptions &options() { return options_; }

  private:
    std::vector<models::TensorRef> params_;
    std::vector<std::vector<float>> m_, v_;
    AdamOptions options_;
    int steps_ = 0;
};

// Scales every gradient by max_norm / ‖g‖ when the global L2 norm ‖g‖ exceeds max_norm
// (max_norm <= 0 disables clipping). Returns ‖g‖ before clipping.
double clip_gradient_norm(const std::vector<models::TensorRef> &grads, float max_norm);

} // namespace apg::train
