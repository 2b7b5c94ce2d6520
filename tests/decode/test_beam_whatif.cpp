// Beam search with what-ifs: every hypothesis at output step i gets step i's mask, pin and τ, as a
// greedy session given the same what-ifs before its step i. Checked by hand where the answer is
// known without the model (a one-hot pin, a mask's zero) and against the session (width 1).
#include "decode/session.hpp"
#include "io/model.hpp"

#include "core/error.hpp"
#include "core/limits.hpp"

#include "support/shipped_models.hpp"
#include "support/tiny_config.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <variant>

using namespace apg;
using namespace apg::decode;
using Kind = ScheduledWhatIf::Kind;

namespace {

using test::shipped;

SessionOptions page_options() {
    SessionOptions options;
    options.start_id = io::Vocabulary::bos;
    options.end_id = io::Vocabulary::eos;
    return options;
}

ScheduledWhatIf mask_at(int step, int token) { return {Kind::mask, step, token, {}, 1}; }
ScheduledWhatIf unmask_at(int step, int token) { return {Kind::unmask, step, token, {}, 1}; }
ScheduledWhatIf pin_at(int step, int token) { return {Kind::pin, step, token, {}, 1}; }
ScheduledWhatIf pin_weights_at(int step, std::vector<float> weights) {
    return {Kind::pin_weights, step, -1, std::move(weights), 1};
}
ScheduledWhatIf tau_at(int step, float tau) { return {Kind::temperature, step, -1, {}, tau}; }

// Greedy decoding with the what-ifs given to the session before each step, as the page's Worker
// gives them (Session.whatIf before step i for the items of step i).
DecodeSession greedy_with(const models::Seq2Seq &model, const models::EncoderOutput &encoded,
                          const std::vector<ScheduledWhatIf> &what_ifs, const SessionOptions &options) {
    DecodeSession session(model, encoded, options);
    while (!session.done()) {
        const int i = static_cast<int>(session.steps().size());
        for (const ScheduledWhatIf &w : what_ifs) {
            if (w.step != i) continue;
            if (w.kind == Kind::mask || w.kind == Kind::unmask)
                session.mask(w.token, w.kind == Kind::mask);
            else if (w.kind == Kind::pin)
                session.pin(w.token);
            else if (w.kind == Kind::pin_weights)
                session.pin(w.weights);
            else
                session.set_temperature(w.temperature);
        }
        session.step();
    }
    return session;
}

// The error's code and the name its details give.
void check_beam_refused(const std::function<void()> &search, ErrorCode code, const std::string &name) {
    CAPTURE(name);
    try {
        search();
        FAIL("no error");
    } catch (const InputError &e) {
        CHECK(e.code() == code);
        REQUIRE(!e.details().empty());
        if (code == ErrorCode::limit_exceeded)
            CHECK(e.details().front().first == name);
        else
            CHECK(std::get<std::string>(e.details().front().second) == name);
        CHECK(std::string(e.what()).rfind("beam: ", 0) == 0);
    }
}

} // namespace

TEST_CASE("a one-hot pin at step i makes every beam's step-i weights one-hot and its context h_j") {
    const io::Model model = shipped("zh-additive-bahdanau.safetensors");
    const models::EncoderOutput encoded = model.network().encode(model.encode_source("tom chase jerry"));
    const int pinned_step = 1, j = 0; // step 2 on "tom"
    const std::vector<ScheduledWhatIf> what_ifs{pin_at(pinned_step, j)};
    const BeamResult plain = beam_search(model.network(), encoded, 4, page_options());
    const BeamResult r = beam_search(model.network(), encoded, 4, page_options(), what_ifs);
    int at_step = 0;
    for (const BeamNode &n : r.nodes) {
        CAPTURE(n.id);
        CHECK(n.intervened == (n.depth == pinned_step));
        if (n.depth != pinned_step) continue;
        ++at_step;
        const Vec &w = n.step.attention.weights;
        for (Eigen::Index k = 0; k < w.size(); ++k) CHECK(w[k] == (k == j ? 1.0f : 0.0f));
        const Vec h = encoded.states.row(j).transpose();
        CHECK(n.step.attention.context == h);
    }
    CHECK(at_step > 1); // several hypotheses reached the pinned step
    // Without the pin the model spreads its weight at that step: the check above can fail.
    for (const BeamNode &n : plain.nodes)
        if (n.depth == pinned_step) CHECK(n.step.attention.weights[j] < 0.999f);
}

