// Decoding sessions and beam search over a Transformer decoder: the key/value cache against
// recomputing every earlier position (bit for bit, through back, force and what-ifs), the what-ifs
// on one head and on all of them with the later steps following, and the step record's rows.
#include "decode/record_schema.hpp"
#include "decode/session.hpp"

#include "core/error.hpp"

#include "support/tiny_config.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace apg;
using namespace apg::models;
using namespace apg::decode;

namespace {

using testing::session_source;
using testing::session_tokens;

// d = 4 in 2 heads of 2, 2 layers, over a Transformer encoder (or the BiGRU's 6-wide states).
Seq2Seq transformer_model(EncoderKind encoder = EncoderKind::transformer) {
    register_transformer_decoder();
    ModelConfig c = testing::tiny_config(attention::ScoreKind::scaled_dot, AttentionStyle::luong,
                                         {.source_vocab = 7,
                                          .target_vocab = 6,
                                          .embedding = 4,
                                          .encoder_hidden = 3,
                                          .max_source_len = 8,
                                          .max_target_len = 5});
    c.encoder = encoder;
    c.decoder = DecoderKind::transformer;
    c.heads = 2;
    c.layers = 2;
    c.ff_hidden = 6;
    return Seq2Seq(c, 13);
}

// Every number a step keeps, for comparing two decodes bit for bit.
std::vector<float> numbers(const SessionStep &s) {
    std::vector<float> out(s.step.logits.data(), s.step.logits.data() + s.step.logits.size());
    const TransformerDecoderStep &t = *s.step.transformer;
    for (const auto *v : {&t.self_weights, &t.self_scores, &t.cross_weights, &t.cross_scores, &t.cross_context})
        out.insert(out.end(), v->begin(), v->end());
    out.insert(out.end(), t.output.data(), t.output.data() + t.output.size());
    out.insert(out.end(), t.keys.data(), t.keys.data() + t.keys.size());
    return out;
}

// The same moves on two sessions: forced session_tokens, a step back, what-ifs on heads and on all of them.
void play(DecodeSession &s) {
    s.force(session_tokens[0]);
    s.mask_head(0, 1, 2);
    s.force(session_tokens[1]);
    s.switch_head(1, 0, false);
    s.pin_head(0, 0, std::vector<float>{1, 0, 3});
    s.force(session_tokens[2]);
    s.back();
    s.set_temperature(2.0f);
    s.mask(0);
    s.force(session_tokens[3]);
    s.pin(1);
    s.force(session_tokens[4]);
    s.switch_head(1, 0, true);
    s.force(session_tokens[5]);
}

} // namespace

TEST_CASE("with the key/value cache or recomputing every earlier position, a session's steps are the same bits") {
    for (EncoderKind encoder : {EncoderKind::transformer, EncoderKind::gru}) {
        CAPTURE(name(encoder));
        const Seq2Seq model = transformer_model(encoder);
        SessionOptions without;
        without.kv_cache = false;
        DecodeSession cached(model, session_source), recomputed(model, session_source, without);
        play(cached);
        play(recomputed);
        REQUIRE(cached.steps().size() == 5);
        REQUIRE(recomputed.steps().size() == 5);
        // Both run the same step function on the same keys and values, whether kept or computed
        // again, so they agree exactly; a stale or misplaced cache row (after back(), say) would not.
        for (std::size_t i = 0; i < 5; ++i) {
            CAPTURE(i);
            CHECK(numbers(cached.steps()[i]) == numbers(recomputed.steps()[i]));
            CHECK(cached.steps()[i].step.transformer->position == static_cast<int>(i));
        }
        // And the what-ifs made a difference: without them, from step 1 on, the numbers are others.
        DecodeSession plain(model, session_source);
        for (const SessionStep &s : cached.steps()) plain.force(s.token);
        CHECK(numbers(plain.steps()[0]) == numbers(cached.steps()[0]));
        for (std::size_t i = 1; i < 5; ++i) CHECK(numbers(plain.steps()[i]) != numbers(cached.steps()[i]));
    }
}

