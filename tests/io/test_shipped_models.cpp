// Every checkpoint in web/models/ loads, fits in 1 MB, is listed in web/models/README.md, and
// decodes a fixed held-out sample about as well as the README says.
#include "io/model.hpp"
#include "models/transformer_decoder.hpp"
#include "support/sanitized.hpp"
#include "support/shipped_models.hpp"
#include "train/text_task.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <string>

using namespace apg;

namespace {

using test::models_dir;
using test::read_bytes;

// file name → held-out exact match in percent, from the README's table rows.
std::map<std::string, double> readme_accuracies() {
    std::ifstream in(models_dir / "README.md");
    REQUIRE_MESSAGE(in, "web/models/README.md is missing");
    std::map<std::string, double> out;
    const std::regex row(R"(^\|\s*`?([A-Za-z0-9_.-]+\.safetensors)`?\s*\|.*?\|\s*([0-9]+(?:\.[0-9]+)?)\s*%)");
    std::string line;
    while (std::getline(in, line)) {
        std::smatch m;
        if (std::regex_search(line, m, row)) out[m[1]] = std::stod(m[2]);
    }
    return out;
}

} // namespace

TEST_CASE("every shipped checkpoint is listed in the README and every listed one exists") {
    const auto listed = readme_accuracies();
    std::set<std::string> files;
    for (const auto &entry : std::filesystem::directory_iterator(models_dir))
        if (entry.path().extension() == ".safetensors") files.insert(entry.path().filename().string());
    CHECK(files.size() >= 30); // 3 tasks × 6 scores Bahdanau + 2 tasks × 5 scores Luong + 2 transformer
    for (const auto &f : files) CHECK_MESSAGE(listed.count(f), f << " is not in web/models/README.md");
    for (const auto &entry : listed) {
        const std::string f = entry.first;
        CHECK_MESSAGE(files.count(f), f << " is listed but missing");
    }
}

TEST_CASE("every shipped checkpoint decodes a fixed held-out sample about as well as its README number") {
    // The README gives exact match over the whole held-out split; here the first 100 held-out
    // pairs are decoded. Their rate differs from the whole split's by sampling alone, with a
    // standard deviation of √(p(1−p)/100); allowing 3 of those plus one pair keeps this test
    // from flaking while still catching a broken model (which falls to ~0%). Under the
    // sanitizers the first 30 (tests/support/sanitized.hpp).
    const std::size_t sample = test::sanitized ? 30 : 100;
    models::register_transformer_decoder(); // the Transformer models
    std::map<std::string, tasks::TaskData> tasks;
    for (const auto &entry : readme_accuracies()) {
        // (named copies: clang 14 cannot capture structured bindings in doctest's INFO lambdas)
        const std::string file = entry.first;
        const double percent = entry.second;
        if (file.rfind("scenes-", 0) == 0) continue; // images: tests/train/test_shipped_scenes.cpp
        if (file.rfind("speech-", 0) == 0) continue; // sound: tests/train/test_shipped_speech.cpp
        CAPTURE(file);
        const auto path = models_dir / file;
        REQUIRE(std::filesystem::exists(path));
        CHECK(std::filesystem::file_size(path) <= 1024 * 1024);
        const io::Model model = io::Model::load(read_bytes(path));
        const auto seed = model.training().value("data_seed", std::uint64_t{1});
        const std::string key = model.config().task + "/" + std::to_string(seed);
        if (!tasks.count(key)) tasks.emplace(key, tasks::make_task(model.config().task, seed));
        const auto &data = tasks.at(key);
        std::vector<tasks::Example> first(data.heldout.begin(),
                                          data.heldout.begin() + static_cast<std::ptrdiff_t>(sample));
        const auto pairs = train::encode_examples(first, model.source_vocab(), model.target_vocab());
        const double measured =
            train::exact_match(model.network(), pairs, {io::Vocabulary::pad, io::Vocabulary::bos, io::Vocabulary::eos});
        const double p = percent / 100.0;
        const double tolerance = test::sample_tolerance(p, sample);
        INFO("README " << percent << "%, sample " << 100 * measured << "%");
        CHECK(measured >= p - tolerance);
        CHECK(std::abs(model.training().value("heldout_exact_match", -1.0) - p) < 0.0001);
    }
}