TEST_CASE("a mask gives that source token exactly 0 in every beam from its step on, and only then") {
    const io::Model model = shipped("zh-additive-bahdanau.safetensors");
    const models::EncoderOutput encoded = model.network().encode(model.encode_source("tom chase jerry"));
    const int from = 2, j = 2; // "jerry" from step 3 on
    const BeamResult r = beam_search(model.network(), encoded, 3, page_options(), {{mask_at(from, j)}});
    const BeamResult plain = beam_search(model.network(), encoded, 3, page_options());
    int masked = 0;
    for (const BeamNode &n : r.nodes) {
        CAPTURE(n.id);
        CHECK(n.intervened == (n.depth >= from));
        if (n.depth >= from) {
            CHECK(n.step.attention.weights[j] == 0.0f);
            CHECK(n.step.attention.weights.sum() == doctest::Approx(1.0).epsilon(1e-6));
            ++masked;
        } else
            CHECK(n.step.attention.weights[j] > 0.0f);
    }
    CHECK(masked > 0);
    bool plain_attends = false;
    for (const BeamNode &n : plain.nodes)
        plain_attends = plain_attends || (n.depth >= from && n.step.attention.weights[j] > 1e-3f);
    CHECK(plain_attends);

    // Unmasked again from step 4: from then on it has weight again.
    const BeamResult back =
        beam_search(model.network(), encoded, 3, page_options(), {{mask_at(from, j), unmask_at(from + 1, j)}});
    for (const BeamNode &n : back.nodes)
        if (n.depth != from) CHECK(n.step.attention.weights[j] > 0.0f);
}

TEST_CASE("beam width 1 with what-ifs is greedy decoding with them, token for token and weight for weight") {
    struct Case {
        const char *model;
        const char *input;
        std::vector<ScheduledWhatIf> what_ifs;
    };
    const std::vector<Case> cases{
        {"zh-additive-bahdanau.safetensors", "tom chase jerry", {mask_at(1, 0), pin_at(2, 2), tau_at(0, 0.5f)}},
        {"zh-additive-bahdanau.safetensors",
         "tom chased jerry in the kitchen yesterday",
         {pin_weights_at(1, {1, 0, 3, 0, 0, 0, 2}), tau_at(3, 2.0f), mask_at(4, 6), unmask_at(6, 6)}},
        {"dates-location-bahdanau.safetensors", "29 november 2026", {pin_at(0, 3), mask_at(2, 0), tau_at(5, 0.25f)}},
        {"dates-location-bahdanau.safetensors", "nov 29, 2026", {pin_weights_at(3, std::vector<float>(12, 1.0f))}},
    };
    for (const Case &c : cases) {
        CAPTURE(c.model);
        CAPTURE(c.input);
        const io::Model model = shipped(c.model);
        const models::EncoderOutput encoded = model.network().encode(model.encode_source(c.input));
        const DecodeSession greedy = greedy_with(model.network(), encoded, c.what_ifs, page_options());
        const DecodeSession unchanged = greedy_with(model.network(), encoded, {}, page_options());
        const BeamResult r = beam_search(model.network(), encoded, 1, page_options(), c.what_ifs);
        REQUIRE(r.beams.size() == 1);
        const std::vector<int> &path = r.beams[0];
        REQUIRE(path.size() == greedy.steps().size());
        bool differs = path.size() != unchanged.steps().size();
        for (std::size_t i = 0; i < path.size(); ++i) {
            CAPTURE(i);
            const BeamNode &n = r.nodes[path[i]];
            const SessionStep &s = greedy.steps()[i];
            CHECK(n.token == s.token);
            CHECK(n.intervened == s.intervened);
            CHECK(n.step.attention.weights == s.step.attention.weights);
            CHECK(n.step.attention.context == s.step.attention.context);
            CHECK(n.step.probs == s.step.probs);
            CHECK(n.total_log_prob == doctest::Approx(s.total_log_prob).epsilon(1e-12));
            if (!differs && i < unchanged.steps().size())
                differs = unchanged.steps()[i].step.attention.weights != n.step.attention.weights;
        }
        CHECK(differs); // the what-ifs changed the decode, so ignoring them would fail above
    }
}