TEST_CASE("what-ifs on one head: its own mask, its pin for one step, switched off until switched on") {
    const Seq2Seq model = transformer_model();
    DecodeSession plain(model, session_source), s(model, session_source);
    for (int token : session_tokens) plain.force(token);
    s.force(session_tokens[0]);
    s.mask_head(1, 0, 2); // layer 1, head 0 no longer sees source token 2
    s.switch_head(0, 1, false);
    s.pin_head(1, 1, 0); // layer 1, head 1 one-hot on token 0, for the next step
    s.force(session_tokens[1]);
    s.force(session_tokens[2]);
    s.switch_head(0, 1, true);
    s.force(session_tokens[3]);
    const auto at = [](std::size_t layer, std::size_t head, std::size_t j) { return (layer * 2 + head) * 3 + j; };
    const TransformerDecoderStep &one = *s.steps()[1].step.transformer, &two = *s.steps()[2].step.transformer,
                                 &three = *s.steps()[3].step.transformer;
    CHECK(one.cross_weights[at(1, 0, 2)] == 0.0f);
    CHECK(one.cross_weights[at(1, 1, 0)] == 1.0f);
    CHECK(one.head_pinned == std::vector<float>{0, 0, 0, 1});
    CHECK(one.head_off == std::vector<float>{0, 1, 0, 0});
    for (int k = 0; k < 2; ++k) CHECK(one.cross_context[static_cast<std::size_t>(1 * 2 + k)] == 0.0f);
    CHECK(one.head_masked[at(1, 0, 2)] == 1.0f);
    // The pin was for one step; the mask and the switch hold for the next.
    CHECK(two.head_pinned.empty());
    CHECK(two.cross_weights[at(1, 1, 0)] < 1.0f);
    CHECK(two.cross_weights[at(1, 0, 2)] == 0.0f);
    CHECK(two.head_off == std::vector<float>{0, 1, 0, 0});
    CHECK(three.head_off.empty());
    CHECK(three.cross_weights[at(1, 0, 2)] == 0.0f);
    // Other heads see every token; the first step was the model's own.
    CHECK(one.cross_weights[at(1, 1, 2)] == 0.0f); // pinned one-hot on token 0
    CHECK(one.cross_weights[at(0, 0, 2)] > 0.0f);
    CHECK(numbers(s.steps()[0]) == numbers(plain.steps()[0]));
    CHECK_FALSE(s.steps()[0].intervened);
    for (std::size_t i = 1; i < 4; ++i) {
        CAPTURE(i);
        CHECK(s.steps()[i].intervened);
        CHECK(numbers(s.steps()[i]) != numbers(plain.steps()[i])); // later steps follow
    }
    // The session-wide what-ifs act on every head of every layer.
    DecodeSession all(model, session_source);
    all.force(session_tokens[0]);
    all.mask(1);
    all.force(session_tokens[1]);
    for (std::size_t l = 0; l < 2; ++l)
        for (std::size_t h = 0; h < 2; ++h) CHECK(all.steps()[1].step.transformer->cross_weights[at(l, h, 1)] == 0.0f);
    CHECK(all.steps()[1].step.attention.weights[1] == 0.0f);
    all.pin(std::vector<float>{1, 1, 2});
    all.force(session_tokens[2]);
    CHECK(all.steps()[2].step.transformer->head_pinned == std::vector<float>{1, 1, 1, 1});
    CHECK(all.steps()[2].step.attention.weights[2] == doctest::Approx(0.5f));
}

TEST_CASE("head what-ifs are refused with coded errors naming the value") {
    const Seq2Seq model = transformer_model();
    DecodeSession s(model, session_source);
    auto refused = [](auto &&call, const std::string &name) {
        try {
            call();
            FAIL("accepted");
        } catch (const InputError &e) {
            CHECK(e.code() == ErrorCode::bad_argument);
            CHECK(std::get<std::string>(e.details().front().second) == name);
        }
    };
    refused([&] { s.mask_head(2, 0, 0); }, "layer");
    refused([&] { s.mask_head(0, -1, 0); }, "head");
    refused([&] { s.switch_head(0, 2, false); }, "head");
    refused([&] { s.mask_head(0, 0, 3); }, "source_index");
    refused([&] { s.pin_head(1, 1, std::vector<float>{0, 0, 0}); }, "weights");
    s.mask_head(0, 0, 0);
    s.mask_head(0, 0, 1);
    refused([&] { s.mask_head(0, 0, 2); }, "mask"); // that head would see nothing
    refused([&] { s.mask(2); }, "mask");            // nor after a mask of every head
    s.mask(1);                                      // hidden from that head already: allowed
    s.force(session_tokens[0]);
    CHECK(s.steps()[0].step.transformer->cross_weights[2] == 1.0f); // layer 0, head 0 sees token 2 alone
    // reset() takes every what-if back.
    s.reset();
    s.force(session_tokens[0]);
    CHECK_FALSE(s.steps()[0].intervened);
    CHECK(s.steps()[0].step.transformer->head_masked.empty());
    // A GRU decoder has no heads.
    const Seq2Seq gru(testing::tiny_config(attention::ScoreKind::dot, AttentionStyle::luong, testing::session_sizes),
                      1);
    DecodeSession g(gru, session_source);
    refused([&] { g.switch_head(0, 0, false); }, "layer");
}

