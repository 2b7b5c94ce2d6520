// The pyramidal time reduction of Listen, Attend and Spell: neighbouring time steps concatenated,
// so the next recurrent layer runs over half as many steps, each seeing twice the features.
// Shapes: B = batch rows, N = steps, D = features; time-major storage (row t·B + b = step t of
// sequence b), as the encoders keep their batches.
//   out[t] = [in[2t]; in[2t+1]]      N' = ⌈N/2⌉ steps of 2D features
// A sequence of odd length n pairs its last step with zeros (nothing is dropped, and a
// one-frame sequence still has one step): its reduced length is ⌈n/2⌉. Steps at or past a
// sequence's length read as zeros, so padding never leaks into a real step.
#pragma once

#include "core/tensor.hpp"

#include <span>
#include <vector>

namespace apg::nn {

inline int reduced_length(int n) { return (n + 1) / 2; }

// in: N·B × D. Writes out (⌈N/2⌉·B × 2D) and, per sequence, its reduced length.
void time_reduction_forward(const Mat &in, int batch, std::span<const int> lengths, Mat &out,
                            std::vector<int> &out_lengths);

// d_out: ⌈N/2⌉·B × 2D, the gradient of out. Writes d_in (N·B × D, the shape of in): each input
// step's gradient is its half of its output step's, zero at padding.
void time_reduction_backward(const Mat &d_out, int batch, int steps, std::span<const int> lengths, Mat &d_in);

} // namespace apg::nn
