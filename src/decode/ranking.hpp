// Choosing tokens from a distribution, shared by the decoding session and beam search, and the
// error both throw for an option out of range.
#pragma once

#include "core/tensor.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace apg::decode {

// Throws InputError(bad_argument, message) with details "name" and, when limit >= 0, "limit".
// Out of line (beam_search.cpp, compiled for size) so the call sites stay small.
[[noreturn]] void bad_option(const std::string &name, const std::string &message, std::int64_t limit = -1);

// Indices of the k largest probabilities, most probable first (ties: lower id first).
inline std::vector<int> top_indices(const Vec &probs, int k) {
    std::vector<int> ids(static_cast<std::size_t>(probs.size()));
    std::iota(ids.begin(), ids.end(), 0);
    k = std::min<int>(k, static_cast<int>(ids.size()));
    std::partial_sort(ids.begin(), ids.begin() + k, ids.end(),
                      [&](int a, int b) { return probs[a] > probs[b] || (probs[a] == probs[b] && a < b); });
    // A copy of the k, not ids.resize(k): that keeps the whole vocabulary's capacity, 4 bytes a
    // token at every step a session keeps.
    return {ids.begin(), ids.begin() + k};
}

inline float safe_log(float p) { return std::log(std::max(p, 1e-30f)); }

} // namespace apg::decode
