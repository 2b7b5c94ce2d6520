// Decoding speed of the shipped dates additive model, the library alone (no JS): one step (with
// its flops, so the report gives its share of the multiply-add peak) and the whole greedy decode
// of a 20-character date. bench_decode.mjs measures the same through
// the JS API, so the two tables show what the bindings add.
#include "bench.hpp"
#include "decode/session.hpp"
#include "io/model.hpp"
#include "model_flops.hpp"

#include <fstream>
#include <iterator>
#include <vector>

int main(int argc, char **argv) {
    const std::string impl = argc > 1 ? argv[1] : "native";
    std::ifstream file("web/models/dates-additive-bahdanau.safetensors", std::ios::binary);
    if (!file) {
        std::fprintf(stderr, "bench_decode: run from the repository root with the shipped models\n");
        return 1;
    }
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    const auto model = apg::io::Model::load(bytes);
    const std::string date = "sunday, 29 nov. 2026"; // 20 characters
    const auto source = model.encode_source(date);
    apg::decode::DecodeSession session(model.network(), source);
    const std::string section = "decode, dates additive bahdanau (library only)";
    double step_ns = apg::bench::time_ns([&] {
        if (session.done()) session.reset();
        session.step();
    });
    // flops of a step: its multiply-adds (model_flops.hpp), so the report shows it as % of peak
    const double step_flops = 2 * apg::bench::decoder_step_macs(model.config(), static_cast<double>(source.size()));
    apg::bench::emit(section, "one step", impl, step_ns, step_flops);
    double decode_ns = apg::bench::time_ns([&] {
        apg::decode::DecodeSession s(model.network(), model.encode_source(date));
        s.run();
    });
    apg::bench::emit(section, "encode + greedy decode of a 20-char date", impl, decode_ns, 0);
    return 0;
}
