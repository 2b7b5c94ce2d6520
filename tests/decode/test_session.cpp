#include "decode/session.hpp"

#include "core/error.hpp"
#include "core/limits.hpp"

#include "support/tiny_config.hpp"

#include <doctest/doctest.h>

#include <climits>
#include <limits>
#include <variant>

using namespace apg;
using namespace apg::models;
using namespace apg::decode;

namespace {
ModelConfig tiny_config(attention::ScoreKind score, AttentionStyle style) {
    return testing::tiny_config(score, style, testing::session_sizes);
}
using testing::session_source;
} // namespace

TEST_CASE("stepping a session greedily gives the model's greedy decode, step by step") {
    for (auto style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
        Seq2Seq model(tiny_config(attention::ScoreKind::additive, style), 7);
        DecodeSession session(model, session_source);
        session.run();
        auto greedy = model.greedy(session.encoded(), 1, 2);
        REQUIRE(session.steps().size() == greedy.size());
        for (std::size_t i = 0; i < greedy.size(); ++i) {
            Eigen::Index best;
            greedy[i].probs.maxCoeff(&best);
            CHECK(session.steps()[i].token == best);
            CHECK(session.steps()[i].choice == Choice::greedy);
            CHECK((session.steps()[i].step.attention.weights - greedy[i].attention.weights).cwiseAbs().maxCoeff() ==
                  0.0f);
        }
        CHECK(session.done());
        CHECK_THROWS_AS(session.step(), std::logic_error);
    }
}

TEST_CASE("a forced token feeds the next step and back() undoes it exactly") {
    Seq2Seq model(tiny_config(attention::ScoreKind::general, AttentionStyle::bahdanau), 3);
    DecodeSession session(model, session_source);
    const SessionStep first = session.step();
    const SessionStep &forced = session.force(first.top_ids.back() == 2 ? 3 : first.top_ids.back());
    int forced_token = forced.token;
    CHECK(forced.choice == Choice::forced);
    CHECK(forced.log_prob == doctest::Approx(std::log(forced.step.probs[forced_token])));
    if (!session.done()) {
        const SessionStep &after = session.step();
        CHECK(after.step.prev_token == forced_token);
        CHECK((after.step.prev_state - forced.step.state).norm() == 0.0f);
        session.back();
    }
    CHECK(session.back());
    REQUIRE(session.steps().size() == 1);
    CHECK(session.steps()[0].token == first.token);
    session.reset();
    CHECK(session.steps().empty());
    CHECK_FALSE(session.back());
    // the same first step again, bit for bit
    CHECK((session.step().step.probs - first.step.probs).cwiseAbs().maxCoeff() == 0.0f);
}

TEST_CASE("top-k tokens are sorted by probability and match the step's probabilities") {
    Seq2Seq model(tiny_config(attention::ScoreKind::dot, AttentionStyle::luong), 11);
    DecodeSession session(model, session_source, {.top_k = 4, .attention = {}});
    const auto &s = session.step();
    REQUIRE(s.top_ids.size() == 4);
    for (std::size_t i = 0; i < 4; ++i) CHECK(s.top_probs[i] == s.step.probs[s.top_ids[i]]);
    for (std::size_t i = 1; i < 4; ++i) CHECK(s.top_probs[i - 1] >= s.top_probs[i]);
    CHECK(s.token == s.top_ids[0]);
}

TEST_CASE("forcing a token outside the vocabulary is refused with the range") {
    Seq2Seq model(tiny_config(attention::ScoreKind::cosine, AttentionStyle::bahdanau), 1);
    DecodeSession session(model, session_source);
    CHECK_THROWS_WITH_AS(session.force(6), "session: token id 6 is outside the target vocabulary (0..5)",
                         std::invalid_argument);
    CHECK_THROWS_AS(session.force(-1), std::invalid_argument);
    CHECK(session.steps().empty());
}

TEST_CASE("a session stops at the length limit") {
    Seq2Seq model(tiny_config(attention::ScoreKind::scaled_dot, AttentionStyle::bahdanau), 5);
    DecodeSession session(model, session_source, {.max_steps = 3, .attention = {}});
    for (int i = 0; i < 3 && !session.done(); ++i) session.force(3); // never the end token
    CHECK(session.steps().size() == 3);
    CHECK(session.done());
    CHECK(session.output_ids() == std::vector<int>{3, 3, 3});
}

