// The decoder's step record is built by walking its table (record_schema.hpp): every field of
// the table is in the record under its name with the getter's numbers, an optional one is left
// out exactly when the model has no such buffer, and nothing else is there.
#include "decode/record_schema.hpp"

#include "support/tiny_config.hpp"

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

using namespace apg;
using namespace apg::models;
using namespace apg::decode;

namespace {
ModelConfig config(attention::ScoreKind score, AttentionStyle style) {
    return testing::tiny_config(score, style, testing::session_sizes);
}
} // namespace

TEST_CASE("a step's trace record holds exactly the fields of the table, with the getters' values") {
    const std::vector<std::string> tokens{"<pad>", "<s>", "</s>", "<unk>", "a", "b"};
    for (const auto &[score, style, absent] :
         {std::tuple{attention::ScoreKind::additive, AttentionStyle::bahdanau,
                     std::set<std::string>{"attentional", "previous_weights", "location"}},
          std::tuple{attention::ScoreKind::dot, AttentionStyle::luong,
                     std::set<std::string>{"hidden", "previous_weights", "location"}},
          std::tuple{attention::ScoreKind::additive, AttentionStyle::luong,
                     std::set<std::string>{"previous_weights", "location"}},
          std::tuple{attention::ScoreKind::location, AttentionStyle::bahdanau, std::set<std::string>{"attentional"}}}) {
        Seq2Seq model(config(score, style), 3);
        DecodeSession session(model, {4, 5, 6});
        session.force(5); // not step(): a greedy first step may end the decoding
        session.mask(0);  // so the what-if fields are there too
        const SessionStep &step = session.force(4);
        const trace::StepRecord r = record::to_record(step, 1, tokens);
        CHECK(r.index == 1);
        CHECK(r.kind == "decoder");
        std::set<std::string> tensors, fields;
        for (const auto &f : record::decoder_step) {
            const std::string name(f.name);
            if (name == "index" || name == "kind") continue;
            if (f.type == record::Type::token) {
                fields.insert(name);
                CHECK(r.fields[name] == tokens.at(r.fields[std::string(f.of)].get<int>()));
                continue;
            }
            const record::Value v = f.get(step, 1);
            switch (f.type) {
            case record::Type::vector:
            case record::Type::matrix: {
                if (absent.count(name)) {
                    CHECK_MESSAGE(f.optional, name);
                    CHECK_MESSAGE(!r.has(name), name);
                    continue;
                }
                tensors.insert(name);
                REQUIRE_MESSAGE(r.has(name), name);
                const trace::Tensor &t = r.get(name);
                const std::vector<std::size_t> shape =
                    f.type == record::Type::vector
                        ? std::vector<std::size_t>{static_cast<std::size_t>(v.rows)}
                        : std::vector<std::size_t>{static_cast<std::size_t>(v.rows), static_cast<std::size_t>(v.cols)};
                CHECK_MESSAGE(t.shape() == shape, name);
                for (std::size_t i = 0; i < t.size(); ++i) CHECK(t.data()[i] == v.data[i]);
                break;
            }
            case record::Type::tensor: {
                // Every tensor row is the Transformer decoder's: none of them for a GRU decoder.
                CHECK_MESSAGE(f.optional, name);
                CHECK_MESSAGE(v.rank == 0, name);
                CHECK_MESSAGE(!r.has(name), name);
                break;
            }
            case record::Type::top:
                fields.insert(name + "_ids");
                fields.insert(name + "_probs");
                CHECK(r.fields[name + "_ids"] == step.top_ids);
                CHECK(r.fields[name + "_probs"] == step.top_probs);
                break;
            default:
                fields.insert(name);
                if (f.type == record::Type::label)
                    CHECK(r.fields[name] == f.labels[static_cast<std::size_t>(v.number)]);
                else
                    CHECK(r.fields[name].get<double>() == v.number);
            }
        }
        std::set<std::string> has_tensors, has_fields;
        for (const auto &[name, tensor] : r.tensors) has_tensors.insert(name);
        for (const auto &[name, value] : r.fields.items()) has_fields.insert(name);
        CHECK(has_tensors == tensors);
        CHECK(has_fields == fields);
        CHECK(r.fields["choice"] == "forced");
        CHECK(r.fields["token"] == "a");
    }
}

TEST_CASE("the session's record without a vocabulary leaves the token names out") {
    Seq2Seq model(config(attention::ScoreKind::general, AttentionStyle::bahdanau), 4);
    DecodeSession session(model, {4, 5});
    const trace::StepRecord r = to_record(session.step(), 0);
    CHECK_FALSE(r.fields.contains("token"));
    CHECK_FALSE(r.fields.contains("prev_token"));
    CHECK(r.fields.contains("token_id"));
    CHECK(r.fields["prev_token_id"] == 1);
}
