// Exact match by source length: the articles' central claim measured. A model that squeezes the
// input into one fixed vector loses more of it as the input grows, so its exact match falls with
// the source length while an attention model's stays up (Bahdanau et al. 2015, fig. 2).
#pragma once

#include "models/seq2seq.hpp"
#include "train/trainer.hpp"

#include <cstddef>
#include <functional>
#include <vector>

namespace apg::train {

// Sources of min_length to max_length tokens (both included).
struct LengthBucket {
    int min_length = 0, max_length = 0;
    int pairs = 0; // pairs whose source length falls in the bucket
    int hits = 0;  // of them, greedy output equal to the target token for token
    double exact_match() const { return pairs > 0 ? static_cast<double>(hits) / pairs : 0.0; }
};

struct LengthAccuracy {
    int bucket_width = 0;
    std::vector<LengthBucket> buckets; // consecutive, [1 + k·w, (k + 1)·w], from the shortest source's to the longest's
    int pairs = 0, hits = 0;           // over every bucket
};

// Whether the greedy decoding of source ends within the model's step limit with exactly target.
bool greedy_matches(const models::Seq2Seq &model, const std::vector<int> &source, const std::vector<int> &target,
                    SpecialTokens tokens);

// Greedy exact match of the first `limit` pairs (all if 0) per bucket of bucket_width source
// lengths; a bucket with no pairs between two with some is kept (pairs 0), so the buckets are a
// chart's axis. progress(done, total) is called every 50 pairs and at the end; returning false
// stops early (the buckets then count the pairs done). Throws InputError(bad_argument) for a
// bucket width below 1 or above limits::max_input_tokens, an empty source or a source and target
// count that differ.
LengthAccuracy accuracy_by_length(const models::Seq2Seq &model, const EncodedPairs &pairs, SpecialTokens tokens,
                                  int bucket_width, std::size_t limit = 0,
                                  const std::function<bool(std::size_t, std::size_t)> &progress = {});

} // namespace apg::train
