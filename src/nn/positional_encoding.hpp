// Fixed sinusoidal positional encodings (Vaswani et al. 2017), added to the token embeddings so
// that self-attention, which by itself ignores order, can tell positions apart.
// Shapes: n = positions, d = model size. For position p (from 0) and column pair i = 0, 1, …:
//   PE[p, 2i]   = sin(p / 10000^(2i/d))
//   PE[p, 2i+1] = cos(p / 10000^(2i/d))
// (an odd d ends with a lone sin column).
#pragma once

#include "core/tensor.hpp"

namespace apg::nn {

// n × d. Throws std::invalid_argument when n < 0 or d <= 0.
Mat positional_encoding(Eigen::Index n, Eigen::Index d);

// Row p of it alone (out: d values), for a decoder that adds one position per step.
void positional_encoding_row(Eigen::Index p, core::fspan out);

// x (n × d) += positional_encoding(n, d). No parameters, so no backward: d x passes through unchanged.
void add_positional_encoding(Mat &x);

} // namespace apg::nn
