// What-ifs on a session (masking a source token, pinning a step's weights, scaling τ) against a
// decoder written out directly in double precision from the model's parameters: the engine's
// decoder with its interventions must give the same weights, states and probabilities at the
// intervened step and at every later one.
#include "decode/record_schema.hpp"
#include "decode/session.hpp"

#include "core/error.hpp"
#include "core/limits.hpp"

#include "support/tiny_config.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <variant>

using namespace apg;
using namespace apg::models;
using namespace apg::decode;

namespace {

using Vd = Eigen::VectorXd;
using Md = Eigen::MatrixXd;

using testing::session_source;
using testing::session_tokens;

Vd sigmoid(const Vd &x) { return (1.0 + (-x.array()).exp()).inverse().matrix(); }

Vd gru(const nn::GruParams &p, const Vd &x, const Vd &h) {
    const Eigen::Index S = h.size();
    const Vd xp = p.w_ih.cast<double>() * x + p.b_ih.cast<double>();
    const Vd hp = p.w_hh.cast<double>() * h + p.b_hh.cast<double>();
    const Vd r = sigmoid(xp.segment(0, S) + hp.segment(0, S));
    const Vd z = sigmoid(xp.segment(S, S) + hp.segment(S, S));
    const Vd n = (xp.segment(2 * S, S).array() + r.array() * hp.segment(2 * S, S).array()).tanh().matrix();
    return ((1.0 - z.array()) * n.array() + z.array() * h.array()).matrix();
}

// softmax(e / τ) over the tokens not masked (masked[j] true: weight 0).
Vd softmax_over_rest(const Vd &e, const std::vector<bool> &masked, double tau) {
    double top = -std::numeric_limits<double>::infinity();
    for (Eigen::Index j = 0; j < e.size(); ++j)
        if (!masked[j]) top = std::max(top, e[j]);
    Vd w = Vd::Zero(e.size());
    for (Eigen::Index j = 0; j < e.size(); ++j)
        if (!masked[j]) w[j] = std::exp((e[j] - top) / tau);
    return w / w.sum();
}

struct WhatIf {
    std::vector<bool> masked;
    double tau = 1;
    std::optional<Vd> pinned;
};

struct RefStep {
    Vd scores, weights, context, state, probs;
};

// One decoder step with a dot score (e_j = qᵀ h_j), Bahdanau or Luong, as decoder.hpp writes it.
RefStep ref_step(const Seq2Seq &model, const Md &H, const Vd &prev, int prev_token, const WhatIf &what) {
    const DecoderParams &p = model.parameters().decoder;
    const Vd emb = p.embedding.row(prev_token).transpose().cast<double>();
    RefStep r;
    auto attend = [&](const Vd &q) {
        r.scores = H * q;
        r.weights = what.pinned ? *what.pinned : softmax_over_rest(r.scores, what.masked, what.tau);
        r.context = H.transpose() * r.weights;
    };
    Vd logits;
    if (model.config().style == AttentionStyle::bahdanau) {
        attend(prev);
        Vd x(emb.size() + r.context.size());
        x << emb, r.context;
        r.state = gru(p.gru, x, prev);
        Vd features(r.state.size() + r.context.size() + emb.size());
        features << r.state, r.context, emb;
        logits = p.out_w.cast<double>() * features + p.out_b.cast<double>();
    } else {
        r.state = gru(p.gru, emb, prev);
        attend(r.state);
        Vd combined(r.context.size() + r.state.size());
        combined << r.context, r.state;
        const Vd a = (p.combine_w.cast<double>() * combined).array().tanh().matrix();
        logits = p.out_w.cast<double>() * a + p.out_b.cast<double>();
    }
    r.probs = (logits.array() - logits.maxCoeff()).exp().matrix();
    r.probs /= r.probs.sum();
    return r;
}

double reference_gap(const Vec &engine, const Vd &ref) { return (engine.cast<double>() - ref).cwiseAbs().maxCoeff(); }

// Checks every step of the session against the reference fed the same tokens and, step by step,
// the what-if `at(i)` says was in force.
template <class At> void check_against_reference(const DecodeSession &session, At at) {
    const Md H = session.encoded().states.cast<double>();
    Vd state = session.encoded().initial_state.cast<double>();
    int prev = 1;
    for (std::size_t i = 0; i < session.steps().size(); ++i) {
        CAPTURE(i);
        const SessionStep &s = session.steps()[i];
        const RefStep r = ref_step(session.model(), H, state, prev, at(static_cast<int>(i)));
        CHECK(reference_gap(s.step.attention.score.scores, r.scores) < 1e-5);
        CHECK(reference_gap(s.step.attention.weights, r.weights) < 1e-6);
        CHECK(reference_gap(s.step.attention.context, r.context) < 1e-5);
        CHECK(reference_gap(s.step.state, r.state) < 1e-5);
        CHECK(reference_gap(s.step.probs, r.probs) < 1e-5);
        state = s.step.state.cast<double>(); // float32 rounding does not pile up over the steps
        prev = s.token;
    }
}

Seq2Seq dot_model(AttentionStyle style) {
    return Seq2Seq(testing::tiny_config(attention::ScoreKind::dot, style, testing::session_sizes), 11);
}

void force_all(DecodeSession &session, std::size_t from = 0) {
    for (std::size_t i = from; i < session_tokens.size() && !session.done(); ++i) session.force(session_tokens[i]);
}

void check_whatif_refused(auto &&call, const std::string &name, const std::string &says) {
    try {
        call();
        FAIL("accepted");
    } catch (const InputError &e) {
        CHECK(e.code() == ErrorCode::bad_argument);
        CHECK(std::string(e.what()).find(says) != std::string::npos);
        REQUIRE(!e.details().empty());
        CHECK(std::get<std::string>(e.details().front().second) == name);
    }
}

} // namespace

