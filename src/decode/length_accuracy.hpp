// Exact match by source length: the articles' central claim measured. A model that squeezes the
// input into one fixed vector loses more of it as the input grows, so its exact match falls with
// the source length while an attention model's stays up (Bahdanau et al. 2015, fig. 2).
#pragma once

#include "models/seq2seq.hpp"

#include <cstddef>
#include <vector>

namespace apg::decode {

// Sources of min_length to max_length tokens (both included).
struct LengthBucket {
    int min_length = 0, max_length = 0;
    int pairs = 0; // pairs whose source length falls in the bucket
    int hits = 0;  // of them, greedy output equal to the target token for token
    double exact_match() const { return pairs > 0 ? static_cast<double>(hits) / pairs : 0.0; }
};

struct LengthAccuracy {
    int bucket_width = 0;
    // Consecutive, [1 + k·w, (k + 1)·w], from the shortest source's bucket to the longest's; one
    // with no pairs between two with some is kept (pairs 0), so the buckets are a chart's axis.
    std::vector<LengthBucket> buckets;
    int pairs = 0, hits = 0; // over every bucket
};

using Sequences = std::vector<std::vector<int>>; // token ids, without start or end tokens

// Whether greedy decoding of source (a DecodeSession, so exactly what the page shows) takes the end
// token within the model's step limit with exactly target before it.
bool greedy_matches(const models::Seq2Seq &model, const std::vector<int> &source, const std::vector<int> &target,
                    int start_id, int end_id);

// The buckets of the first n pairs, every count 0. Throws InputError: bad_argument for a bucket
// width outside 1..limits::max_input_tokens or as many sources as targets not given, empty_input
// (details "index") for an empty source.
LengthAccuracy length_buckets(const Sequences &sources, const Sequences &targets, int bucket_width, std::size_t n);
// Decodes pair k and counts it into its bucket of `into` (made by length_buckets for these pairs).
// Returns whether it matched, so a caller can say which pairs of a bucket failed.
bool count_pair(const models::Seq2Seq &model, const Sequences &sources, const Sequences &targets, std::size_t k,
                int start_id, int end_id, LengthAccuracy &into);

struct NoProgress {
    bool operator()(std::size_t, std::size_t) const { return true; }
};

// Greedy exact match of the first `limit` pairs (all if 0) per bucket of bucket_width source
// lengths. progress(done, total) is called every 50 pairs and at the end; returning false stops
// early (the buckets then count the pairs done). A template, not a std::function: the page's
// module has a size budget.
template <class Progress = NoProgress>
LengthAccuracy accuracy_by_length(const models::Seq2Seq &model, const Sequences &sources, const Sequences &targets,
                                  int start_id, int end_id, int bucket_width, std::size_t limit = 0,
                                  Progress progress = {}) {
    const std::size_t n = limit == 0 ? sources.size() : std::min(limit, sources.size());
    LengthAccuracy out = length_buckets(sources, targets, bucket_width, n);
    for (std::size_t k = 0; k < n; ++k) {
        count_pair(model, sources, targets, k, start_id, end_id, out);
        if (((k + 1) % 50 == 0 || k + 1 == n) && !progress(k + 1, n)) break;
    }
    return out;
}

} // namespace apg::decode
