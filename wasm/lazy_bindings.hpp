// What the bindings of the modules the page loads lazily (the image module's and the audio
// module's; wasm/image/, wasm/audio/) share, so they read their inputs and describe their models
// the same way: option objects, checkpoint bytes, a model of the module's encoder, the decoding
// options of a session (topK, maxSteps, temperature), the model's description, and a session's
// start (its methods are session_methods.hpp's). Conversion only.
#pragma once

#include "convert.hpp"
#include "core/error.hpp"
#include "core/limits.hpp"
#include "decode/session.hpp"
#include "handle.hpp"
#include "io/model.hpp"
#include "js_error.hpp"
#include "model_convert.hpp"
#include "session_methods.hpp"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace apg::wasm {

// An object that is not an array, a typed array or null: what an options argument must be.
inline bool plain_object(const val &v) {
    return v.typeOf().as<std::string>() == "object" && !v.isNull() && !v.isArray() && !is_array_like(v);
}

// options[name] unless it is absent or undefined.
inline std::optional<val> option(const val &options, const char *name) {
    if (!options.hasOwnProperty(name) || options[name].isUndefined()) return std::nullopt;
    return options[name];
}

// The argument `field` of the function `of`: an options object (undefined: {}) whose keys are all
// among `known`. bad_argument naming the first other key (details.name = field.key), or the whole
// value when it is not a plain object.
inline val checked_options(const val &options_js, const std::string &field, const std::string &of,
                           std::initializer_list<const char *> known) {
    const val options = options_js.isUndefined() ? val::object() : options_js;
    if (!plain_object(options)) bad_argument(field, ": expected an object, got " + describe(options));
    std::string names;
    for (const char *k : known) names += (names.empty() ? "" : ", ") + std::string(k);
    for (const auto &key : own_keys(options)) {
        const bool ok = std::any_of(known.begin(), known.end(), [&key](const char *k) { return key == k; });
        if (!ok) bad_argument(field + "." + key, " is not an option of " + of + " (" + names + ")");
    }
    return options;
}

// A session's decoding options from the JS options of `of` ({topK, maxSteps, temperature}, each
// optional): greedy from BOS to EOS, topK from 1 to the target vocabulary (default 5, or the whole
// vocabulary when smaller), maxSteps up to the library's limit (0: the model's), the attention
// temperature finite as a float32 (its range is the library's to check).
inline decode::SessionOptions session_options(const val &options_js, const std::string &of, int target_vocab) {
    const val options = checked_options(options_js, "options", of, {"topK", "maxSteps", "temperature"});
    decode::SessionOptions o;
    o.start_id = io::Vocabulary::bos;
    o.end_id = io::Vocabulary::eos;
    o.top_k = std::min(5, target_vocab);
    if (const auto v = option(options, "topK"))
        o.top_k = static_cast<int>(whole_number(*v, "options.topK", 1, target_vocab));
    if (const auto v = option(options, "maxSteps"))
        o.max_steps = static_cast<int>(whole_number(*v, "options.maxSteps", 0, limits::max_decode_steps));
    if (const auto v = option(options, "temperature")) o.attention.temperature = to_temperature(*v);
    return o;
}

// A Uint8Array (or Uint8ClampedArray, what a canvas gives) copied into wasm memory, at most
// max_bytes long: limit_exceeded (details.limit) for more, checked before anything is copied.
inline std::vector<std::uint8_t> bytes_from_js(const val &bytes, const std::string &field, std::int64_t max_bytes) {
    if (!bytes.instanceof (val::global("Uint8Array")) && !bytes.instanceof (val::global("Uint8ClampedArray")))
        bad_argument(field, ": expected a Uint8Array or Uint8ClampedArray, got " + describe(bytes));
    const double length = bytes["length"].as<double>();
    if (length > static_cast<double>(max_bytes))
        limit_exceeded(field,
                       ": " + number_text(length) + " bytes, at most " + std::to_string(max_bytes) + " are accepted",
                       max_bytes);
    std::vector<std::uint8_t> data(static_cast<std::size_t>(length));
    val(emscripten::typed_memory_view(data.size(), data.data())).call<void>("set", bytes);
    return data;
}

// A checkpoint's bytes loaded as a model whose encoder is `encoder` (the module's): who names the
// call ("AudioModel.load") and `reads` what the module reads instead, for the message of
// bad_argument (details.name "encoder") when the encoder is another.
inline std::shared_ptr<const io::Model> load_model(const val &bytes, const std::string &who,
                                                   models::EncoderKind encoder, const std::string &reads) {
    auto model = std::make_shared<const io::Model>(
        io::Model::load(bytes_from_js(bytes, who, static_cast<std::int64_t>(limits::max_file_bytes))));
    if (model->config().encoder != encoder)
        throw InputError(ErrorCode::bad_argument,
                         who + ": this checkpoint's encoder is " + std::string(models::name(model->config().encoder)) +
                             "; " + reads,
                         {{"name", std::string("encoder")}});
    return model;
}

// The start of a model's info: task, score, style and encoder.
inline val model_info(const models::ModelConfig &c) {
    val out = val::object();
    out.set("task", c.task);
    out.set("score", std::string(attention::name(c.score)));
    out.set("style", std::string(models::name(c.style)));
    out.set("encoder", std::string(models::name(c.encoder)));
    return out;
}

// The end of a model's info: its target vocabulary, its held-out figures (heldoutExactMatch and
// the module's own, each a JS name and the training record's key) and the whole training record.
inline void set_training(val &out, const io::Model &m,
                         std::initializer_list<std::pair<const char *, const char *>> figures) {
    out.set("tgtVocab", vocab_to_js(m.target_vocab()));
    const auto &training = m.training();
    out.set("heldoutExactMatch", training_number(training, "heldout_exact_match"));
    for (const auto &[name, key] : figures) out.set(name, training_number(training, key));
    out.set("training", json_to_js(training));
}

// A new session of `model` over its encoder's output.
template <class State>
std::shared_ptr<State> start_session(const std::shared_ptr<const io::Model> &model, models::EncoderOutput encoded,
                                     const decode::SessionOptions &options) {
    auto s = std::make_shared<State>();
    s->model = model;
    s->target_tokens = vocab_to_js(model->target_vocab());
    s->session = std::make_unique<decode::DecodeSession>(model->network(), std::move(encoded), options);
    return s;
}

} // namespace apg::wasm