TEST_CASE("location attention: the step after a pin reads the pinned weights in every beam") {
    const io::Model model = shipped("dates-location-bahdanau.safetensors");
    const models::EncoderOutput encoded = model.network().encode(model.encode_source("29 november 2026"));
    const int pinned_step = 1, j = 5;
    const BeamResult r = beam_search(model.network(), encoded, 3, page_options(), {{pin_at(pinned_step, j)}});
    Vec one_hot = Vec::Zero(encoded.states.rows());
    one_hot[j] = 1;
    int after = 0;
    for (const BeamNode &n : r.nodes) {
        if (n.depth != pinned_step + 1) continue;
        CAPTURE(n.id);
        ++after;
        CHECK(n.step.attention.score.previous == one_hot);
        attention::StepOptions options;
        options.previous = {one_hot.data(), static_cast<std::size_t>(one_hot.size())};
        const BeamNode &parent = r.nodes[n.parent];
        const models::DecoderStep direct = model.network().step(encoded, parent.step.state, parent.token, options);
        CHECK(direct.attention.weights == n.step.attention.weights);
    }
    CHECK(after > 1);
}

TEST_CASE("beam search refuses the bad what-ifs a session refuses, with coded errors, before searching") {
    const io::Model model = shipped("zh-additive-bahdanau.safetensors");
    const models::EncoderOutput encoded = model.network().encode(model.encode_source("tom chase jerry"));
    auto search = [&](std::vector<ScheduledWhatIf> what_ifs) {
        return [&model, &encoded, what_ifs] { beam_search(model.network(), encoded, 3, page_options(), what_ifs); };
    };
    check_beam_refused(search({mask_at(0, 3)}), ErrorCode::bad_argument, "source_index");
    check_beam_refused(search({pin_at(1, 7)}), ErrorCode::bad_argument, "source_index");
    check_beam_refused(search({mask_at(0, 0), mask_at(1, 1), mask_at(1, 2)}), ErrorCode::bad_argument, "mask");
    check_beam_refused(search({pin_weights_at(0, {1, 2})}), ErrorCode::bad_argument, "weights");
    check_beam_refused(search({pin_weights_at(0, {0, 0, 0})}), ErrorCode::bad_argument, "weights");
    check_beam_refused(search({pin_weights_at(0, {1, -1, 1})}), ErrorCode::bad_argument, "weights");
    check_beam_refused(search({tau_at(0, 0)}), ErrorCode::bad_argument, "temperature");
    check_beam_refused(search({tau_at(0, 2 * limits::max_temperature)}), ErrorCode::bad_argument, "temperature");
    check_beam_refused(search({mask_at(-1, 0)}), ErrorCode::bad_argument, "what_ifs");
    // At a step no beam reaches (they end after 4), but within the step limit: refused all the same.
    check_beam_refused(search({mask_at(12, 9)}), ErrorCode::bad_argument, "source_index");
    check_beam_refused(search(std::vector<ScheduledWhatIf>(limits::max_what_ifs + 1, tau_at(0, 1))),
                       ErrorCode::limit_exceeded, "limit");
    // Past the step limit a what-if is never applied, as in a session that stops before it.
    const BeamResult r = beam_search(model.network(), encoded, 3, page_options(), {{mask_at(5000, 9)}});
    CHECK(!r.beams.empty());
    // A mask taken back before the next one leaves a token to attend to.
    CHECK_NOTHROW(beam_search(model.network(), encoded, 3, page_options(),
                              {{mask_at(0, 0), mask_at(0, 1), unmask_at(1, 0), mask_at(1, 2)}}));
}
