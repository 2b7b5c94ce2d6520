// A decoding session of a scaled-cosine model: every step's scores are the learned g times the
// cosines of its query with the encoder states, and the step's record carries that g.
#include "decode/record_schema.hpp"
#include "decode/session.hpp"

#include "support/tiny_config.hpp"

#include <doctest/doctest.h>

#include <cmath>

using namespace apg;
using namespace apg::models;

TEST_CASE("a scaled-cosine session scores g times the cosine and its trace record carries g") {
    for (AttentionStyle style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
        CAPTURE(name(style));
        Seq2Seq model(testing::tiny_config(attention::ScoreKind::scaled_cosine, style, testing::session_sizes), 3);
        model.parameters().decoder.attn.scale[0] = 3.5f;
        decode::DecodeSession session(model, std::vector<int>{4, 5, 6});
        session.run();
        REQUIRE(!session.steps().empty());
        const Mat &H = session.encoded().states;
        for (std::size_t i = 0; i < session.steps().size(); ++i) {
            CAPTURE(i);
            const decode::SessionStep &s = session.steps()[i];
            CHECK(s.step.attention.score.scale == 3.5f);
            const Vec &q = s.step.query;
            for (Eigen::Index j = 0; j < H.rows(); ++j) {
                const double cos = q.cast<double>().dot(H.row(j).transpose().cast<double>()) /
                                   (q.cast<double>().norm() * H.row(j).cast<double>().norm());
                CHECK(s.step.attention.score.scores[j] == doctest::Approx(3.5 * cos).epsilon(1e-5));
            }
            const trace::StepRecord record = decode::record::to_record(s, static_cast<int>(i), {});
            CHECK(record.fields.at("scale").get<double>() == 3.5);
        }
    }
}

TEST_CASE("the other score functions' records give a scale of 1") {
    Seq2Seq model(testing::tiny_config(attention::ScoreKind::cosine, AttentionStyle::bahdanau, testing::session_sizes),
                  3);
    decode::DecodeSession session(model, std::vector<int>{4, 5, 6});
    const trace::StepRecord record = decode::record::to_record(session.step(), 0, {});
    CHECK(record.fields.at("scale").get<double>() == 1.0);
}
