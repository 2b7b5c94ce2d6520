// The embind surface of the image module (`imaging`, loaded lazily by the Caption view; declared
// in wasm/image/imaging.d.ts): scenes from a description or a seed, any RGB(A) picture to the
// model's input, scene models loaded from .safetensors, and captioning sessions whose steps are
// the page module's step records (the decoder's table of decode/record_schema.hpp) over the L
// grid cells. Conversion only: the work is done by tasks::scenes, io::Model and
// decode::DecodeSession.
#include "../convert.hpp"
#include "../js_error.hpp"
#include "../lazy_bindings.hpp"
#include "../model_convert.hpp"
#include "../step_record.hpp"
#include "decode/session.hpp"
#include "io/model.hpp"
#include "tasks/scenes.hpp"

#include <emscripten/bind.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace apg::wasm {
namespace {

namespace sc = tasks::scenes;
using io::Model;

template <std::size_t N> val names_to_js(const std::array<std::string_view, N> &names) {
    return array_of(names, [](std::string_view n) { return val(std::string(n)); });
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
    return object_of({{"imageSize", val(sc::image_size)},
                      {"modelChannels", val(sc::image_channels)},
                      {"maxUploadSide", val(sc::max_upload_side)},
                      {"maxUploadBytes", val(static_cast<double>(kMaxUploadBytes))},
                      {"maxDescribedObjects", val(sc::max_described_objects)},
                      {"maxDescriptionChars", val(limits::max_input_chars)},
                      {"maxFileBytes", val(static_cast<double>(limits::max_file_bytes))},
                      {"maxWorkBytes", val(static_cast<double>(limits::max_work_bytes))},
                      {"maxHeapBytes", val(static_cast<double>(limits::max_heap_bytes))},
                      {"maxTemperature", val(limits::max_temperature)},
                      {"minTemperature", val(limits::min_temperature)},
                      {"shapes", names_to_js(sc::shape_names)},
                      {"colours", names_to_js(sc::colour_names)},
                      {"sizes", names_to_js(sc::size_names)}});
}

// ---- ImageModel ----

struct ImageSessionState : ModuleSession {
    std::vector<std::uint8_t> pixels; // what the model read (image_size² RGB)
};

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
    return val(Handle<const Model>{std::move(model)});
}

val grid_to_js(const models::ModelConfig &c) {
    return object_of({{"rows", val(c.image_size / 4)},
                      {"cols", val(c.image_size / 4)},
                      {"cellSize", val(4)},
                      {"imageSize", val(c.image_size)}});
}

val info_js(const std::shared_ptr<const Model> &model) {
    const Model &m = *model;
    const auto &c = m.config();
    val out = model_info(c);
    out.set("grid", grid_to_js(c));
    out.set("dims", object_of({{"imageSize", val(c.image_size)},
                               {"convChannels", val(c.conv_channels)},
                               {"features", val(c.encoder_hidden)},
                               {"encoderState", val(c.encoder_state())},
                               {"cells", val(c.max_source_len)},
                               {"embedding", val(c.embedding)},
                               {"decoderHidden", val(c.decoder_hidden)},
                               {"attentionDim", val(c.attention_dim)},
                               {"maxTargetLen", val(c.max_target_len)}}));
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
    return val(Handle<ImageSessionState>{std::move(s)});
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

} // namespace
} // namespace apg::wasm

EMSCRIPTEN_BINDINGS(apg_imaging) {
    using namespace apg::wasm;
    exported("scene", entry<scene_js>, 1); // textureSeed may be left out
    exported("toModelImage", entry<to_model_image_js>, 1);
    exported("limits", entry<limits_js>);
    ExportedClass<const Model>("ImageModel")
        .class_function("load", entry<load_js>)
        .method("info", method<info_js>)
        .method("caption", method<caption_js>, 2) // channels and options may be left out
        .method("encode", method<encode_js>, 1);
    with_session_methods(ExportedClass<ImageSessionState>("ImageSession"))
        .method("grid", method<grid_js>)
        .method("pixels", method<pixels_js>);
}
