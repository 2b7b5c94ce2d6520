// The embind surface of the audio module's listening (the module is `audio`, loaded lazily by the
// Listen view; declared in wasm/audio/audio.d.ts): speech models loaded from .safetensors and
// listening sessions over an utterance's frames, whose steps are the page module's step records
// (the decoder's table of decode/record_schema.hpp) over the audio encoder's positions, each
// 2^R frames of the utterance. Conversion only: the work is done by io::Model,
// Seq2Seq::encode_audio and decode::DecodeSession.
#include "../js_error.hpp"
#include "../lazy_bindings.hpp"
#include "../model_convert.hpp"
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

using AudioSessionState = ModuleSession;
using AudioSessionHandle = SessionHandle<AudioSessionState>;

// Frames per encoder position: each of the R reductions halves the steps.
int frames_per_position(const models::ModelConfig &c) { return 1 << c.reductions; }

val load_js(val bytes) {
    return val(AudioModelHandle{load_model(bytes, "AudioModel.load", models::EncoderKind::audio,
                                           "the audio module reads models with an audio encoder (task speech)")});
}

val info_js(const std::shared_ptr<const Model> &model) {
    const Model &m = *model;
    const auto &c = m.config();
    val out = model_info(c);
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
    set_training(out, m, {{"heldoutCer", "heldout_cer"}, {"monotonicity", "monotonicity"}});
    return out;
}

// listen(frames, options?)
val listen_js(const std::shared_ptr<const Model> &model, val frames, val options) {
    const decode::SessionOptions o = session_options(options, "listen", model->target_vocab().size());
    const std::vector<float> features = frames_from_js(frames, "frames");
    return val(AudioSessionHandle{start_session<AudioSessionState>(model, model->network().encode_audio(features), o)});
}

val encode_js(const std::shared_ptr<const Model> &model, val frames) {
    const models::EncoderOutput out = model->network().encode_audio(frames_from_js(frames, "frames"));
    val result = val::object();
    result.set("states", to_js(out.states));
    result.set("reduction", frames_per_position(model->config()));
    return result;
}

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

} // namespace
} // namespace apg::wasm::audio

EMSCRIPTEN_BINDINGS(apg_audio_listen) {
    using namespace apg::wasm::audio;
    using apg::wasm::session_call;
    using apg::wasm::with_session_methods;
    emscripten::class_<AudioModelHandle>("AudioModel")
        .class_function("load", &AudioModel_load)
        .function("info", &AudioModel_info)
        .function("listen", &AudioModel_listen)
        .function("encode", &AudioModel_encode);
    with_session_methods(emscripten::class_<AudioSessionHandle>("AudioSession"))
        .function("reduction", &session_call<reduction_js>);
    apg::wasm::guard_static("AudioModel", "load");
    apg::wasm::guard_method("AudioModel", "info");
    apg::wasm::guard_method("AudioModel", "listen", 1); // options may be left out
    apg::wasm::guard_method("AudioModel", "encode");
    apg::wasm::guard_session_methods("AudioSession", {"reduction"});
}
