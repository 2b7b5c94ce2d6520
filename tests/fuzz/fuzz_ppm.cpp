// libFuzzer target: PPM bytes → io::read_ppm → scenes::to_model_image → the shipped scenes model's
// conv encoder → a captioning session run to its end, as `apg decode SCENES_FILE image.ppm` does.
// Every rejection must be a coded error; a crash, a sanitizer report, an uncoded exception, a
// picture of the wrong size, or a step whose weights over the grid do not sum to 1 is a finding.
#include "core/error.hpp"
#include "decode/session.hpp"
#include "io/model.hpp"
#include "io/ppm.hpp"
#include "tasks/scenes.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace {

namespace sc = apg::tasks::scenes;

std::unique_ptr<apg::io::Model> model;

[[noreturn]] void finding(const char *what, const std::string &detail) {
    std::fprintf(stderr, "fuzz_ppm: %s: %s\n", what, detail.c_str());
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    const std::string path = std::string(APG_SOURCE_DIR) + "/web/models/scenes-additive-bahdanau.safetensors";
    std::ifstream in(path, std::ios::binary);
    const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    model = std::make_unique<apg::io::Model>(apg::io::Model::load(bytes));
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    try {
        const apg::io::RgbImage picture = apg::io::read_ppm({data, size}, sc::max_upload_side);
        if (picture.width < 1 || picture.height < 1 || picture.width > sc::max_upload_side ||
            picture.height > sc::max_upload_side ||
            picture.pixels.size() != static_cast<std::size_t>(picture.width) * picture.height * 3)
            finding("picture", std::to_string(picture.width) + " x " + std::to_string(picture.height) + ", " +
                                   std::to_string(picture.pixels.size()) + " bytes");
        const std::vector<std::uint8_t> pixels = sc::to_model_image(picture.pixels, picture.width, picture.height, 3);
        if (pixels.size() != static_cast<std::size_t>(sc::image_bytes)) finding("model image", "wrong size");
        apg::decode::SessionOptions options;
        apg::decode::DecodeSession session(model->network(), model->network().encode_image(pixels), options);
        session.run();
        for (const auto &step : session.steps()) {
            const auto &w = step.step.attention.weights;
            if (w.size() != model->config().max_source_len) finding("weights", "not one per grid cell");
            if (!(std::abs(w.cast<double>().sum() - 1) < 1e-3)) finding("weights", "do not sum to 1");
        }
    } catch (const apg::Error &) {
        // a coded rejection: what a hostile file should get
    } catch (const std::exception &e) {
        finding("uncoded exception", e.what());
    }
    return 0;
}
