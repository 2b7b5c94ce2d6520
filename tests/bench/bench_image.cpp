// The image model, the library alone (no JS): one 32 x 32 scene through the conv encoder of the
// shipped additive scenes model (budget 2 ms in wasm) and one decoding step over its 64 cells
// (budget 50 µs). bench_image.mjs measures the same through the image module's JS API. The
// encoder's products run through im2col and nn::matmul (the core kernels in wasm, so wasm and
// wasm-scalar compare SIMD with the scalar reference).
#include "bench.hpp"
#include "decode/session.hpp"
#include "io/model.hpp"
#include "tasks/scenes.hpp"

#include <fstream>
#include <iterator>
#include <vector>

int main(int argc, char **argv) {
    const std::string impl = argc > 1 ? argv[1] : "native";
    std::ifstream file("web/models/scenes-additive-bahdanau.safetensors", std::ios::binary);
    if (!file) {
        std::fprintf(stderr, "bench_image: run from the repository root with the shipped models\n");
        return 1;
    }
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    const auto model = apg::io::Model::load(bytes);
    const auto &c = model.config();
    namespace sc = apg::tasks::scenes;
    const auto pixels = sc::render(sc::parse_description("small red circle at 10,12; large blue square at 24,20"));
    // Multiply-adds of the three 3 x 3 convolutions, two flops each.
    const double S = c.image_size, C = c.conv_channels, F = c.encoder_hidden;
    const double flops = 2 * (S * S * 27 * C + (S / 2) * (S / 2) * 9 * C * C + (S / 4) * (S / 4) * 9 * C * F);
    const std::string section = "image model, scenes additive bahdanau (library only)";
    const double encode_ns = apg::bench::time_ns([&] { (void)model.network().encode_image(pixels); });
    apg::bench::emit(section, "encode one 32x32 scene", impl, encode_ns, flops);
    apg::decode::DecodeSession session(model.network(), model.network().encode_image(pixels));
    const double step_ns = apg::bench::time_ns([&] {
        if (session.done()) session.reset();
        session.step();
    });
    apg::bench::emit(section, "one decoding step (64 cells)", impl, step_ns, 0);
    return 0;
}
