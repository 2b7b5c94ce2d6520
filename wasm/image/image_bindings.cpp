// The embind surface of the image module (`imaging`, loaded lazily by the Caption view; declared
// in wasm/image/imaging.d.ts): scenes from a description or a seed, any RGB(A) picture to the
// model's input, scene models loaded from .safetensors, and captioning sessions whose steps are
// the page module's step records (the decoder's table of decode/record_schema.hpp) over the L
// grid cells. Conversion only: the work is done by train::scenes, io::Model and
// decode::DecodeSession.
#include "../convert.hpp"
#include "../js_error.hpp"
#include "../model_convert.hpp"
#include "../session_methods.hpp"
#include "../step_record.hpp"
#include "decode/session.hpp"
#include "io/model.hpp"
#include "train/tasks/scenes.hpp"

#include <emscripten/bind.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace apg::wasm {
namespace {

namespace sc = train::scenes;
using io::Model;

val strings_to_js(const std::vector<std::string> &items) {
    val out = val::array();
    for (const auto &s : items) out.call<void>("push", s);
    return out;
}

template <std::size_t N> val names_to_js(const std::array<std::string_view, N> &names) {
    val out = val::array();
    for (auto n : names) out.call<void>("push", std::string(n));
    return out;
}

val bytes_to_js(const std::vector<std::uint8_t> &bytes) {
    return val(emscripten::typed_memory_view(bytes.size(), bytes.data())).call<val>("slice");
}

// A Uint8Array (or Uint8ClampedArray, what a canvas gives) copied into wasm memory, at most
// max_bytes long.
std::vector<std::uint8_t> bytes_from_js(const val &bytes, const std::string &field, std::int64_t max_bytes) {
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

constexpr std::int64_t kMaxUploadBytes = std::int64_t{sc::max_upload_side} * sc::max_upload_side * 4;

val box_to_js(const sc::Box &b) {
    val out = val::object();
    out.set("x0", b.x0);
    out.set("y0", b.y0);
    out.set("x1", b.x1);
    out.set("y1", b.y1);
    return out;
}

val scene_to_js(const sc::Scene &scene) {
    val objects = val::array();
    for (const sc::Object &o : scene.objects) {
        val obj = val::object();
        obj.set("size", std::string(sc::size_names[o.large]));
        obj.set("colour", std::string(sc::colour_names[o.colour]));
        obj.set("shape", std::string(sc::shape_names[static_cast<int>(o.shape)]));
        obj.set("x", o.x);
        obj.set("y", o.y);
        obj.set("box", box_to_js(o.box()));
        obj.set("words", o.words());
        objects.call<void>("push", obj);
    }
    const sc::Caption caption = sc::caption(scene);
    val object_of = val::array();
    for (int k : caption.object_of) object_of.call<void>("push", k);
    val out = val::object();
    out.set("description", sc::describe(scene));
    out.set("textureSeed", static_cast<double>(scene.texture_seed));
    out.set("objects", objects);
    out.set("caption", caption.text());
    out.set("captionTokens", strings_to_js(caption.tokens));
    out.set("captionObjects", object_of);
    out.set("heldoutComposition", sc::heldout_composition(scene));
    out.set("width", sc::image_size);
    out.set("height", sc::image_size);
    out.set("pixels", bytes_to_js(sc::render(scene)));
    return out;
}

// scene(description: string, textureSeed?) or scene(seed: number): a random scene of the task.
val scene_js(val what, val texture_seed) {
    const std::uint64_t texture =
        texture_seed.isUndefined()
            ? 1
            : static_cast<std::uint64_t>(whole_number(texture_seed, "textureSeed", 0, (std::int64_t{1} << 53)));
    if (what.isString()) {
        const std::string text = what.as<std::string>();
        if (text.size() > static_cast<std::size_t>(limits::max_input_chars))
            limit_exceeded("scene",
                           ": the description has more than " + std::to_string(limits::max_input_chars) + " characters",
                           limits::max_input_chars);
        return scene_to_js(sc::parse_description(text, texture));
    }
    if (what.isNumber()) {
        core::Rng rng(static_cast<std::uint64_t>(whole_number(what, "seed", 0, std::int64_t{1} << 53)));
        return scene_to_js(sc::random_scene(rng));
    }
    bad_argument("scene", ": expected a description (string) or a seed (number), got " + describe(what));
}

std::vector<std::uint8_t> model_image(const val &pixels, const val &width, const val &height, const val &channels) {
    // A side past the limit is limit_exceeded (an image too large to read), before its bytes are copied.
    const auto w = whole_number(width, "width", 1, std::int64_t{1} << 30);
    const auto h = whole_number(height, "height", 1, std::int64_t{1} << 30);
    if (w > sc::max_upload_side || h > sc::max_upload_side)
        limit_exceeded(w > sc::max_upload_side ? "width" : "height",
                       ": " + std::to_string(w) + " x " + std::to_string(h) + " pixels is larger than the " +
                           std::to_string(sc::max_upload_side) + " x " + std::to_string(sc::max_upload_side) +
                           " the engine reads",
                       sc::max_upload_side);
    const auto c = channels.isUndefined() ? 4 : static_cast<int>(whole_number(channels, "channels", 3, 4));
    return sc::to_model_image(bytes_from_js(pixels, "pixels", kMaxUploadBytes), static_cast<int>(w),
                              static_cast<int>(h), c);
}

val to_model_image_js(val pixels, val width, val height, val channels) {
    return bytes_to_js(model_image(pixels, width, height, channels));
}

val limits_js() {
    val out = val::object();
    out.set("imageSize", sc::image_size);
    out.set("modelChannels", sc::image_channels);
    out.set("maxUploadSide", sc::max_upload_side);
    out.set("maxUploadBytes", static_cast<double>(kMaxUploadBytes));
    out.set("maxDescribedObjects", sc::max_described_objects);
    out.set("maxDescriptionChars", limits::max_input_chars);
    out.set("maxFileBytes", static_cast<double>(limits::max_file_bytes));
    out.set("maxTemperature", limits::max_temperature);
    out.set("minTemperature", limits::min_temperature);
    out.set("shapes", names_to_js(sc::shape_names));
    out.set("colours", names_to_js(sc::colour_names));
    out.set("sizes", names_to_js(sc::size_names));
    return out;
}

// ---- ImageModel ----

struct ImageModelHandle {
    std::shared_ptr<const Model> model;
};

struct ImageSessionState {
    std::shared_ptr<const Model> model;
    std::unique_ptr<decode::DecodeSession> session;
    std::vector<std::uint8_t> pixels; // what the model read (image_size² RGB)
    val target_tokens = val::undefined();
};

struct ImageSessionHandle {
    std::shared_ptr<ImageSessionState> state;
};

val load_js(val bytes) {
    const std::vector<std::uint8_t> data =
        bytes_from_js(bytes, "ImageModel.load", static_cast<std::int64_t>(limits::max_file_bytes));
    auto model = std::make_shared<const Model>(Model::load(data));
    if (model->config().encoder != models::EncoderKind::conv)
        throw InputError(ErrorCode::bad_argument,
                         "ImageModel.load: this checkpoint's encoder is " +
                             std::string(models::name(model->config().encoder)) +
                             "; the image module reads models with a conv encoder (task scenes)",
                         {{"name", std::string("encoder")}});
    return val(ImageModelHandle{std::move(model)});
}

val grid_to_js(const models::ModelConfig &c) {
    val g = val::object();
    g.set("rows", c.image_size / 4);
    g.set("cols", c.image_size / 4);
    g.set("cellSize", 4);
    g.set("imageSize", c.image_size);
    return g;
}

val info_js(const std::shared_ptr<const Model> &model) {
    const Model &m = *model;
    const auto &c = m.config();
    val out = val::object();
    out.set("task", c.task);
    out.set("score", std::string(attention::name(c.score)));
    out.set("style", std::string(models::name(c.style)));
    out.set("encoder", std::string(models::name(c.encoder)));
    out.set("grid", grid_to_js(c));
    val dims = val::object();
    dims.set("imageSize", c.image_size);
    dims.set("convChannels", c.conv_channels);
    dims.set("features", c.encoder_hidden);
    dims.set("encoderState", c.encoder_state());
    dims.set("cells", c.max_source_len);
    dims.set("embedding", c.embedding);
    dims.set("decoderHidden", c.decoder_hidden);
    dims.set("attentionDim", c.attention_dim);
    dims.set("maxTargetLen", c.max_target_len);
    out.set("dims", dims);
    out.set("tgtVocab", vocab_to_js(m.target_vocab()));
    const auto &training = m.training();
    out.set("heldoutExactMatch", training_number(training, "heldout_exact_match"));
    out.set("attentionHits", training_number(training, "attention_hits"));
    out.set("training", json_to_js(training));
    return out;
}

constexpr std::int64_t kMaxTopK = 1 << 20;

std::optional<val> option(const val &options, const char *name) {
    if (!options.hasOwnProperty(name) || options[name].isUndefined()) return std::nullopt;
    return options[name];
}

// caption(pixels, width, height, channels?, options?)
val caption_js(const std::shared_ptr<const Model> &model, val pixels, val width, val height, val channels,
               val options_js) {
    const val options = options_js.isUndefined() ? val::object() : options_js;
    if (options.typeOf().as<std::string>() != "object" || options.isNull())
        bad_argument("options", ": expected an object, got " + describe(options));
    for (const auto &key : emscripten::vecFromJSArray<std::string>(val::global("Object").call<val>("keys", options)))
        if (key != "topK" && key != "maxSteps" && key != "temperature")
            bad_argument("options." + key, " is not an option of caption (topK, maxSteps, temperature)");
    decode::SessionOptions o;
    o.start_id = io::Vocabulary::bos;
    o.end_id = io::Vocabulary::eos;
    const int vocab = model->target_vocab().size();
    o.top_k = std::min(5, vocab);
    if (const auto v = option(options, "topK")) o.top_k = static_cast<int>(whole_number(*v, "options.topK", 1, vocab));
    if (const auto v = option(options, "maxSteps"))
        o.max_steps = static_cast<int>(whole_number(*v, "options.maxSteps", 0, limits::max_decode_steps));
    if (const auto v = option(options, "temperature")) o.attention.temperature = to_temperature(*v);
    auto s = std::make_shared<ImageSessionState>();
    s->model = model;
    s->pixels = model_image(pixels, width, height, channels);
    s->target_tokens = vocab_to_js(model->target_vocab());
    s->session = std::make_unique<decode::DecodeSession>(model->network(), model->network().encode_image(s->pixels), o);
    return val(ImageSessionHandle{std::move(s)});
}

// encode(pixels, width, height, channels?): the encoder states alone (L × dh) and the grid.
val encode_js(const std::shared_ptr<const Model> &model, val pixels, val width, val height, val channels) {
    const models::EncoderOutput out = model->network().encode_image(model_image(pixels, width, height, channels));
    val result = val::object();
    result.set("states", to_js(out.states));
    result.set("grid", grid_to_js(model->config()));
    return result;
}

// ---- ImageSession ----

val output_tokens_js(ImageSessionState &s) {
    std::vector<std::string> out;
    for (int id : s.session->output_ids()) out.push_back(s.model->target_vocab().token(id));
    return strings_to_js(out);
}
val output_text_js(ImageSessionState &s) { return val(s.model->target_vocab().join(s.session->output_ids())); }
val encoder_states_js(ImageSessionState &s) { return to_js(s.session->encoded().states); }
val grid_js(ImageSessionState &s) { return grid_to_js(s.model->config()); }
val pixels_js(ImageSessionState &s) { return bytes_to_js(s.pixels); }

// ---- entry points: every body inside guarded() ----

val scene(val what, val texture_seed) { return guarded(scene_js, what, texture_seed); }
val toModelImage(val pixels, val width, val height, val channels) {
    return guarded(to_model_image_js, pixels, width, height, channels);
}
val limits() {
    return guarded([] { return limits_js(); });
}
val ImageModel_load(val bytes) { return guarded(load_js, bytes); }
val ImageModel_info(ImageModelHandle &h) {
    return guarded([&h] {
        const std::shared_ptr<const Model> model = h.model;
        return info_js(model);
    });
}
val ImageModel_caption(ImageModelHandle &h, val pixels, val width, val height, val channels, val options) {
    return guarded(
        [&h](val p, val w, val hh, val c, val o) {
            const std::shared_ptr<const Model> model = h.model;
            return caption_js(model, p, w, hh, c, o);
        },
        pixels, width, height, channels, options);
}
val ImageModel_encode(ImageModelHandle &h, val pixels, val width, val height, val channels) {
    return guarded(
        [&h](val p, val w, val hh, val c) {
            const std::shared_ptr<const Model> model = h.model;
            return encode_js(model, p, w, hh, c);
        },
        pixels, width, height, channels);
}

template <val (*F)(ImageSessionState &)> val session_call(ImageSessionHandle &h) {
    return guarded([&h] {
        const std::shared_ptr<ImageSessionState> state = h.state;
        return F(*state);
    });
}
template <val (*F)(ImageSessionState &, val)> val session_call_arg(ImageSessionHandle &h, val arg) {
    return guarded(
        [&h](val a) {
            const std::shared_ptr<ImageSessionState> state = h.state;
            return F(*state, a);
        },
        arg);
}

} // namespace
} // namespace apg::wasm

