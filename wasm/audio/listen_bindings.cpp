// The embind surface of the audio module's listening (the module is `audio`, loaded lazily by the
// Listen view; declared in wasm/audio/audio.d.ts): speech models loaded from .safetensors and
// listening sessions over an utterance's frames, whose steps are the page module's step records
// (the decoder's table of decode/record_schema.hpp) over the audio encoder's positions, each
// 2^R frames of the utterance. Conversion only: the work is done by io::Model,
// Seq2Seq::encode_audio and decode::DecodeSession.
#include "../js_error.hpp"
#include "../model_convert.hpp"
#include "../session_methods.hpp"
#include "../step_record.hpp"
#include "audio_convert.hpp"
#include "decode/session.hpp"
#include "io/model.hpp"

#include <emscripten/bind.h>

#include <memory>
#include <string>
#include <vector>

namespace apg::wasm::audio {
namespace {

using io::Model;

struct AudioModelHandle {
    std::shared_ptr<const Model> model;
};

struct AudioSessionState {
    std::shared_ptr<const Model> model;
    std::unique_ptr<decode::DecodeSession> session;
    val target_tokens = val::undefined();
};

struct AudioSessionHandle {
    std::shared_ptr<AudioSessionState> state;
};

// Frames per encoder position: each of the R reductions halves the steps.
int frames_per_position(const models::ModelConfig &c) { return 1 << c.reductions; }

std::vector<std::uint8_t> bytes_from_js(const val &bytes, const std::string &field, std::int64_t max_bytes) {
    if (!bytes.instanceof (val::global("Uint8Array")))
        bad_argument(field, ": expected a Uint8Array, got " + describe(bytes));
    const double length = bytes["length"].as<double>();
    if (length > static_cast<double>(max_bytes))
        limit_exceeded(field,
                       ": " + number_text(length) + " bytes, at most " + std::to_string(max_bytes) + " are accepted",
                       max_bytes);
    std::vector<std::uint8_t> data(static_cast<std::size_t>(length));
    val(emscripten::typed_memory_view(data.size(), data.data())).call<void>("set", bytes);
    return data;
}

val load_js(val bytes) {
    const std::vector<std::uint8_t> data =
        bytes_from_js(bytes, "AudioModel.load", static_cast<std::int64_t>(limits::max_file_bytes));
    auto model = std::make_shared<const Model>(Model::load(data));
    if (model->config().encoder != models::EncoderKind::audio)
        throw InputError(ErrorCode::bad_argument,
                         "AudioModel.load: this checkpoint's encoder is " +
                             std::string(models::name(model->config().encoder)) +
                             "; the audio module reads models with an audio encoder (task speech)",
                         {{"name", std::string("encoder")}});
    return val(AudioModelHandle{std::move(model)});
}

val info_js(const std::shared_ptr<const Model> &model) {
    const Model &m = *model;
    const auto &c = m.config();
    val out = val::object();
    out.set("task", c.task);
    out.set("score", std::string(attention::name(c.score)));
    out.set("style", std::string(models::name(c.style)));
    out.set("encoder", std::string(models::name(c.encoder)));
    out.set("reduction", frames_per_position(c));
    val dims = val::object();
    dims.set("bands", c.input_dim);
    dims.set("reductions", c.reductions);
    dims.set("encoderHidden", c.encoder_hidden);
    dims.set("encoderState", c.encoder_state());
    dims.set("embedding", c.embedding);
    dims.set("decoderHidden", c.decoder_hidden);
    dims.set("attentionDim", c.attention_dim);
    dims.set("maxSourceLen", c.max_source_len);
    dims.set("maxTargetLen", c.max_target_len);
    out.set("dims", dims);
    out.set("tgtVocab", vocab_to_js(m.target_vocab()));
    const auto &training = m.training();
    out.set("heldoutExactMatch", training_number(training, "heldout_exact_match"));
    out.set("heldoutCer", training_number(training, "heldout_cer"));
    out.set("monotonicity", training_number(training, "monotonicity"));
    out.set("training", json_to_js(training));
    return out;
}

// listen(frames, options?)
val listen_js(const std::shared_ptr<const Model> &model, val frames, val options_js) {
    const val options = checked_options(options_js, "options", {"topK", "maxSteps", "temperature"});
    decode::SessionOptions o;
    o.start_id = io::Vocabulary::bos;
    o.end_id = io::Vocabulary::eos;
    const int vocab = model->target_vocab().size();
    o.top_k = std::min(5, vocab);
    if (const auto v = option(options, "topK")) o.top_k = static_cast<int>(whole_number(*v, "options.topK", 1, vocab));
    if (const auto v = option(options, "maxSteps"))
        o.max_steps = static_cast<int>(whole_number(*v, "options.maxSteps", 0, limits::max_decode_steps));
    if (const auto v = option(options, "temperature")) o.attention.temperature = to_temperature(*v);
    const std::vector<float> features = frames_from_js(frames, "frames");
    auto s = std::make_shared<AudioSessionState>();
    s->model = model;
    s->target_tokens = vocab_to_js(model->target_vocab());
    s->session = std::make_unique<decode::DecodeSession>(model->network(), model->network().encode_audio(features), o);
    return val(AudioSessionHandle{std::move(s)});
}

val encode_js(const std::shared_ptr<const Model> &model, val frames) {
    const models::EncoderOutput out = model->network().encode_audio(frames_from_js(frames, "frames"));
    val result = val::object();
    result.set("states", to_js(out.states));
    result.set("reduction", frames_per_position(model->config()));
    return result;
}

val output_tokens_js(AudioSessionState &s) {
    std::vector<std::string> out;
    for (int id : s.session->output_ids()) out.push_back(s.model->target_vocab().token(id));
    return strings_to_js(out);
}
val output_text_js(AudioSessionState &s) { return val(s.model->target_vocab().join(s.session->output_ids())); }
val encoder_states_js(AudioSessionState &s) { return to_js(s.session->encoded().states); }
val reduction_js(AudioSessionState &s) { return val(frames_per_position(s.model->config())); }

// ---- entry points: every body inside guarded() ----

val AudioModel_load(val bytes) { return guarded(load_js, bytes); }
val AudioModel_info(AudioModelHandle &h) {
    return guarded([&h] {
        const std::shared_ptr<const Model> model = h.model;
        return info_js(model);
    });
}
val AudioModel_listen(AudioModelHandle &h, val frames, val options) {
    return guarded(
        [&h](val f, val o) {
            const std::shared_ptr<const Model> model = h.model;
            return listen_js(model, f, o);
        },
        frames, options);
}
val AudioModel_encode(AudioModelHandle &h, val frames) {
    return guarded(
        [&h](val f) {
            const std::shared_ptr<const Model> model = h.model;
            return encode_js(model, f);
        },
        frames);
}

template <val (*F)(AudioSessionState &)> val session_call(AudioSessionHandle &h) {
    return guarded([&h] {
        const std::shared_ptr<AudioSessionState> state = h.state;
        return F(*state);
    });
}
template <val (*F)(AudioSessionState &, val)> val session_call_arg(AudioSessionHandle &h, val arg) {
    return guarded(
        [&h](val a) {
            const std::shared_ptr<AudioSessionState> state = h.state;
            return F(*state, a);
        },
        arg);
}

} // namespace
} // namespace apg::wasm::audio

