// The shipped speech models (web/models/speech-*.safetensors): each is at most 1 MB, listed in
// web/models/README.md, and scores on all of its held-out utterances what the README says: the
// character error rate, the attention's monotonicity and the exact match (the native and wasm
// builds run this; under the sanitizers the first 40 utterances score about as well,
// tests/support/sanitized.hpp).
#include "io/model.hpp"
#include "support/sanitized.hpp"
#include "support/shipped_models.hpp"
#include "train/speech_task.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <string>

using namespace apg;

namespace {

using test::models_dir;

struct ListedSpeech {
    double cer = 0, monotonicity = 0, exact_match = 0; // percent
};

// | `speech-<score>-<style>.safetensors` | speech | audio | score | style | 0.10 % | 87.90 % | 99.50 % | … |
std::map<std::string, ListedSpeech> readme_speech() {
    std::ifstream in(models_dir / "README.md");
    REQUIRE_MESSAGE(in, "web/models/README.md is missing");
    std::map<std::string, ListedSpeech> out;
    const std::regex row(R"(^\|\s*`(speech-[A-Za-z0-9_-]+\.safetensors)`\s*\|[^|]*\|[^|]*\|[^|]*\|[^|]*\|)"
                         R"(\s*([0-9.]+)\s*%\s*\|\s*([0-9.]+)\s*%\s*\|\s*([0-9.]+)\s*%)");
    std::string line;
    while (std::getline(in, line)) {
        std::smatch m;
        if (std::regex_search(line, m, row)) out[m[1]] = {std::stod(m[2]), std::stod(m[3]), std::stod(m[4])};
    }
    return out;
}

} // namespace

TEST_CASE("the shipped speech models are listed in the README, at most 1 MB, and score what it says") {
    const auto listed = readme_speech();
    CHECK(listed.count("speech-additive-bahdanau.safetensors") == 1);
    for (const auto &entry : std::filesystem::directory_iterator(models_dir)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("speech-", 0) == 0 && entry.path().extension() == ".safetensors")
            CHECK_MESSAGE(listed.count(name), name << " is not in web/models/README.md");
    }
    std::map<std::uint64_t, tasks::speech::SpeechData> data;
    for (const auto &entry : listed) {
        const std::string file = entry.first;
        const ListedSpeech want = entry.second;
        CAPTURE(file);
        const auto path = models_dir / file;
        REQUIRE(std::filesystem::exists(path));
        CHECK(std::filesystem::file_size(path) <= 1024 * 1024);
        std::ifstream in(path, std::ios::binary);
        const io::Model model = io::Model::load(
            std::vector<std::uint8_t>{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()});
        CHECK(model.config().encoder == models::EncoderKind::audio);
        const auto seed = model.training().value("data_seed", std::uint64_t{1});
        // Only the held-out side is needed: a stream with no training utterances yields the same ones.
        if (!data.count(seed))
            data.emplace(seed,
                         tasks::speech::make_speech(seed, 0, model.training().value("heldout_pairs", std::size_t{0})));
        const std::size_t utterances = test::sanitized ? 40 : 400;
        const train::SpeechScore score =
            train::evaluate_speech(model.network(), data.at(seed).heldout, model.target_vocab(), utterances);
        CHECK(score.utterances == static_cast<int>(utterances));
        INFO("README CER " << want.cer << "%, monotonic " << want.monotonicity << "%, exact " << want.exact_match
                           << "%; measured " << 100 * score.cer << "%, " << 100 * score.monotonicity << "%, "
                           << 100 * score.exact_match << "% on " << utterances << " utterances");
        if (test::sanitized) {
            // Each about as good as the whole split's, the sample counted in utterances: an
            // utterance's characters and steps go wrong together (a broken model is near 100% CER).
            const double cer = want.cer / 100, mono = want.monotonicity / 100, exact = want.exact_match / 100;
            CHECK(score.cer <= cer + test::sample_tolerance(cer, utterances));
            CHECK(score.monotonicity >= mono - test::sample_tolerance(mono, utterances));
            CHECK(score.exact_match >= exact - test::sample_tolerance(exact, utterances));
        } else {
            // The README's numbers are this evaluation's, rounded to 0.01; the builds' kernels differ in
            // the last bits, which may flip a near tie of a character or a peak or two in wasm.
            CHECK(std::abs(100 * score.cer - want.cer) <= 0.1);
            CHECK(std::abs(100 * score.monotonicity - want.monotonicity) <= 0.1);
            CHECK(std::abs(100 * score.exact_match - want.exact_match) <= 0.5);
        }
        CHECK(std::abs(100 * model.training().value("heldout_cer", -1.0) - want.cer) < 0.006);
        CHECK(std::abs(100 * model.training().value("monotonicity", -1.0) - want.monotonicity) < 0.006);
        // The goal of the speech models: at most 5% of the characters wrong.
        CHECK(want.cer <= 5.0);
    }
}

TEST_CASE("the shipped location model hears the whole woodchuck sentence, longer than any phrase it trained on") {
    // 13 words, trained on at most 6: location-aware attention walks on along the frames where
    // the content-only scores lose their place (the additive model drops words here).
    const auto path = models_dir / "speech-location-bahdanau.safetensors";
    if (!std::filesystem::exists(path)) return;
    std::ifstream in(path, std::ios::binary);
    const io::Model model = io::Model::load(
        std::vector<std::uint8_t>{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()});
    const tasks::speech::Utterance u = tasks::speech::synthesize(tasks::speech::woodchuck_sentence, 1);
    const models::EncoderOutput encoded = model.network().encode_audio(u.features);
    std::vector<int> ids;
    std::vector<Vec> weights;
    for (const auto &s : model.network().greedy(encoded, io::Vocabulary::bos, io::Vocabulary::eos)) {
        weights.push_back(s.attention.weights);
        Eigen::Index best;
        s.probs.maxCoeff(&best);
        if (best == io::Vocabulary::eos) break;
        ids.push_back(static_cast<int>(best));
    }
    CHECK(model.target_vocab().join(ids) == std::string(tasks::speech::woodchuck_sentence));
    CHECK(train::monotonic_share(weights) == 1.0);
}