EMSCRIPTEN_BINDINGS(apg_imaging) {
    using namespace apg::wasm;
    emscripten::function("scene", &scene);
    emscripten::function("toModelImage", &toModelImage);
    emscripten::function("limits", &limits);
    emscripten::class_<ImageModelHandle>("ImageModel")
        .class_function("load", &ImageModel_load)
        .function("info", &ImageModel_info)
        .function("caption", &ImageModel_caption)
        .function("encode", &ImageModel_encode);
    emscripten::class_<ImageSessionHandle>("ImageSession")
        .function("step", &session_call<session_methods::step_js<ImageSessionState>>)
        .function("force", &session_call_arg<session_methods::force_js<ImageSessionState>>)
        .function("back", &session_call<session_methods::back_js<ImageSessionState>>)
        .function("reset", &session_call<session_methods::reset_js<ImageSessionState>>)
        .function("run", &session_call<session_methods::run_js<ImageSessionState>>)
        .function("done", &session_call<session_methods::done_js<ImageSessionState>>)
        .function("length", &session_call<session_methods::length_js<ImageSessionState>>)
        .function("record", &session_call_arg<session_methods::record_js<ImageSessionState>>)
        .function("trace", &session_call<session_methods::trace_js<ImageSessionState>>)
        .function("outputTokens", &session_call<output_tokens_js>)
        .function("outputText", &session_call<output_text_js>)
        .function("encoderStates", &session_call<encoder_states_js>)
        .function("grid", &session_call<grid_js>)
        .function("pixels", &session_call<pixels_js>);
    guard_entry("scene", 1); // textureSeed may be left out
    guard_entry("toModelImage", 1);
    guard_entry("limits");
    guard_static("ImageModel", "load");
    guard_method("ImageModel", "info");
    guard_method("ImageModel", "caption", 2); // channels and options may be left out
    guard_method("ImageModel", "encode", 1);
    for (const char *m : {"step", "force", "back", "reset", "run", "done", "length", "record", "trace", "outputTokens",
                          "outputText", "encoderStates", "grid", "pixels"})
        guard_method("ImageSession", m);
}
