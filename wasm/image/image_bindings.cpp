// The embind surface of the image module (`imaging`, loaded lazily by the Caption view; declared
// in wasm/image/imaging.d.ts): scenes from a description or a seed, any RGB(A) picture to the
// model's input, scene models loaded from .safetensors, and captioning sessions whose steps are
// the page module's step records (the decoder's table of decode/record_schema.hpp) over the L
// grid cells. Conversion only: the work is done by train::scenes, io::Model and
// decode::DecodeSession.
#include "../convert.hpp"
#include "../js_error.hpp"
#include "../lazy_bindings.hpp"
#include "../model_convert.hpp"
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

template <std::size_t N> val names_to_js(const std::array<std::string_view, N> &names) {
    val out = val::array();
    for (auto n : names) out.call<void>("push", std::string(n));
    return out;
}

val bytes_to_js(const std::vector<std::uint8_t> &bytes) {
    return val(emscripten::typed_memory_view(bytes.size(), bytes.data())).call<val>("slice");
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
        const std::string text = text_from_js(
            what, "scene", {limits::max_input_chars, "scene: the description", true, ErrorCode::limit_exceeded});
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
    out.set("maxWorkBytes", static_cast<double>(limits::max_work_bytes));
    out.set("maxHeapBytes", static_cast<double>(limits::max_heap_bytes));
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

struct ImageSessionState : ModuleSession {
    std::vector<std::uint8_t> pixels; // what the model read (image_size² RGB)
};

using ImageSessionHandle = SessionHandle<ImageSessionState>;

val load_js(val bytes) {
    auto model = load_model(bytes, "ImageModel.load", models::EncoderKind::conv,
                            "the image module reads models with a conv encoder (task scenes)");
    // Every picture reaches a model as scenes::to_model_image makes it: a model of another size
    // could caption none.
    if (model->config().image_size != sc::image_size)
        throw FileError(ErrorCode::bad_checkpoint,
                        "ImageModel.load: this checkpoint reads pictures of " +
                            std::to_string(model->config().image_size) + " x " +
                            std::to_string(model->config().image_size) + " pixels; the image module gives a model " +
                            std::to_string(sc::image_size) + " x " + std::to_string(sc::image_size),
                        {{"field", std::string("image_size")}, {"limit", std::int64_t{sc::image_size}}});
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
    val out = model_info(c);
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
    set_training(out, m, {{"attentionHits", "attention_hits"}});
    return out;
}

// caption(pixels, width, height, channels?, options?)
val caption_js(const std::shared_ptr<const Model> &model, val pixels, val width, val height, val channels,
               val options) {
    const decode::SessionOptions o = session_options(options, "caption", model->target_vocab().size());
    std::vector<std::uint8_t> image = model_image(pixels, width, height, channels);
    auto s = start_session<ImageSessionState>(model, model->network().encode_image(image), o);
    s->pixels = std::move(image);
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
    with_session_methods(emscripten::class_<ImageSessionHandle>("ImageSession"))
        .function("grid", &session_call<grid_js>)
        .function("pixels", &session_call<pixels_js>);
    guard_entry("scene", 1); // textureSeed may be left out
    guard_entry("toModelImage", 1);
    guard_entry("limits");
    guard_static("ImageModel", "load");
    guard_method("ImageModel", "info");
    guard_method("ImageModel", "caption", 2); // channels and options may be left out
    guard_method("ImageModel", "encode", 1);
    guard_session_methods("ImageSession", {"grid", "pixels"});
}
