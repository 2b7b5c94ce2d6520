#include "decode/transformer_trace.hpp"

#include "support/gradcheck.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
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

    const std::vector<trace::StepRecord> records = to_records(p, cache);
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

TEST_CASE("a layer's record has exactly the fields of its table, with their shapes") {
    TransformerEncoderConfig config;
    config.vocab = 9;
    config.d_model = 8;
    config.heads = 2;
    config.d_ff = 12;
    config.layers = 1;
    core::Rng rng(5);
    const TransformerEncoderParams p = TransformerEncoderParams::init(config, rng);
    TransformerEncoderCache cache;
    transformer_encoder_forward(p, std::vector<int>{4, 8, 1, 2, 5}, {}, cache);
    const trace::StepRecord r = to_records(p, cache).at(0);
    // The shape letters of the table, for this pass.
    const std::map<std::string, std::size_t> size{{"n", 5}, {"d", 8}, {"h", 2}, {"dh", 4}, {"f", 12}};
    std::set<std::string> tensors, fields;
    for (const auto &f : record::self_attention_layer) {
        const std::string name(f.name);
        if (name == "index" || name == "kind") continue;
        std::vector<std::size_t> shape;
        for (std::size_t at = 0; at < f.shape.size();) {
            const std::size_t end = std::min(f.shape.find(' ', at), f.shape.size());
            REQUIRE_MESSAGE(size.count(std::string(f.shape.substr(at, end - at))), name);
            shape.push_back(size.at(std::string(f.shape.substr(at, end - at))));
            at = end + 1;
        }
        if (f.type == record::Type::tensor) {
            tensors.insert(name);
            REQUIRE_MESSAGE(r.has(name), name);
            CHECK_MESSAGE(r.get(name).shape() == shape, name);
        } else {
            fields.insert(name);
            REQUIRE_MESSAGE(r.fields.contains(name), name);
            if (f.type == record::Type::ints) CHECK(r.fields[name].size() == shape.at(0));
        }
    }
    std::set<std::string> has_tensors, has_fields;
    for (const auto &[name, tensor] : r.tensors) has_tensors.insert(name);
    for (const auto &[name, value] : r.fields.items()) has_fields.insert(name);
    CHECK(has_tensors == tensors);
    CHECK(has_fields == fields);
    CHECK(r.kind == record::self_attention_kind[0]);
}

TEST_CASE("a layer's record holds each head's projections, and q, k, v are W x + b of its input") {
    TransformerEncoderConfig config;
    config.vocab = 9;
    config.d_model = 8;
    config.heads = 4;
    config.d_ff = 16;
    config.layers = 2;
    core::Rng rng(21);
    const TransformerEncoderParams p = TransformerEncoderParams::init(config, rng);
    TransformerEncoderCache cache;
    transformer_encoder_forward(p, std::vector<int>{4, 8, 1}, {}, cache);
    const auto records = to_records(p, cache);
    for (int l = 0; l < 2; ++l) {
        const trace::StepRecord &r = records[l];
        const auto &attn = p.layers[l].attn;
        CHECK(r.get("w_q").shape() == std::vector<std::size_t>{4, 2, 8});
        CHECK(r.get("b_v").shape() == std::vector<std::size_t>{4, 2});
        // head 3's rows are rows 6 and 7 of W_q
        CHECK(r.get("w_q")(3, 1, 5) == attn.w_q(7, 5));
        CHECK(r.get("b_k")(1, 0) == attn.b_k(2));
        for (const char *which : {"q", "k", "v"}) {
            const std::string w = std::string("w_") + which, b = std::string("b_") + which;
            const std::string out = which[0] == 'q' ? "query" : which[0] == 'k' ? "key" : "value";
            for (std::size_t head = 0; head < 4; ++head)
                for (std::size_t t = 0; t < 3; ++t)
                    for (std::size_t i = 0; i < 2; ++i) {
                        double sum = r.get(b)(head, i);
                        for (std::size_t c = 0; c < 8; ++c) sum += r.get(w)(head, i, c) * r.get("input")(t, c);
                        CHECK_MESSAGE(r.get(out)(head, t, i) == doctest::Approx(sum).epsilon(1e-5), which);
                    }
        }
    }
}
