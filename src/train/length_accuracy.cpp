#include "train/length_accuracy.hpp"

#include "core/error.hpp"
#include "core/limits.hpp"

#include <algorithm>
#include <string>

namespace apg::train {

bool greedy_matches(const models::Seq2Seq &model, const std::vector<int> &source, const std::vector<int> &target,
                    SpecialTokens tokens) {
    const models::EncoderOutput encoded = model.encode(source);
    const std::vector<models::DecoderStep> steps = model.greedy(encoded, tokens.start, tokens.end);
    std::size_t k = 0;
    for (const models::DecoderStep &s : steps) {
        Eigen::Index best;
        s.probs.maxCoeff(&best);
        if (best == tokens.end) return k == target.size();
        if (k >= target.size() || target[k] != best) return false;
        ++k;
    }
    return false; // the step limit came before the end token
}

LengthAccuracy accuracy_by_length(const models::Seq2Seq &model, const EncodedPairs &pairs, SpecialTokens tokens,
                                  int bucket_width, std::size_t limit,
                                  const std::function<bool(std::size_t, std::size_t)> &progress) {
    if (bucket_width < 1 || bucket_width > limits::max_input_tokens)
        throw InputError(ErrorCode::bad_argument,
                         "accuracy by length: the bucket width must be from 1 to " +
                             std::to_string(limits::max_input_tokens) + ", got " + std::to_string(bucket_width),
                         {{"name", std::string("bucketWidth")}, {"limit", std::int64_t{limits::max_input_tokens}}});
    if (pairs.sources.size() != pairs.targets.size())
        throw InputError(ErrorCode::bad_argument,
                         "accuracy by length: " + std::to_string(pairs.sources.size()) + " sources but " +
                             std::to_string(pairs.targets.size()) + " targets",
                         {{"name", std::string("pairs")}});
    const std::size_t n = limit == 0 ? pairs.size() : std::min(limit, pairs.size());
    LengthAccuracy out;
    out.bucket_width = bucket_width;
    if (n == 0) return out;
    int shortest = limits::max_input_tokens + 1, longest = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const int length = static_cast<int>(pairs.sources[k].size());
        if (length == 0)
            throw InputError(ErrorCode::empty_input, "accuracy by length: source " + std::to_string(k) + " is empty",
                             {{"index", static_cast<std::int64_t>(k)}});
        shortest = std::min(shortest, length);
        longest = std::max(longest, length);
    }
    const int first = (shortest - 1) / bucket_width, last = (longest - 1) / bucket_width;
    for (int b = first; b <= last; ++b) out.buckets.push_back({b * bucket_width + 1, (b + 1) * bucket_width, 0, 0});
    for (std::size_t k = 0; k < n; ++k) {
        const int length = static_cast<int>(pairs.sources[k].size());
        LengthBucket &bucket = out.buckets[static_cast<std::size_t>((length - 1) / bucket_width - first)];
        const bool hit = greedy_matches(model, pairs.sources[k], pairs.targets[k], tokens);
        ++bucket.pairs;
        bucket.hits += hit ? 1 : 0;
        ++out.pairs;
        out.hits += hit ? 1 : 0;
        const bool report = (k + 1) % 50 == 0 || k + 1 == n;
        if (report && progress && !progress(k + 1, n)) break;
    }
    return out;
}

} // namespace apg::train
