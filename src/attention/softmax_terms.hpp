// The softmax of stage 2 written out term by term, for the page's formula view and the
// temperature slider: α_j = exp((e_j − m)/τ) / Σ_k exp((e_k − m)/τ) with m = max_k e_k over the
// unmasked keys, and the entropy of the weights. Not used in training (the step computes the
// weights with core::softmax); these are the same numbers spelled out.
#pragma once

#include "attention/step.hpp"

namespace apg::attention {

struct SoftmaxTerms {
    float max_score = 0;   // m
    Vec exps;              // n: exp((e_j − m)/τ), 0 at masked keys
    float exp_sum = 0;     // Σ_j exps_j
    float entropy = 0;     // −Σ_j α_j ln α_j, in nats
    float max_entropy = 0; // ln(number of unmasked keys): the entropy of uniform weights
};

// Throws std::invalid_argument like core::softmax: a mask of the wrong size, every key masked, τ <= 0.
SoftmaxTerms softmax_terms(const Vec &scores, const StepOptions &options = {});

} // namespace apg::attention
