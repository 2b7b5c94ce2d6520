// Every checkpoint in web/models/ decodes one fixed input of its task exactly as it did when
// tests/io/shipped_decode_golden.json was written: the same output tokens, every attention weight
// of every greedy step (and a transformer encoder's self-attention weights) within 5e-6, and each
// step's context vector: its first 8 entries within 5e-6 and its norm, which every entry moves,
// within 1e-5 (≤ 128 entries, each allowed ~1e-7 of rounding; the file keeps a digest of the
// contexts rather than all ~58,000 of them). The inputs: a text task's probe sentence, a scene description (rendered
// by the scenes task), a phrase spoken with a fixed seed (the speech task's synthesizer), so the
// renderer and the synthesizer are held to their numbers too.
//
// The file is the native build's output. Write it again, only when a change is meant to change
// the numbers, with: APG_WRITE_GOLDEN=1 build/native/apg_tests -tc="*decode their fixed input*"
// Tolerance: the native build reproduces itself bit for bit; the wasm build's exp and tanh
// differ from SSE's in the last bits, which moves a weight or a context entry by ~1e-7 and a
// token never. The packed GEMM (core/kernels_gemm.hpp) sums a product's k terms in another order
// than the Eigen products the file was written with: through the conv and audio encoders' stacks
// that moves a weight by up to ~1.3e-6 and a context entry (of size ~10, where one float step is
// ~1e-6) by up to ~2.4e-6. 5e-6 passes those and fails any change of the computation (a dropped
// term or a changed parameter moves these numbers by 1e-3 or more).
#include "decode/session.hpp"
#include "io/model.hpp"
#include "models/transformer_decoder.hpp"
#include "support/sanitized.hpp"
#include "support/shipped_models.hpp"
#include "tasks/scenes.hpp"
#include "tasks/speech.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace apg;

namespace {

using test::models_dir;
using test::read_bytes;
const std::filesystem::path golden_path =
    std::filesystem::path(APG_SOURCE_DIR) / "tests" / "io" / "shipped_decode_golden.json";

constexpr float tolerance = 5e-6f, norm_tolerance = 1e-5f;
constexpr Eigen::Index context_entries = 8;

// The fixed input of each task; a text task's is what the page's Train view probes it with.
std::string fixed_input(const std::string &task) {
    if (task == "dates") return "29 november 2026";
    if (task == "zh") return "tom chased jerry in the kitchen yesterday";
    if (task == "reverse") return "abcdefj";
    if (task == "scenes") return "small red circle at 10,12; large blue square at 24,20";
    if (task == "speech") return "how much wood would a woodchuck chuck";
    FAIL("no fixed input for task " << task);
    return {};
}
constexpr std::uint64_t speech_seed = 7;

// Rounded to 1e-8, far below the tolerance, so the file stays small.
std::vector<double> rounded(const float *data, std::size_t n) {
    std::vector<double> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = std::round(static_cast<double>(data[i]) * 1e8) / 1e8;
    return out;
}

struct Decoded {
    std::vector<std::string> output;
    std::vector<float> weights, contexts, context_norms, self_weights;
};

Decoded decode_fixed(const io::Model &model, const std::string &input) {
    decode::SessionOptions options;
    options.start_id = io::Vocabulary::bos;
    options.end_id = io::Vocabulary::eos;
    const models::Seq2Seq &net = model.network();
    const auto session = [&]() {
        switch (model.config().encoder) {
        case models::EncoderKind::conv:
            return decode::DecodeSession(
                net, net.encode_image(tasks::scenes::render(tasks::scenes::parse_description(input))), options);
        case models::EncoderKind::audio:
            return decode::DecodeSession(net, net.encode_audio(tasks::speech::synthesize(input, speech_seed).features),
                                         options);
        default:
            return decode::DecodeSession(net, model.encode_source(input), options);
        }
    };
    decode::DecodeSession s = session();
    s.run();
    Decoded d;
    for (const int id : s.output_ids()) d.output.push_back(model.target_vocab().token(id));
    for (const auto &step : s.steps()) {
        const auto &a = step.step.attention;
        d.weights.insert(d.weights.end(), a.weights.data(), a.weights.data() + a.weights.size());
        const Eigen::Index head = std::min(context_entries, a.context.size());
        d.contexts.insert(d.contexts.end(), a.context.data(), a.context.data() + head);
        d.context_norms.push_back(a.context.norm());
    }
    if (const auto &cache = s.encoded().self_attention)
        for (const auto &layer : cache->layers)
            for (const auto &head : layer.attn.heads)
                d.self_weights.insert(d.self_weights.end(), head.weights.data(),
                                      head.weights.data() + head.weights.size());
    return d;
}

float largest_difference(const nlohmann::json &want, const std::vector<float> &got) {
    const auto w = want.get<std::vector<double>>();
    REQUIRE(w.size() == got.size());
    double worst = 0;
    for (std::size_t i = 0; i < w.size(); ++i) worst = std::max(worst, std::abs(w[i] - static_cast<double>(got[i])));
    return static_cast<float>(worst);
}

} // namespace

TEST_CASE("every shipped checkpoint decodes their fixed input to the golden tokens, weights and contexts") {
    const bool write = std::getenv("APG_WRITE_GOLDEN") != nullptr;
    models::register_transformer_decoder(); // the Transformer models
    nlohmann::json golden = nlohmann::json::object();
    if (!write) {
        std::ifstream in(golden_path);
        REQUIRE_MESSAGE(in, "tests/io/shipped_decode_golden.json is missing");
        golden = nlohmann::json::parse(in);
    }
    std::vector<std::string> files;
    for (const auto &entry : std::filesystem::directory_iterator(models_dir))
        if (entry.path().extension() == ".safetensors") files.push_back(entry.path().filename().string());
    std::sort(files.begin(), files.end());
    CHECK(files.size() == 48);
    if (!write) CHECK(golden.size() == files.size());
    for (const std::string &file : files) {
        CAPTURE(file);
        const io::Model model = io::Model::load(read_bytes(models_dir / file));
        const std::string input =
            write ? fixed_input(model.config().task) : golden.at(file).at("input").get<std::string>();
        CAPTURE(input);
        const Decoded d = decode_fixed(model, input);
        if (write) {
            nlohmann::json item = {{"input", input},
                                   {"output", d.output},
                                   {"weights", rounded(d.weights.data(), d.weights.size())},
                                   {"contexts", rounded(d.contexts.data(), d.contexts.size())},
                                   {"context_norms", rounded(d.context_norms.data(), d.context_norms.size())}};
            if (!d.self_weights.empty())
                item["self_attention_weights"] = rounded(d.self_weights.data(), d.self_weights.size());
            golden[file] = item;
            continue;
        }
        REQUIRE(golden.contains(file));
        const auto &g = golden[file];
        CHECK(g["output"].get<std::vector<std::string>>() == d.output);
        CHECK(largest_difference(g["weights"], d.weights) <= tolerance);
        CHECK(largest_difference(g["contexts"], d.contexts) <= tolerance);
        CHECK(largest_difference(g["context_norms"], d.context_norms) <= norm_tolerance);
        CHECK(largest_difference(g.value("self_attention_weights", nlohmann::json::array()), d.self_weights) <=
              tolerance);
    }
    if (write) std::ofstream(golden_path) << golden.dump() << "\n";
}