TEST_CASE("beam search over a transformer decoder: width 1 is greedy decoding, what-ifs on heads included") {
    const Seq2Seq model = transformer_model();
    const EncoderOutput encoded = model.encode(session_source);
    std::vector<ScheduledWhatIf> what_ifs(3);
    what_ifs[0].kind = ScheduledWhatIf::Kind::head_off;
    what_ifs[0].step = 1;
    what_ifs[0].layer = 1;
    what_ifs[1].kind = ScheduledWhatIf::Kind::head_mask;
    what_ifs[1].step = 0;
    what_ifs[1].head = 1;
    what_ifs[1].token = 0;
    what_ifs[2].kind = ScheduledWhatIf::Kind::head_pin;
    what_ifs[2].step = 2;
    what_ifs[2].layer = 1;
    what_ifs[2].head = 1;
    what_ifs[2].token = 2;
    const BeamResult beam = beam_search(model, encoded, 1, {}, what_ifs);
    DecodeSession session(model, session_source);
    session.mask_head(0, 1, 0);
    while (!session.done()) {
        const int i = static_cast<int>(session.steps().size());
        if (i == 1) session.switch_head(1, 0, false);
        if (i == 2) session.pin_head(1, 1, 2);
        session.step();
    }
    REQUIRE(beam.beams.size() == 1);
    REQUIRE(beam.beams[0].size() == session.steps().size());
    for (std::size_t i = 0; i < session.steps().size(); ++i) {
        const BeamNode &node = beam.nodes[static_cast<std::size_t>(beam.beams[0][i])];
        CHECK(node.token == session.steps()[i].token);
        CHECK(node.intervened);
        CHECK(node.step.logits == session.steps()[i].step.logits);
        CHECK(node.step.transformer->cross_weights == session.steps()[i].step.transformer->cross_weights);
    }
    // Wider beams keep each hypothesis' own keys and values: every node's step is the session's
    // step after that node's session_tokens.
    const BeamResult wide = beam_search(model, encoded, 3);
    for (const BeamNode &node : wide.nodes) {
        std::vector<int> path;
        for (int n = node.parent; n >= 0; n = wide.nodes[static_cast<std::size_t>(n)].parent)
            path.insert(path.begin(), wide.nodes[static_cast<std::size_t>(n)].token);
        DecodeSession replay(model, session_source);
        for (int token : path) replay.force(token);
        CHECK(replay.force(node.token).step.logits == node.step.logits);
    }
    // A head of a layer the decoder does not have is refused before searching.
    std::vector<ScheduledWhatIf> bad(1);
    bad[0].kind = ScheduledWhatIf::Kind::head_on;
    bad[0].step = 4;
    bad[0].layer = 2;
    CHECK_THROWS_AS(beam_search(model, encoded, 2, {}, bad), InputError);
}

TEST_CASE("a transformer step's record: every layer × head's cross and self weights, q, k and v on request") {
    const Seq2Seq model = transformer_model();
    const std::vector<std::string> names{"<pad>", "<s>", "</s>", "<unk>", "a", "b"};
    SessionOptions qkv;
    qkv.keep_qkv = true;
    for (bool keep : {false, true}) {
        CAPTURE(keep);
        DecodeSession s(model, session_source, keep ? qkv : SessionOptions{});
        s.force(session_tokens[0]);
        s.switch_head(1, 1, false);
        const SessionStep &step = s.force(session_tokens[1]);
        const trace::StepRecord r = record::to_record(step, 1, names);
        CHECK(r.fields["decoder"] == "transformer");
        CHECK(r.get("cross_weights").shape() == std::vector<std::size_t>{2, 2, 3});
        CHECK(r.get("self_weights").shape() == std::vector<std::size_t>{2, 2, 2}); // <s> and the token fed
        CHECK(r.get("self_context").shape() == std::vector<std::size_t>{2, 2, 2});
        CHECK(r.get("ffn_hidden").shape() == std::vector<std::size_t>{2, 6});
        CHECK(r.get("head_off").shape() == std::vector<std::size_t>{2, 2});
        CHECK_FALSE(r.has("head_masked"));
        CHECK_FALSE(r.has("scores")); // the heads' average has no one score vector
        CHECK(r.has("weights"));
        CHECK(r.has("cross_key") == keep);
        if (keep) {
            CHECK(r.get("self_key").shape() == std::vector<std::size_t>{2, 2, 2, 2});
            CHECK(r.get("cross_value").shape() == std::vector<std::size_t>{2, 2, 3, 2});
            // Each head's key of the token fed at this step is this step's row of the cache.
            const trace::Tensor &k = r.get("self_key");
            for (std::size_t l = 0; l < 2; ++l)
                for (std::size_t h = 0; h < 2; ++h)
                    for (std::size_t c = 0; c < 2; ++c)
                        CHECK(k(l, h, 1, c) == step.step.transformer->keys(static_cast<Eigen::Index>(l),
                                                                           static_cast<Eigen::Index>(h * 2 + c)));
        }
        // Each self-attention row of the causal triangle sums to 1 over the tokens fed so far.
        const trace::Tensor &w = r.get("self_weights");
        for (std::size_t l = 0; l < 2; ++l)
            for (std::size_t h = 0; h < 2; ++h) CHECK(w(l, h, 0) + w(l, h, 1) == doctest::Approx(1.0f));
    }
}
