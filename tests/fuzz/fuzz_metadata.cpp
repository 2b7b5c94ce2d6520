// libFuzzer target: a metadata JSON text → parse_json (size, depth and duplicate-key limits) →
// ModelConfig::from_json and Vocabulary::from_json. For every config that passes, checks that
// its tensor shapes stay within the bounds validate() promises and, for small ones, that
// tensor_shapes() names exactly the tensors an allocated model has (a differential check of the
// loader's pre-allocation test against models::tensors()).
#include "core/error.hpp"
#include "io/checkpoint.hpp"
#include "io/vocab.hpp"
#include "models/seq2seq.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

[[noreturn]] void finding(const char *what, const std::string &detail) {
    std::fprintf(stderr, "fuzz_metadata: %s: %s\n", what, detail.c_str());
    std::abort();
}

void check_config(const apg::models::ModelConfig &config) {
    std::int64_t total = 0;
    for (const auto &t : apg::models::tensor_shapes(config)) {
        std::int64_t n = 1;
        for (auto d : t.shape) {
            if (d <= 0) finding("non-positive dim", t.name);
            n *= d;
        }
        if (n >= (std::int64_t{1} << 31)) finding("tensor too large for its bounds", t.name);
        total += n;
    }
    if (total > 200000) return; // allocate only small models
    apg::models::Parameters params = apg::models::init_parameters(config, 1);
    std::vector<apg::models::TensorShape> made;
    for (const auto &t : apg::models::tensors(params, config)) made.push_back({t.name, t.shape});
    if (made != apg::models::tensor_shapes(config))
        finding("tensor_shapes differs from tensors()", config.to_json().dump());
    if (apg::models::ModelConfig::from_json(config.to_json()).to_json() != config.to_json())
        finding("config round trip", config.to_json().dump());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    nlohmann::json j;
    try {
        j = apg::io::parse_json(text, "config");
    } catch (const apg::FileError &) {
        return 0;
    } catch (const std::exception &e) {
        finding("parse_json threw an uncoded error", e.what());
    }
    try {
        check_config(apg::models::ModelConfig::from_json(j));
    } catch (const apg::InputError &) {
    } catch (const std::exception &e) {
        finding("from_json threw an uncoded error", e.what());
    }
    try {
        const apg::io::Vocabulary vocab = apg::io::Vocabulary::from_json(j);
        if (apg::io::Vocabulary::from_json(vocab.to_json()) != vocab) finding("vocabulary round trip", j.dump());
    } catch (const apg::FileError &) {
    } catch (const std::exception &e) {
        finding("Vocabulary::from_json threw an uncoded error", e.what());
    }
    return 0;
}
