// The sizes the Transformer encoder's and decoder's configs share (the vocabulary, d_model, heads,
// d_ff, layers, the layer norms' ε), checked once for both, so the two refuse a size in the same words.
#pragma once

namespace apg::models {

// Throws std::invalid_argument naming `what` ("transformer config", …) and the field: a size ≤ 0,
// d_model not a multiple of heads, ln_eps ≤ 0 (or NaN).
void check_transformer_sizes(const char *what, int vocab, int d_model, int heads, int d_ff, int layers, float ln_eps);

} // namespace apg::models
