#include "audio_convert.hpp"

#include "../lazy_bindings.hpp"

#include "core/error.hpp"
#include "core/limits.hpp"
#include "tasks/speech.hpp"

#include <cmath>
#include <cstdint>

namespace apg::wasm::audio {

namespace sp = tasks::speech;

namespace {
constexpr std::int64_t kMaxFrameValues = std::int64_t{limits::max_speech_frames} * sp::bands;
} // namespace

val floats_to_js(const std::vector<float> &values) {
    return to_js(values.data(), static_cast<Eigen::Index>(values.size()));
}

val frames_to_js(const std::vector<float> &features, int frames) {
    val out = val::object();
    out.set("data", floats_to_js(features));
    out.set("rows", frames);
    out.set("cols", sp::bands);
    return out;
}

std::vector<float> frames_from_js(const val &v, const std::string &field) {
    val data = v;
    if (plain_object(v)) {
        if (!v.hasOwnProperty("data"))
            bad_argument(field, ": expected {data, rows, cols} or a Float32Array of frames, got " + describe(v));
        const std::int64_t rows = whole_number(v["rows"], field + ".rows", 1, std::int64_t{1} << 40);
        whole_number(v["cols"], field + ".cols", sp::bands, sp::bands);
        if (rows > limits::max_speech_frames)
            throw InputError(ErrorCode::too_long,
                             field + ": " + std::to_string(rows) + " frames, at most " +
                                 std::to_string(limits::max_speech_frames) + " are accepted",
                             {{"name", std::string("frames")},
                              {"length", rows},
                              {"limit", std::int64_t{limits::max_speech_frames}}});
        data = v["data"];
        if (!is_array_like(data)) bad_argument(field + ".data", ": expected numbers, got " + describe(data));
        const double length = data["length"].as<double>();
        if (length != static_cast<double>(rows * sp::bands))
            bad_argument(field, ".data has " + number_text(length) + " numbers, rows × cols = " + std::to_string(rows) +
                                    " × " + std::to_string(sp::bands));
    } else if (!is_array_like(v)) {
        bad_argument(field, ": expected {data, rows, cols} or a Float32Array of frames, got " + describe(v));
    }
    const double length = data["length"].as<double>();
    if (length > static_cast<double>(kMaxFrameValues))
        throw InputError(ErrorCode::too_long,
                         field + ": " + number_text(std::floor(length / sp::bands)) + " frames, at most " +
                             std::to_string(limits::max_speech_frames) + " are accepted",
                         {{"name", std::string("frames")},
                          {"length", static_cast<std::int64_t>(length / sp::bands)},
                          {"limit", std::int64_t{limits::max_speech_frames}}});
    if (length < sp::bands || std::fmod(length, sp::bands) != 0)
        bad_argument(field, ": " + number_text(length) + " numbers is not a whole number of frames of " +
                                std::to_string(sp::bands) + " bands");
    const Vec values = to_vec(data, field);
    return {values.data(), values.data() + values.size()};
}

float finite_number(const val &v, const std::string &field) {
    if (!v.isNumber()) bad_argument(field, ": expected a number, got " + describe(v));
    const double x = v.as<double>();
    if (!std::isfinite(x) || std::abs(x) > 3.4e38)
        bad_argument(field, ": expected a finite number, got " + number_text(x));
    return static_cast<float>(x);
}

} // namespace apg::wasm::audio
