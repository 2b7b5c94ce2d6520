// Softmax cross-entropy of one row of logits z (V classes) against a target class y, in a form
// that keeps its precision when the prediction is near certain:
//   loss      = logsumexp(z) − z_y = log1p(Σ_{i≠m} exp(z_i − z_m)) − (z_y − z_m),  m = argmax z
//   dL/dz_i   = p_i  (i ≠ y),   dL/dz_y = −Σ_{i≠y} p_i,   p = softmax(z)
// −log p_y and p_y − 1 say the same in exact arithmetic, but in float32 p_y ≈ 1 carries an
// absolute error of about 6e-8, which is the whole of 1 − p_y once the loss falls near 1e-6; the
// forms above never subtract from 1, so they keep float32's relative precision at any loss.
#pragma once

#include "core/kernels.hpp"

namespace apg::nn {

// The loss, computed in double from the float logits. Throws std::invalid_argument for an empty
// row or a target outside [0, V).
double cross_entropy(core::cfspan logits, int target);

// Writes scale · dL/dz into d_logits from probs = softmax(z) (both V). Throws as above, and for
// rows of different sizes. d_logits may alias probs.
void cross_entropy_backward(core::cfspan probs, int target, float scale, core::fspan d_logits);

} // namespace apg::nn
