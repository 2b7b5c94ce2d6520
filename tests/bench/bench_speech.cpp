// The speech model, the library alone (no JS): a 300-frame utterance synthesized and through the
// audio encoder of the shipped additive speech model (the wasm budget is 5 ms, measured by the
// audio module's own benchmark), the synthesis alone, and one decoding step over its encoder
// states. The encoder's GRU products run through nn::matmul (the core kernels in wasm, so wasm
// and wasm-scalar compare SIMD with the scalar reference).
#include "bench.hpp"
#include "decode/session.hpp"
#include "io/model.hpp"
#include "tasks/speech.hpp"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <vector>

int main(int argc, char **argv) {
    const std::string impl = argc > 1 ? argv[1] : "native";
    std::ifstream file("web/models/speech-additive-bahdanau.safetensors", std::ios::binary);
    if (!file) {
        std::fprintf(stderr, "bench_speech: run from the repository root with the shipped models\n");
        return 1;
    }
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    const auto model = apg::io::Model::load(bytes);
    namespace sp = apg::tasks::speech;
    // The whole woodchuck sentence at the rate that makes it closest to 300 frames.
    float rate = 1.0f;
    for (int milli = 700; milli <= 1000; milli += 5) {
        const float r = static_cast<float>(milli) / 1000.0f;
        if (std::abs(sp::synthesize(sp::woodchuck_sentence, 1, r).frames - 300) <
            std::abs(sp::synthesize(sp::woodchuck_sentence, 1, rate).frames - 300))
            rate = r;
    }
    const sp::Utterance u = sp::synthesize(sp::woodchuck_sentence, 1, rate);
    std::fprintf(stderr, "bench_speech: %d frames at rate %.3f\n", u.frames, rate);
    const auto &c = model.config();
    // Multiply-adds of the GRUs' input and hidden products per direction and layer, two flops each.
    const double H = c.encoder_hidden, T0 = u.frames, T1 = (u.frames + 1) / 2;
    const double flops = 2 * 2 * (T0 * 3 * H * (c.input_dim + H) + T1 * 3 * H * (4 * H + H));
    const std::string section = "speech model, speech additive bahdanau (library only)";
    const double synth_ns = apg::bench::time_ns([&] { (void)sp::synthesize(sp::woodchuck_sentence, 1, rate); });
    apg::bench::emit(section, "synthesize a 300-frame utterance", impl, synth_ns, 0);
    const double both_ns = apg::bench::time_ns([&] {
        const sp::Utterance v = sp::synthesize(sp::woodchuck_sentence, 1, rate);
        (void)model.network().encode_audio(v.features);
    });
    apg::bench::emit(section, "synthesize + encode a 300-frame utterance", impl, both_ns, flops);
    apg::decode::DecodeSession session(model.network(), model.network().encode_audio(u.features));
    const double step_ns = apg::bench::time_ns([&] {
        if (session.done()) session.reset();
        session.step();
    });
    apg::bench::emit(section, "one decoding step (150 encoder states)", impl, step_ns, 0);
    return 0;
}
