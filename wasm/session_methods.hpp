// The decoding session every module hands out (the page module's Session, the image module's
// ImageSession, the audio module's AudioSession) and the methods they share, registered once by
// with_session_methods for each module's state type; a module adds its own after them.
#pragma once

#include "convert.hpp"
#include "core/limits.hpp"
#include "decode/reproduce.hpp"
#include "decode/session.hpp"
#include "handle.hpp"
#include "io/model.hpp"
#include "model_convert.hpp"
#include "step_record.hpp"

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>

namespace apg::wasm {

// A decoding session of a loaded model; a module's state may add what its session was made of.
// It keeps its model alive: JS may delete the model first, and the network stays until the
// session is deleted too.
struct ModuleSession {
    std::shared_ptr<const io::Model> model;
    std::unique_ptr<decode::DecodeSession> session;
    val target_tokens = val::undefined(); // the target vocabulary as a JS array, for step records
};

namespace session_methods {

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

// A step the session has taken, from 0; bad_argument naming `who` otherwise.
template <class State> int step_index(const State &s, const val &index, const char *who) {
    const auto &steps = s.session->steps();
    if (!index.isNumber()) bad_argument(who, ": expected a step index, got " + describe(index));
    const double i = index.as<double>();
    if (!(i >= 0 && i < static_cast<double>(steps.size()) && i == std::floor(i)))
        bad_argument(who,
                     ": step " + number_text(i) + " does not exist (the session has " + std::to_string(steps.size()) +
                         " steps)",
                     static_cast<std::int64_t>(steps.size()));
    return static_cast<int>(i);
}

template <class State> val record_js(State &s, val index) {
    const int i = step_index(s, index, "record");
    return step_to_js(s.target_tokens, s.session->steps()[static_cast<std::size_t>(i)], i);
}

// What a "reproduce this step" script's header names: the model and the input as the page calls
// them, and the source tokens where the session has them (a text model's).
template <class State> decode::ReproduceAbout reproduce_about(const State &s, const val &model, const val &input) {
    decode::ReproduceAbout about;
    about.model =
        text_from_js(model, "model", {limits::max_input_chars, "model"}); // a saved model may have a long name
    about.input = text_from_js(input, "input", {limits::max_input_chars, "input"});
    if constexpr (requires { s.source_tokens; }) about.source = s.source_tokens;
    return about;
}

// The step as a Python file that recomputes it with NumPy (decode/reproduce.hpp).
template <class State> val reproduce_js(State &s, val index, val model, val input) {
    const int i = step_index(s, index, "reproduce");
    decode::ReproduceAbout about = reproduce_about(s, model, input);
    about.output_token = s.model->target_vocab().token(s.session->steps()[static_cast<std::size_t>(i)].token);
    return val(decode::reproduce_step(*s.session, i, about));
}

template <class State> val output_tokens_js(State &s) {
    const io::Vocabulary &vocab = s.model->target_vocab();
    return array_of(s.session->output_ids(), [&](int id) { return val(vocab.token(id)); });
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

} // namespace session_methods

// The methods every session has, registered (and guarded) on the module's session class.
template <class State> ExportedClass<State> &with_session_methods(ExportedClass<State> &&cls) {
    namespace sm = session_methods;
    return cls.method("step", method<sm::step_js<State>>)
        .method("force", method<sm::force_js<State>>)
        .method("back", method<sm::back_js<State>>)
        .method("reset", method<sm::reset_js<State>>)
        .method("run", method<sm::run_js<State>>)
        .method("done", method<sm::done_js<State>>)
        .method("length", method<sm::length_js<State>>)
        .method("record", method<sm::record_js<State>>)
        .method("reproduce", method<sm::reproduce_js<State>>)
        .method("trace", method<sm::trace_js<State>>)
        .method("outputTokens", method<sm::output_tokens_js<State>>)
        .method("outputText", method<sm::output_text_js<State>>)
        .method("encoderStates", method<sm::encoder_states_js<State>>);
}

} // namespace apg::wasm
