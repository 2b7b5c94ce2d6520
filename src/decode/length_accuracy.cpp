#include "decode/length_accuracy.hpp"

#include "decode/session.hpp"

#include "core/error.hpp"
#include "core/limits.hpp"

#include <algorithm>
#include <string>

namespace apg::decode {

bool greedy_matches(const models::Seq2Seq &model, const std::vector<int> &source, const std::vector<int> &target,
                    int start_id, int end_id) {
    SessionOptions options;
    options.start_id = start_id;
    options.end_id = end_id;
    options.top_k = 1;
    DecodeSession session(model, source, options);
    session.run();
    return session.steps().back().token == end_id && session.output_ids() == target;
}

LengthAccuracy length_buckets(const Sequences &sources, const Sequences &targets, int bucket_width, std::size_t n) {
    if (bucket_width < 1 || bucket_width > limits::max_input_tokens)
        throw InputError(ErrorCode::bad_argument,
                         "accuracy by length: the bucket width must be from 1 to " +
                             std::to_string(limits::max_input_tokens) + ", got " + std::to_string(bucket_width),
                         {{"name", std::string("bucketWidth")}, {"limit", std::int64_t{limits::max_input_tokens}}});
    if (sources.size() != targets.size())
        throw InputError(ErrorCode::bad_argument,
                         "accuracy by length: " + std::to_string(sources.size()) + " sources but " +
                             std::to_string(targets.size()) + " targets",
                         {{"name", std::string("pairs")}});
    LengthAccuracy out;
    out.bucket_width = bucket_width;
    if (n == 0) return out;
    int shortest = limits::max_input_tokens + 1, longest = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const int length = static_cast<int>(sources[k].size());
        if (length == 0)
            throw InputError(ErrorCode::empty_input, "accuracy by length: source " + std::to_string(k) + " is empty",
                             {{"index", static_cast<std::int64_t>(k)}});
        shortest = std::min(shortest, length);
        longest = std::max(longest, length);
    }
    for (int b = (shortest - 1) / bucket_width; b <= (longest - 1) / bucket_width; ++b)
        out.buckets.push_back({b * bucket_width + 1, (b + 1) * bucket_width, 0, 0});
    return out;
}

bool count_pair(const models::Seq2Seq &model, const Sequences &sources, const Sequences &targets, std::size_t k,
                int start_id, int end_id, LengthAccuracy &into) {
    const int length = static_cast<int>(sources.at(k).size());
    const int first = into.buckets.empty() ? 0 : (into.buckets.front().min_length - 1) / into.bucket_width;
    const auto b = static_cast<std::size_t>((length - 1) / into.bucket_width - first);
    if (length == 0 || b >= into.buckets.size())
        throw InputError(ErrorCode::bad_argument,
                         "accuracy by length: source " + std::to_string(k) + " has " + std::to_string(length) +
                             " tokens, outside the buckets",
                         {{"index", static_cast<std::int64_t>(k)}});
    const int hit = greedy_matches(model, sources[k], targets.at(k), start_id, end_id) ? 1 : 0;
    ++into.buckets[b].pairs;
    into.buckets[b].hits += hit;
    ++into.pairs;
    into.hits += hit;
    return hit == 1;
}

} // namespace apg::decode