EMSCRIPTEN_BINDINGS(apg_audio_listen) {
    using namespace apg::wasm::audio;
    namespace sm = apg::wasm::session_methods;
    emscripten::class_<AudioModelHandle>("AudioModel")
        .class_function("load", &AudioModel_load)
        .function("info", &AudioModel_info)
        .function("listen", &AudioModel_listen)
        .function("encode", &AudioModel_encode);
    emscripten::class_<AudioSessionHandle>("AudioSession")
        .function("step", &session_call<sm::step_js<AudioSessionState>>)
        .function("force", &session_call_arg<sm::force_js<AudioSessionState>>)
        .function("back", &session_call<sm::back_js<AudioSessionState>>)
        .function("reset", &session_call<sm::reset_js<AudioSessionState>>)
        .function("run", &session_call<sm::run_js<AudioSessionState>>)
        .function("done", &session_call<sm::done_js<AudioSessionState>>)
        .function("length", &session_call<sm::length_js<AudioSessionState>>)
        .function("record", &session_call_arg<sm::record_js<AudioSessionState>>)
        .function("trace", &session_call<sm::trace_js<AudioSessionState>>)
        .function("outputTokens", &session_call<output_tokens_js>)
        .function("outputText", &session_call<output_text_js>)
        .function("encoderStates", &session_call<encoder_states_js>)
        .function("reduction", &session_call<reduction_js>);
    apg::wasm::guard_static("AudioModel", "load");
    apg::wasm::guard_method("AudioModel", "info");
    apg::wasm::guard_method("AudioModel", "listen", 1); // options may be left out
    apg::wasm::guard_method("AudioModel", "encode");
    for (const char *m : {"step", "force", "back", "reset", "run", "done", "length", "record", "trace", "outputTokens",
                          "outputText", "encoderStates", "reduction"})
        apg::wasm::guard_method("AudioSession", m);
}
