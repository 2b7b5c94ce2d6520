// "Reproduce this step": one attention step written out as a Python file a learner runs with NumPy.
// The file holds the step's query, keys and values and the parameters its score function reads as
// literals (9 significant digits, so each reads back as the same float32), recomputes the three
// stages in the article's names
//   e_ij = score(s, h_j)    α_ij = exp(e_ij) / Σ_k exp(e_ik)    c_i = Σ_j α_ij h_j
// and prints the engine's numbers beside its own with their largest difference, exiting with 1 when
// that passes `reproduce_tolerance`. Nothing here computes the step: every number written is the
// session's or the model's, so the script checks the engine from outside it.
#pragma once

#include "decode/session.hpp"
#include "models/transformer_encoder.hpp"

#include <span>
#include <string>
#include <vector>

namespace apg::decode {

// The largest difference the script accepts between the engine's numbers and NumPy's. NumPy sums
// in float64 from the float32 inputs, the engine in float32 with its SIMD kernels; they differ by
// a few float32 steps, ~1e-6 for the weights and contexts.
inline constexpr double reproduce_tolerance = 1e-5;

// What the script's header names: the model, the input as the page shows it, and one label per
// source position (a token, a grid cell, a frame; empty: positions are named by their index).
struct ReproduceAbout {
    std::string model;
    std::string input;
    std::vector<std::string> source;
    std::string output_token; // the token the step took, as text ("" when unknown)
};

// The script of a GRU decoder's attention step `index` (from 0) of `session`: its query (s_{i-1} or
// s_i by the model's style), the encoder states H as keys and values, the score function's
// parameters, and the τ, mask or pin in force at that step. Throws InputError(bad_argument) for an
// index the session has not reached, a model without attention (score none) or with the
// Transformer decoder, whose cross-attention has several heads (its steps are not one α_i).
std::string reproduce_step(const DecodeSession &session, int index, const ReproduceAbout &about);

// The same from the pieces: `step` is the engine's record of the step (its query, scores, weights,
// context, what-ifs), `model` and `keys` (H) what it attended with. A test changes a number of
// `step` to see the script refuse it.
std::string reproduce_step(const models::Seq2Seq &model, const Mat &keys, const SessionStep &step, int index,
                           const ReproduceAbout &about);

// The script of one row of the Transformer encoder's self-attention: query position `query` of
// head `head` in layer `layer` (each from 0) of the pass `cache` that `params` made, from the
// layer's input x and the head's projections: q_i = W_q x_i + b_q, k_j, v_j likewise, then the
// three stages with e_ij = q_i · k_j / √d_k. Throws InputError(bad_argument) for a layer, head or
// query position the pass does not have.
std::string reproduce_self_attention(const models::TransformerEncoderParams &params,
                                     const models::TransformerEncoderCache &cache, int layer, int head, int query,
                                     const ReproduceAbout &about);

} // namespace apg::decode