TEST_CASE("beam search of width 1 is greedy decoding, and wider beams are consistent trees") {
    Seq2Seq model(tiny_config(attention::ScoreKind::additive, AttentionStyle::bahdanau), 7);
    DecodeSession greedy(model, session_source);
    greedy.run();
    auto one = beam_search(model, greedy.encoded(), 1);
    REQUIRE(one.beams.size() == 1);
    REQUIRE(one.beams[0].size() == greedy.steps().size());
    for (std::size_t i = 0; i < one.beams[0].size(); ++i)
        CHECK(one.nodes[one.beams[0][i]].token == greedy.steps()[i].token);

    auto three = beam_search(model, greedy.encoded(), 3);
    REQUIRE(!three.beams.empty());
    CHECK(three.beams.size() <= 3);
    for (std::size_t b = 1; b < three.scores.size(); ++b) CHECK(three.scores[b - 1] >= three.scores[b]);
    for (const auto &path : three.beams) {
        double total = 0;
        for (std::size_t i = 0; i < path.size(); ++i) {
            const BeamNode &node = three.nodes[path[i]];
            CHECK(node.depth == static_cast<int>(i));
            CHECK(node.parent == (i == 0 ? -1 : path[i - 1]));
            CHECK(node.step.prev_token == (i == 0 ? 1 : three.nodes[path[i - 1]].token));
            total += node.log_prob;
        }
        CHECK(three.nodes[path.back()].total_log_prob == doctest::Approx(total));
    }
    CHECK_THROWS_AS(beam_search(model, greedy.encoded(), 0), std::invalid_argument);
}

TEST_CASE("a step's trace record carries every named buffer of its stages") {
    Seq2Seq model(tiny_config(attention::ScoreKind::additive, AttentionStyle::luong), 2);
    DecodeSession session(model, session_source);
    auto record = to_record(session.step(), 0);
    for (const char *name :
         {"prev_state", "query", "scores", "hidden", "weights", "context", "state", "attentional", "logits", "probs"})
        CHECK_MESSAGE(record.has(name), name);
    CHECK(record.get("hidden").shape() == std::vector<std::size_t>{3, 5});
    CHECK(record.get("weights").shape() == std::vector<std::size_t>{3});
    CHECK(record.fields["choice"] == "greedy");
    // the softmax spelled out divides back to the weights
    const auto &exps = record.get("exps");
    const float exp_sum = record.fields["exp_sum"].get<float>();
    for (std::size_t j = 0; j < 3; ++j)
        CHECK(exps(j) / exp_sum == doctest::Approx(record.get("weights")(j)).epsilon(1e-6));
    CHECK(record.fields["entropy"].get<float>() <= record.fields["max_entropy"].get<float>() + 1e-6f);
    Seq2Seq dot(tiny_config(attention::ScoreKind::dot, AttentionStyle::bahdanau), 2);
    DecodeSession plain(dot, session_source);
    auto r2 = to_record(plain.step(), 0);
    CHECK_FALSE(r2.has("hidden"));
    CHECK_FALSE(r2.has("attentional"));
}

TEST_CASE("a temperature where the softmax would not stay finite is refused; at the bounds the weights are finite") {
    Seq2Seq model(tiny_config(attention::ScoreKind::general, AttentionStyle::bahdanau), 4);
    // 1e-45 passed the old check (> 0 and finite), and 1/τ = ∞ made 0·∞ = NaN weights.
    for (float t : {1e-45f, 1e-38f, 0.0f, -1.0f, 1e4f, std::numeric_limits<float>::infinity(),
                    std::numeric_limits<float>::quiet_NaN()}) {
        CAPTURE(t);
        try {
            DecodeSession session(model, session_source, {.attention = {.mask = {}, .temperature = t}});
            FAIL("accepted");
        } catch (const InputError &e) {
            CHECK(e.code() == ErrorCode::bad_argument);
            CHECK(std::string(e.what()).find("temperature must be from") != std::string::npos);
            CHECK(std::get<std::string>(e.details().front().second) == "temperature");
        }
        CHECK_THROWS_AS(beam_search(model, DecodeSession(model, session_source).encoded(), 2,
                                    {.attention = {.mask = {}, .temperature = t}}),
                        InputError);
    }
    for (float t : {limits::min_temperature, limits::max_temperature}) {
        CAPTURE(t);
        DecodeSession session(model, session_source, {.attention = {.mask = {}, .temperature = t}});
        session.run();
        for (const SessionStep &s : session.steps()) {
            CHECK(s.step.attention.weights.allFinite());
            CHECK(s.step.attention.weights.sum() == doctest::Approx(1.0f));
            CHECK(s.softmax.exps.allFinite());
        }
    }
}

