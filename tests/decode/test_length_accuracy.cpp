// Accuracy by source length against a direct count: every bucket's pairs and hits equal
// exact_match run over just the pairs of that length range.
#include "decode/length_accuracy.hpp"
#include "train/trainer.hpp"

#include "core/error.hpp"
#include "support/tiny_config.hpp"

#include <doctest/doctest.h>

#include <cmath>

using namespace apg;
using namespace apg::models;

namespace {

// Pairs of sources 1..8 tokens long; the targets are the sources' first tokens shifted, so an
// untrained model gets some right (short targets) and most wrong.
train::EncodedPairs some_pairs() {
    train::EncodedPairs p;
    for (int k = 0; k < 40; ++k) {
        const int length = 1 + (k * 7) % 8;
        std::vector<int> source, target;
        for (int t = 0; t < length; ++t) source.push_back(3 + (k + t) % 4);
        for (int t = 0; t < (k % 3); ++t) target.push_back(3 + (k * t) % 3);
        p.sources.push_back(source);
        p.targets.push_back(target);
    }
    return p;
}

// The pairs' ids use the tiny vocabulary's start 1 and end 2, like train::SpecialTokens{}.
template <class... Rest>
decode::LengthAccuracy acc(const Seq2Seq &model, const train::EncodedPairs &pairs, int width, Rest... rest) {
    return decode::accuracy_by_length(model, pairs.sources, pairs.targets, 1, 2, width, rest...);
}

} // namespace

TEST_CASE("accuracy by length equals exact_match over each bucket's pairs") {
    const ModelConfig c = testing::tiny_config(attention::ScoreKind::none, AttentionStyle::bahdanau,
                                               {.source_vocab = 7, .target_vocab = 7, .max_source_len = 8});
    for (const std::uint64_t seed : {1u, 2u, 3u}) {
        CAPTURE(seed);
        Seq2Seq model(c, seed);
        const train::EncodedPairs pairs = some_pairs();
        const decode::LengthAccuracy result = acc(model, pairs, 3);
        REQUIRE(result.buckets.size() == 3); // 1-3, 4-6, 7-9
        int total_hits = 0;
        for (std::size_t b = 0; b < result.buckets.size(); ++b) {
            const decode::LengthBucket &bucket = result.buckets[b];
            CHECK(bucket.min_length == 1 + 3 * static_cast<int>(b));
            CHECK(bucket.max_length == 3 + 3 * static_cast<int>(b));
            train::EncodedPairs in_bucket;
            for (std::size_t k = 0; k < pairs.size(); ++k) {
                const int n = static_cast<int>(pairs.sources[k].size());
                if (n < bucket.min_length || n > bucket.max_length) continue;
                in_bucket.sources.push_back(pairs.sources[k]);
                in_bucket.targets.push_back(pairs.targets[k]);
            }
            CHECK(bucket.pairs == static_cast<int>(in_bucket.size()));
            const double direct = train::exact_match(model, in_bucket, {});
            CHECK(bucket.hits == static_cast<int>(std::lround(direct * static_cast<double>(in_bucket.size()))));
            total_hits += bucket.hits;
        }
        CHECK(result.pairs == 40);
        CHECK(result.hits == total_hits);
        CHECK(result.hits == static_cast<int>(std::lround(train::exact_match(model, pairs, {}) * 40)));
    }
}

TEST_CASE("a model that answers every pair right scores 1 in every bucket, and empty buckets between stay") {
    // A target the model cannot fail: greedy output of the model itself.
    Seq2Seq model(testing::tiny_config(attention::ScoreKind::additive, AttentionStyle::bahdanau,
                                       {.source_vocab = 7, .target_vocab = 7, .max_source_len = 8}),
                  4);
    train::EncodedPairs pairs;
    for (const int length : {1, 2, 8}) {
        const std::vector<int> source(static_cast<std::size_t>(length), 4);
        std::vector<int> output;
        bool ended = false;
        for (const DecoderStep &s : model.greedy(model.encode(source), 1, 2)) {
            Eigen::Index best;
            s.probs.maxCoeff(&best);
            if (best == 2) {
                ended = true;
                break;
            }
            output.push_back(static_cast<int>(best));
        }
        pairs.sources.push_back(source);
        pairs.targets.push_back(output);
        CHECK(decode::greedy_matches(model, source, output, 1, 2) == ended);
        output.push_back(3);
        CHECK_FALSE(decode::greedy_matches(model, source, output, 1, 2));
    }
    const decode::LengthAccuracy result = acc(model, pairs, 2);
    REQUIRE(result.buckets.size() == 4); // 1-2, 3-4, 5-6, 7-8
    CHECK(result.buckets[0].pairs == 2);
    CHECK(result.buckets[1].pairs == 0);
    CHECK(result.buckets[2].pairs == 0);
    CHECK(result.buckets[3].pairs == 1);
    CHECK(result.buckets[1].exact_match() == 0.0);
    // count_pair says which pairs matched (the page lists a bucket's misses): the two ended ones.
    decode::LengthAccuracy counted = decode::length_buckets(pairs.sources, pairs.targets, 2, pairs.size());
    for (std::size_t k = 0; k < pairs.size(); ++k)
        CHECK(decode::count_pair(model, pairs.sources, pairs.targets, k, 1, 2, counted) ==
              decode::greedy_matches(model, pairs.sources[k], pairs.targets[k], 1, 2));
    CHECK(counted.hits == result.hits);
}

TEST_CASE("accuracy by length reports progress, stops when asked and refuses bad input") {
    Seq2Seq model(testing::tiny_config(attention::ScoreKind::none, AttentionStyle::luong,
                                       {.source_vocab = 7, .target_vocab = 7, .max_source_len = 8}),
                  1);
    train::EncodedPairs pairs;
    for (int k = 0; k < 120; ++k) {
        pairs.sources.push_back({3, 4});
        pairs.targets.push_back({3});
    }
    std::vector<std::size_t> seen;
    const auto stopped = acc(model, pairs, 4, std::size_t{0}, [&](std::size_t done, std::size_t total) {
        CHECK(total == 120);
        seen.push_back(done);
        return done < 100;
    });
    CHECK(seen == std::vector<std::size_t>{50, 100});
    CHECK(stopped.pairs == 100);
    CHECK(acc(model, pairs, 4, std::size_t{30}).pairs == 30);
    CHECK_THROWS_AS(acc(model, pairs, 0), InputError);
    pairs.sources.push_back({});
    pairs.targets.push_back({});
    try {
        acc(model, pairs, 4);
        FAIL("an empty source was accepted");
    } catch (const InputError &e) {
        CHECK(e.code() == ErrorCode::empty_input);
    }
    pairs.targets.pop_back();
    CHECK_THROWS_WITH_AS(acc(model, pairs, 4), doctest::Contains("121 sources but 120"), InputError);
}