TEST_CASE("masking a source token: its weight is 0, the others' are the softmax over the rest, later steps follow") {
    for (auto style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
        CAPTURE(static_cast<int>(style));
        Seq2Seq model = dot_model(style);
        DecodeSession plain(model, session_source), masked(model, session_source);
        force_all(plain);
        masked.force(session_tokens[0]);
        masked.mask(1);
        force_all(masked, 1);
        REQUIRE(masked.steps().size() == session_tokens.size());

        // By hand at step 1: the weights of tokens 0 and 2 are e^{e_j} / (e^{e_0} + e^{e_2}).
        const Vec &e = masked.steps()[1].step.attention.score.scores;
        const double e0 = std::exp(double(e[0])), e2 = std::exp(double(e[2]));
        const Vec &w = masked.steps()[1].step.attention.weights;
        CHECK(w[1] == 0.0f);
        CHECK(w[0] == doctest::Approx(e0 / (e0 + e2)).epsilon(1e-6));
        CHECK(w[2] == doctest::Approx(e2 / (e0 + e2)).epsilon(1e-6));
        CHECK(masked.steps()[1].softmax.max_entropy == doctest::Approx(std::log(2.0)));

        check_against_reference(masked, [](int i) {
            return WhatIf{.masked = {false, i >= 1, false}, .tau = 1, .pinned = {}};
        });
        // The first step is the model's own; from the mask on the decode is another one.
        CHECK(reference_gap(masked.steps()[0].step.state, plain.steps()[0].step.state.cast<double>()) == 0);
        CHECK(reference_gap(masked.steps()[1].step.probs, plain.steps()[1].step.probs.cast<double>()) > 1e-4);
        CHECK(plain.steps()[1].step.attention.weights[1] > 0.0f);

        CHECK_FALSE(masked.steps()[0].intervened);
        CHECK(masked.steps()[0].masked.size() == 0);
        for (std::size_t i = 1; i < session_tokens.size(); ++i) {
            CHECK(masked.steps()[i].intervened);
            CHECK(masked.steps()[i].masked.cast<double>() == Vd::Unit(3, 1));
            CHECK(masked.steps()[i].step.attention.weights[1] == 0.0f);
        }
        // Unmasking holds from the next step on.
        masked.back();
        masked.mask(1, false);
        masked.force(session_tokens.back());
        CHECK_FALSE(masked.steps().back().intervened);
        CHECK(masked.steps().back().step.attention.weights[1] > 0.0f);
    }
}