TEST_CASE("the number of steps is bounded: max_steps past the limit is refused, the default cannot overflow") {
    Seq2Seq model(tiny_config(attention::ScoreKind::additive, AttentionStyle::bahdanau), 4);
    CHECK_THROWS_WITH_AS(
        DecodeSession(model, session_source, {.max_steps = limits::max_decode_steps + 1, .attention = {}}),
        doctest::Contains("max_steps must be from 0"), InputError);
    CHECK_THROWS_AS(DecodeSession(model, session_source, {.max_steps = -1, .attention = {}}), InputError);
    CHECK(DecodeSession(model, session_source, {.max_steps = limits::max_decode_steps, .attention = {}}).max_steps() ==
          limits::max_decode_steps);
    CHECK_THROWS_AS(beam_search(model, DecodeSession(model, session_source).encoded(), limits::max_beam_width + 1),
                    InputError);
    // A config at its bound decodes at most max_decode_steps steps (max_target_len + 1).
    ModelConfig longest = tiny_config(attention::ScoreKind::additive, AttentionStyle::bahdanau);
    longest.max_target_len = limits::max_decode_steps - 1;
    Seq2Seq long_model(longest, 4);
    CHECK(DecodeSession(long_model, session_source).max_steps() == limits::max_decode_steps);
    longest.max_target_len = INT_MAX; // the sum max_target_len + 1 overflowed an int
    CHECK_THROWS_WITH_AS(longest.validate(), doctest::Contains("max_target_len must be from 1 to 1023"), InputError);
}

TEST_CASE("start and end ids outside the vocabulary are refused by name") {
    Seq2Seq model(tiny_config(attention::ScoreKind::dot, AttentionStyle::luong), 4);
    CHECK_THROWS_WITH_AS(DecodeSession(model, session_source, {.start_id = 6, .attention = {}}),
                         "session: start_id 6 is outside the target vocabulary (0..5)", InputError);
    CHECK_THROWS_AS(DecodeSession(model, session_source, {.end_id = -1, .attention = {}}), InputError);
}

TEST_CASE("what a decoding keeps is bounded: steps × beams × target tokens, at load and per request") {
    // Every kept step holds probabilities over the target vocabulary: a vocabulary of 32768 and
    // 1024 steps in 64 beams would keep 2^31 floats (8 GB), far past a wasm heap.
    ModelConfig wide = tiny_config(attention::ScoreKind::additive, AttentionStyle::bahdanau);
    wide.target_vocab = limits::max_vocab_tokens;
    wide.max_target_len = limits::max_decode_steps - 1;
    CHECK_THROWS_WITH_AS(wide.validate(), doctest::Contains("max_target_len can be at most 511"), InputError);
    wide.max_target_len = static_cast<int>(limits::max_decode_floats / limits::max_vocab_tokens) - 1; // 511
    Seq2Seq model(wide, 4);
    DecodeSession session(model, session_source); // 512 steps × 32768 tokens: at the limit
    CHECK(session.max_steps() == 512);
    try {
        beam_search(model, session.encoded(), 2);
        FAIL("accepted");
    } catch (const InputError &e) {
        CHECK(e.code() == ErrorCode::limit_exceeded);
        CHECK(std::string(e.what()) == "beam: 512 steps × 2 beams × 32768 target tokens would keep 33554432 "
                                       "probabilities, more than the limit of 16777216");
    }
    // With fewer steps asked for, the same beam fits.
    const BeamResult fits = beam_search(model, session.encoded(), 2, {.max_steps = 3, .attention = {}});
    CHECK(!fits.beams.empty());
    for (const auto &path : fits.beams) CHECK(path.size() <= 3);
}

TEST_CASE("confidence: the mean, lowest and product of p(token) over the steps taken, forced ones too") {
    Seq2Seq model(tiny_config(attention::ScoreKind::additive, AttentionStyle::bahdanau), 5);
    DecodeSession session(model, session_source);
    CHECK(session.confidence().steps == 0);
    CHECK(session.confidence().min_step == -1);
    const SessionStep &first = session.step();
    const int other = first.top_ids.back() == 2 ? first.top_ids[first.top_ids.size() - 2] : first.top_ids.back();
    session.back();
    session.force(other); // a what-if at the first step, so it counts
    session.run();
    const auto &steps = session.steps();
    double sum = 0, product = 1, lowest = 2;
    int at = -1;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const double p = steps[i].step.probs[steps[i].token];
        sum += p;
        product *= p;
        if (p < lowest) lowest = p, at = static_cast<int>(i);
    }
    const Confidence c = session.confidence();
    CHECK(c.steps == static_cast<int>(steps.size()));
    CHECK(c.mean_prob == doctest::Approx(sum / static_cast<double>(steps.size())).epsilon(1e-12));
    CHECK(c.min_prob == lowest);
    CHECK(c.min_step == at);
    CHECK(c.sequence_prob == doctest::Approx(product).epsilon(1e-12));
    CHECK(c.sequence_prob == doctest::Approx(std::exp(steps.back().total_log_prob)).epsilon(1e-5));
    CHECK(c.low == (lowest < low_confidence));
    // the forced token, the least likely of the first step's top-k, is among the steps counted
    CHECK(c.min_prob <= steps[0].step.probs[other]);
    CHECK(steps[0].choice == Choice::forced);
}
