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

using AudioSessionState = ModuleSession;

// Frames per encoder position: each of the R reductions halves the steps.
int frames_per_position(const models::ModelConfig &c) { return 1 << c.reductions; }

val load_js(val bytes) {
    return val(Handle<const Model>{load_model(bytes, "AudioModel.load", models::EncoderKind::audio,
                                              "the audio module reads models with an audio encoder (task speech)")});
}

val info_js(const std::shared_ptr<const Model> &model) {
    const Model &m = *model;
    const auto &c = m.config();
    val out = model_info(c);
    out.set("reduction", frames_per_position(c));
    out.set("dims", object_of({{"bands", val(c.input_dim)},
                               {"reductions", val(c.reductions)},
                               {"encoderHidden", val(c.encoder_hidden)},
                               {"encoderState", val(c.encoder_state())},
                               {"embedding", val(c.embedding)},
                               {"decoderHidden", val(c.decoder_hidden)},
                               {"attentionDim", val(c.attention_dim)},
                               {"maxSourceLen", val(c.max_source_len)},
                               {"maxTargetLen", val(c.max_target_len)}}));
    set_training(out, m, {{"heldoutCer", "heldout_cer"}, {"monotonicity", "monotonicity"}});
    return out;
}

// listen(frames, options?)
val listen_js(const std::shared_ptr<const Model> &model, val frames, val options) {
    const decode::SessionOptions o = session_options(options, "listen", model->target_vocab().size());
    const std::vector<float> features = frames_from_js(frames, "frames");
    return val(
        Handle<AudioSessionState>{start_session<AudioSessionState>(model, model->network().encode_audio(features), o)});
}

val encode_js(const std::shared_ptr<const Model> &model, val frames) {
    const models::EncoderOutput out = model->network().encode_audio(frames_from_js(frames, "frames"));
    val result = val::object();
    result.set("states", to_js(out.states));
    result.set("reduction", frames_per_position(model->config()));
    return result;
}

val reduction_js(AudioSessionState &s) { return val(frames_per_position(s.model->config())); }

} // namespace
} // namespace apg::wasm::audio

EMSCRIPTEN_BINDINGS(apg_audio_listen) {
    using namespace apg::wasm;
    using namespace apg::wasm::audio;
    ExportedClass<const apg::io::Model>("AudioModel")
        .class_function("load", entry<load_js>)
        .method("info", method<info_js>)
        .method("listen", method<listen_js>, 1) // options may be left out
        .method("encode", method<encode_js>);
    with_session_methods(ExportedClass<AudioSessionState>("AudioSession")).method("reduction", method<reduction_js>);
}
