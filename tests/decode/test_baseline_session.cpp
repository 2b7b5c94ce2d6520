// A decoding session of a model without attention: its steps have no scores and no weights, the
// same context at every step, and their records say so (context_from "fixed_vector").
#include "decode/record_schema.hpp"
#include "decode/session.hpp"

#include "support/tiny_config.hpp"

#include <doctest/doctest.h>

using namespace apg;
using namespace apg::models;

TEST_CASE("a baseline session has one context for every step and records without scores or weights") {
    for (AttentionStyle style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
        CAPTURE(name(style));
        Seq2Seq model(testing::tiny_config(attention::ScoreKind::none, style, testing::session_sizes), 3);
        decode::DecodeSession session(model, std::vector<int>{4, 5, 6, 4});
        session.run();
        REQUIRE(session.steps().size() >= 1);
        const Vec fixed = session.encoded().fixed.row(0).transpose();
        for (std::size_t i = 0; i < session.steps().size(); ++i) {
            CAPTURE(i);
            const decode::SessionStep &s = session.steps()[i];
            CHECK(s.step.attention.context == fixed);
            const trace::StepRecord r = decode::record::to_record(s, static_cast<int>(i), {});
            CHECK(r.fields.at("context_from") == "fixed_vector");
            CHECK(!r.has("scores"));
            CHECK(!r.has("weights"));
            CHECK(!r.has("exps"));
            REQUIRE(r.has("context"));
            CHECK(r.get("context").size() == static_cast<std::size_t>(fixed.size()));
            CHECK(r.fields.at("entropy").get<double>() == 0.0);
        }
    }
}

TEST_CASE("an attention model's records say their context comes from the weights") {
    Seq2Seq model(
        testing::tiny_config(attention::ScoreKind::additive, AttentionStyle::bahdanau, testing::session_sizes), 3);
    decode::DecodeSession session(model, std::vector<int>{4, 5, 6});
    session.step();
    const trace::StepRecord r = decode::record::to_record(session.steps()[0], 0, {});
    CHECK(r.fields.at("context_from") == "weights");
    CHECK(r.has("scores"));
    CHECK(r.get("weights").size() == 3);
}

TEST_CASE("beam search over a baseline model runs and a beam of width 1 is the greedy decoding") {
    Seq2Seq model(testing::tiny_config(attention::ScoreKind::none, AttentionStyle::bahdanau, testing::session_sizes),
                  8);
    const EncoderOutput enc = model.encode(std::vector<int>{4, 5, 6});
    decode::DecodeSession session(model, std::vector<int>{4, 5, 6});
    session.run();
    const decode::BeamResult beam = decode::beam_search(model, enc, 1, {});
    REQUIRE(!beam.beams.empty());
    std::vector<int> tokens;
    for (int id : beam.beams[0]) {
        const decode::BeamNode &node = beam.nodes[static_cast<std::size_t>(id)];
        CHECK(node.step.attention.weights.size() == 0);
        if (node.token != decode::SessionOptions{}.end_id) tokens.push_back(node.token);
    }
    CHECK(tokens == session.output_ids());
}
