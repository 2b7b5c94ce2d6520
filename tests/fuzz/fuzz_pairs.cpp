// libFuzzer target: own pairs (source<TAB>target text) → train::Run → a few steps → evaluate() →
// save() → io::Model::load, under a configuration taken from a 6-byte header (the seeds of
// tests/fuzz/make_seeds.sh follow it):
//   byte 0  score: dot, scaled_dot, general, additive, cosine, scaled_cosine, location, none (mod 8)
//   byte 1  bit 0 style luong, bit 1 transformer encoder, bits 2-3 tokenization (auto, char, word),
//           bit 4 activation gelu (refused for the GRU encoder)
//   byte 2  embed 1-16 (the transformer's 4-16, a multiple of its 4 heads)
//   byte 3  hidden 1-16;  byte 4  batch 1-8;  byte 5  steps 1-3
// then the pairs. Every rejection must be a coded error; a crash, a sanitizer report, an uncoded
// exception, a probe alignment whose rows do not sum to 1 (or is not empty without attention), or
// a saved model that loads as another is a finding.
#include "core/error.hpp"
#include "io/model.hpp"
#include "train/run.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

namespace {

[[noreturn]] void finding(const char *what, const std::string &detail) {
    std::fprintf(stderr, "fuzz_pairs: %s: %s\n", what, detail.c_str());
    std::abort();
}

constexpr apg::attention::ScoreKind kinds[] = {
    apg::attention::ScoreKind::dot,      apg::attention::ScoreKind::scaled_dot,
    apg::attention::ScoreKind::general,  apg::attention::ScoreKind::additive,
    apg::attention::ScoreKind::cosine,   apg::attention::ScoreKind::scaled_cosine,
    apg::attention::ScoreKind::location, apg::attention::ScoreKind::none};

apg::train::RunConfig config_of(const std::uint8_t *h, std::string_view pairs) {
    apg::train::RunConfig c;
    c.pairs = std::string(pairs);
    c.score = kinds[h[0] % 8];
    c.style = h[1] & 1 ? apg::models::AttentionStyle::luong : apg::models::AttentionStyle::bahdanau;
    const bool transformer = (h[1] & 2) != 0;
    c.encoder = transformer ? apg::models::EncoderKind::transformer : apg::models::EncoderKind::gru;
    // unset: the library picks
    const std::optional<apg::io::Tokenizer> ways[] = {std::nullopt, apg::io::Tokenizer::characters,
                                                      apg::io::Tokenizer::words, std::nullopt};
    c.tokenization = ways[(h[1] >> 2) & 3];
    if (h[1] & 16) c.activation = apg::nn::Activation::gelu;
    c.embed = transformer ? 4 * (1 + h[2] % 4) : 1 + h[2] % 16;
    c.hidden = 1 + h[3] % 16;
    c.batch = 1 + h[4] % 8;
    c.steps = 1 + h[5] % 3;
    c.eval_examples = 20; // bounded work per input
    return c;
}

void check_probe(const apg::train::Run &run, const apg::train::Evaluation &e) {
    const auto &w = e.probe.weights;
    if (run.model_config().score == apg::attention::ScoreKind::none) {
        if (w.size() != 0) finding("probe", "a run without attention gave an alignment");
        return;
    }
    if (w.rows() != static_cast<Eigen::Index>(e.probe.output.size()) ||
        w.cols() != static_cast<Eigen::Index>(e.probe.source.size()))
        finding("probe", "the alignment is not output steps x source tokens");
    for (Eigen::Index i = 0; i < w.rows(); ++i) {
        const double sum = w.row(i).cast<double>().sum();
        if (!(std::abs(sum - 1) < 1e-3))
            finding("probe", "row " + std::to_string(i) + " sums to " + std::to_string(sum));
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size < 6) return 0;
    const std::string_view pairs(reinterpret_cast<const char *>(data + 6), size - 6);
    try {
        apg::train::Run run(config_of(data, pairs));
        run.step(3);
        check_probe(run, run.evaluate());
        const std::vector<std::uint8_t> saved = run.save();
        const apg::io::Model loaded = apg::io::Model::load(saved);
        if (loaded.config().to_json() != run.model_config().to_json())
            finding("round trip", "the saved model loads with another config");
        if (loaded.save() != saved) finding("round trip", "save(load(save(run))) differs from save(run)");
    } catch (const apg::Error &) {
        // a coded rejection: what hostile pairs should get
    } catch (const std::exception &e) {
        finding("uncoded exception", e.what());
    }
    return 0;
}