TEST_CASE("pinning one step's attention: one-hot on a token or given weights renormalised; later steps follow") {
    for (auto style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
        CAPTURE(static_cast<int>(style));
        Seq2Seq model = dot_model(style);
        DecodeSession session(model, session_source);
        session.force(session_tokens[0]);
        session.pin(2);
        session.force(session_tokens[1]);
        session.pin(std::vector<float>{1, 3, 0});
        force_all(session, 2);
        REQUIRE(session.steps().size() == session_tokens.size());

        const SessionStep &one_hot = session.steps()[1];
        CHECK(one_hot.step.attention.weights.cast<double>() == Vd::Unit(3, 2));
        CHECK(one_hot.step.attention.context == session.encoded().states.row(2).transpose());
        CHECK(one_hot.pin == Pin::token);
        CHECK(one_hot.pinned_token == 2);
        const SessionStep &given = session.steps()[2];
        CHECK(given.step.attention.weights.cast<double>() == Vd{{0.25, 0.75, 0.0}});
        CHECK(given.pin == Pin::weights);
        CHECK(given.pinned_token == -1);
        // The softmax terms still say what the model would have given.
        CHECK(given.softmax.exp_sum > 0);
        CHECK(given.softmax.exps.minCoeff() > 0);
        // A pin is for one step.
        CHECK(session.steps()[3].pin == Pin::none);
        CHECK_FALSE(session.steps()[3].intervened);
        CHECK(session.pinned().size() == 0);

        check_against_reference(session, [](int i) {
            WhatIf w{.masked = {false, false, false}, .tau = 1, .pinned = {}};
            if (i == 1) w.pinned = Vd::Unit(3, 2);
            if (i == 2) w.pinned = Vd{{0.25, 0.75, 0.0}};
            return w;
        });

        const trace::StepRecord r = to_record(session.steps()[1], 1);
        CHECK(r.fields.at("intervened").get<std::int64_t>() == 1);
        CHECK(r.fields.at("pin").get<std::string>() == "token");
        const trace::StepRecord plain = to_record(session.steps()[0], 0);
        CHECK(plain.fields.at("intervened").get<std::int64_t>() == 0);
        CHECK(plain.fields.at("pin").get<std::string>() == "none");
        CHECK(plain.tensors.count("masked") == 0);
    }
}

TEST_CASE("scaling the attention temperature holds for the rest of the decode; reset() clears every what-if") {
    for (auto style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
        CAPTURE(static_cast<int>(style));
        Seq2Seq model = dot_model(style);
        DecodeSession session(model, session_source);
        session.force(session_tokens[0]);
        session.set_temperature(0.25f);
        session.mask(0);
        force_all(session, 1);
        check_against_reference(session, [](int i) {
            return WhatIf{.masked = {i >= 1, false, false}, .tau = i >= 1 ? 0.25 : 1.0, .pinned = {}};
        });
        CHECK(session.steps()[0].temperature == 1.0f);
        CHECK(session.steps()[1].temperature == 0.25f);
        CHECK(session.steps()[1].intervened);
        const trace::StepRecord r = to_record(session.steps()[1], 1);
        CHECK(r.fields.at("temperature").get<double>() == 0.25);
        REQUIRE(r.tensors.count("masked") == 1);

        session.reset();
        CHECK(session.temperature() == 1.0f);
        CHECK(session.attend_mask() == std::vector<std::uint8_t>{1, 1, 1});
        force_all(session);
        for (const SessionStep &s : session.steps()) CHECK_FALSE(s.intervened);
    }
}

TEST_CASE("what-ifs out of range are refused by name and leave the session as it was") {
    Seq2Seq model = dot_model(AttentionStyle::bahdanau);
    DecodeSession session(model, session_source);
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    check_whatif_refused([&] { session.mask(-1); }, "source_index", "source token -1 does not exist");
    check_whatif_refused([&] { session.mask(3); }, "source_index", "the source has 3 tokens");
    check_whatif_refused([&] { session.pin(3); }, "source_index", "does not exist");
    session.mask(0);
    session.mask(2);
    check_whatif_refused([&] { session.mask(1); }, "mask", "would mask every source token");
    check_whatif_refused(
        [&] {
            session.pin(std::vector<float>{1, 1});
        },
        "weights", "2 weights given for 3 source tokens");
    check_whatif_refused([&] { session.pin(std::vector<float>{}); }, "weights", "0 weights given");
    for (float bad : {nan, inf, -inf, -0.5f}) {
        CAPTURE(bad);
        check_whatif_refused([&] { session.pin(std::vector<float>{1, bad, 1}); }, "weights", "finite and at least 0");
    }
    check_whatif_refused([&] { session.pin(std::vector<float>{0, 0, 0}); }, "weights", "all 0");
    for (float t : {0.0f, -1.0f, nan, inf, limits::min_temperature / 2, limits::max_temperature * 2}) {
        CAPTURE(t);
        check_whatif_refused([&] { session.set_temperature(t); }, "temperature", "temperature must be from");
    }
    // Weights too large to sum in float still renormalise.
    session.pin(std::vector<float>{3e38f, 3e38f, 0});
    CHECK(session.pinned().cast<double>() == Vd{{0.5, 0.5, 0.0}});
    session.unpin();
    // Nothing refused was kept: tokens 0 and 2 masked, no pin, τ = 1.
    CHECK(session.attend_mask() == std::vector<std::uint8_t>{0, 1, 0});
    CHECK(session.pinned().size() == 0);
    CHECK(session.temperature() == 1.0f);
    const SessionStep &s = session.step();
    CHECK(s.step.attention.weights.cast<double>() == Vd::Unit(3, 1));
    CHECK(s.step.attention.weights.allFinite());
}
