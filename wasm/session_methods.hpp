// The decoding-session methods that the page module's Session and the image module's ImageSession
// share, for any state holding a decode::DecodeSession `session` and the target vocabulary as a JS
// array `target_tokens`. Each module registers them for its own state type (and wraps them in its
// own guard), so the two cannot drift apart.
#pragma once

#include "convert.hpp"
#include "step_record.hpp"

#include <cmath>
#include <cstdint>
#include <string>

namespace apg::wasm::session_methods {

template <class State> val step_js(State &s) {
    const auto &step = s.session->step();
    return step_to_js(s.target_tokens, step, static_cast<int>(s.session->steps().size()) - 1);
}

template <class State> val force_js(State &s, val token) {
    if (!token.isNumber()) bad_argument("force", ": expected a token id, got " + describe(token));
    // Out-of-range ids are the session's to refuse (it names the vocabulary size).
    const double id = token.as<double>();
    if (!(id == std::floor(id) && std::abs(id) < 1 << 30))
        bad_argument("force", ": token id must be a whole number, got " + number_text(id));
    const auto &step = s.session->force(static_cast<int>(id));
    return step_to_js(s.target_tokens, step, static_cast<int>(s.session->steps().size()) - 1);
}

template <class State> val back_js(State &s) { return val(s.session->back()); }
template <class State> val reset_js(State &s) {
    s.session->reset();
    return val::undefined();
}
template <class State> val done_js(State &s) { return val(s.session->done()); }
template <class State> val length_js(State &s) { return val(static_cast<int>(s.session->steps().size())); }

template <class State> val run_js(State &s) {
    const int before = static_cast<int>(s.session->steps().size());
    s.session->run();
    val out = val::array();
    const auto &steps = s.session->steps();
    for (int i = before; i < static_cast<int>(steps.size()); ++i)
        out.call<void>("push", step_to_js(s.target_tokens, steps[i], i));
    return out;
}

template <class State> val record_js(State &s, val index) {
    const auto &steps = s.session->steps();
    if (!index.isNumber()) bad_argument("record", ": expected a step index, got " + describe(index));
    const double i = index.as<double>();
    if (!(i >= 0 && i < static_cast<double>(steps.size()) && i == std::floor(i)))
        bad_argument("record",
                     ": step " + number_text(i) + " does not exist (the session has " + std::to_string(steps.size()) +
                         " steps)",
                     static_cast<std::int64_t>(steps.size()));
    return step_to_js(s.target_tokens, steps[static_cast<int>(i)], static_cast<int>(i));
}

// These three also read the state's `model` (the image and audio modules' sessions).
template <class State> val output_tokens_js(State &s) {
    val out = val::array();
    for (int id : s.session->output_ids()) out.call<void>("push", s.model->target_vocab().token(id));
    return out;
}
template <class State> val output_text_js(State &s) {
    return val(s.model->target_vocab().join(s.session->output_ids()));
}
template <class State> val encoder_states_js(State &s) { return to_js(s.session->encoded().states); }

template <class State> val trace_js(State &s) {
    val out = val::array();
    const auto &steps = s.session->steps();
    for (int i = 0; i < static_cast<int>(steps.size()); ++i)
        out.call<void>("push", step_to_js(s.target_tokens, steps[i], i));
    return out;
}

} // namespace apg::wasm::session_methods