TEST_CASE("native and wasm builds give the same output tokens and attention weights for every shipped model") {
    // tests/io/shipped_golden.json holds, for the first 2 held-out inputs of every shipped
    // model, the greedy output tokens and the attention weights of the native build (written by
    // running this test natively with APG_WRITE_GOLDEN=1). Both builds compare against it: the
    // tokens must be equal and every weight within 1e-5 (the builds' tanh / exp kernels differ
    // in the last bits, which moves a weight by ~1e-7; a real divergence moves it by far more).
    const std::filesystem::path golden_path = std::filesystem::path(APG_SOURCE_DIR) / "tests/io/shipped_golden.json";
    const bool write = std::getenv("APG_WRITE_GOLDEN") != nullptr;
    models::register_transformer_decoder(); // the Transformer models
    nlohmann::json golden = nlohmann::json::object();
    if (!write) {
        std::ifstream in(golden_path);
        REQUIRE_MESSAGE(in, "tests/io/shipped_golden.json is missing");
        golden = nlohmann::json::parse(in);
    }
    std::map<std::string, tasks::TaskData> tasks;
    for (const auto &entry : readme_accuracies()) {
        // (named copies: clang 14 cannot capture structured bindings in doctest's INFO lambdas)
        const std::string file = entry.first;
        if (file.rfind("scenes-", 0) == 0) continue; // images: tests/train/test_shipped_scenes.cpp
        if (file.rfind("speech-", 0) == 0) continue; // sound: tests/train/test_shipped_speech.cpp
        CAPTURE(file);
        const io::Model model = io::Model::load(read_bytes(models_dir / file));
        const std::string &task = model.config().task;
        if (write && !tasks.count(task))
            tasks.emplace(task, tasks::make_task(task, model.training().value("data_seed", std::uint64_t{1})));
        if (!write) REQUIRE(golden.contains(file));
        for (int k = 0; k < 2; ++k) {
            // The inputs come from the golden file, so this compares the models alone, not the
            // task generators of the two builds.
            const std::string text = write ? tasks.at(task).heldout[static_cast<std::size_t>(k)].source_text
                                           : golden[file][static_cast<std::size_t>(k)]["input"].get<std::string>();
            CAPTURE(text);
            const io::Translation t = model.translate(text);
            std::vector<float> weights(t.weights.data(), t.weights.data() + t.weights.size());
            // A transformer encoder's self-attention weights too, layer by layer and head by head.
            std::vector<float> self_weights;
            const auto encoded = model.network().encode(model.encode_source(text));
            if (encoded.self_attention)
                for (const auto &layer : encoded.self_attention->layers)
                    for (const auto &head : layer.attn.heads)
                        self_weights.insert(self_weights.end(), head.weights.data(),
                                            head.weights.data() + head.weights.size());
            // A transformer decoder's cross-attention weights, step by step, layer by layer, head by head.
            std::vector<float> cross_weights;
            for (const auto &step : t.steps)
                if (step.transformer)
                    cross_weights.insert(cross_weights.end(), step.transformer->cross_weights.begin(),
                                         step.transformer->cross_weights.end());
            if (write) {
                nlohmann::json item = {{"input", text}, {"output", t.output_tokens}, {"weights", weights}};
                if (!self_weights.empty()) item["self_attention_weights"] = self_weights;
                if (!cross_weights.empty()) item["cross_weights"] = cross_weights;
                golden[file].push_back(item);
                continue;
            }
            const auto &g = golden[file][static_cast<std::size_t>(k)];
            CHECK(g["output"].get<std::vector<std::string>>() == t.output_tokens);
            const auto want = g["weights"].get<std::vector<float>>();
            REQUIRE(want.size() == weights.size());
            float worst = 0;
            for (std::size_t i = 0; i < want.size(); ++i) worst = std::max(worst, std::abs(want[i] - weights[i]));
            CHECK(worst <= 1e-5f);
            const auto want_self = g.value("self_attention_weights", std::vector<float>{});
            REQUIRE(want_self.size() == self_weights.size());
            worst = 0;
            for (std::size_t i = 0; i < want_self.size(); ++i)
                worst = std::max(worst, std::abs(want_self[i] - self_weights[i]));
            CHECK(worst <= 1e-5f);
            const auto want_cross = g.value("cross_weights", std::vector<float>{});
            REQUIRE(want_cross.size() == cross_weights.size());
            worst = 0;
            for (std::size_t i = 0; i < want_cross.size(); ++i)
                worst = std::max(worst, std::abs(want_cross[i] - cross_weights[i]));
            CHECK(worst <= 1e-5f);
        }
    }
    if (write) std::ofstream(golden_path) << golden.dump() << "\n";
}
