#include "decode/transformer_trace.hpp"

#include "support/transformer_support.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using namespace apg;
using namespace apg::models;
using namespace apg::decode;

TEST_CASE("the transformer trace holds every head's stages per layer with the numbers of the pass") {
    TransformerEncoderConfig config;
    config.vocab = 9;
    config.d_model = 8;
    config.heads = 4;
    config.d_ff = 16;
    config.layers = 2;
    core::Rng rng(13);
    const TransformerEncoderParams p = TransformerEncoderParams::init(config, rng);
    TransformerEncoderCache cache;
    transformer_encoder_forward(p, std::vector<int>{4, 8, 1}, {}, cache);

    const std::vector<trace::StepRecord> records = to_records(cache);
    REQUIRE(records.size() == 2);
    for (int l = 0; l < 2; ++l) {
        const trace::StepRecord &r = records[l];
        CHECK(r.kind == "self_attention");
        CHECK(r.index == l);
        CHECK(r.fields["layer"] == l);
        CHECK(r.fields["heads"] == 4);
        CHECK(r.get("weights").shape() == std::vector<std::size_t>{4, 3, 3});
        CHECK(r.get("raw_scores").shape() == std::vector<std::size_t>{4, 3, 3});
        CHECK(r.get("query").shape() == std::vector<std::size_t>{4, 3, 2});
        CHECK(r.get("context").shape() == std::vector<std::size_t>{4, 3, 2});
        CHECK(r.get("ffn_hidden").shape() == std::vector<std::size_t>{3, 16});
        const auto &head2 = cache.layers[l].attn.heads[2];
        // Head 2, query position 1, key position 0: the same numbers as the layer's cache.
        CHECK(r.get("raw_scores")(2, 1, 0) == head2.raw_scores(1, 0));
        CHECK(r.get("scores")(2, 1, 0) == head2.scores(1, 0));
        CHECK(r.get("weights")(2, 1, 0) == head2.weights(1, 0));
        CHECK(r.get("context")(2, 2, 1) == head2.output(2, 1));
        CHECK(r.get("key")(2, 0, 1) == head2.key(0, 1));
        // scores = raw / √dh with dh = 2
        CHECK(r.get("scores")(3, 2, 1) == doctest::Approx(r.get("raw_scores")(3, 2, 1) / std::sqrt(2.0f)));
    }
    // Layer 1 reads what layer 0 wrote; the last output is H.
    CHECK(records[1].get("input") == records[0].get("output"));
    CHECK(records[1].get("output") == trace::to_tensor(cache.output));

    trace::Trace t;
    t.steps = records;
    const auto files = t.to_npy();
    CHECK(files.count("weights.npy") == 1); // stacked over layers: 2 × 4 × 3 × 3
}
