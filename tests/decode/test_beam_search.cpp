// Beam search against greedy decoding on a shipped model: a wider beam must never lose the
// hypothesis greedy decoding ends with by stopping before it ends, and a hypothesis the step limit
// cut must never rank above one that ended.
#include "decode/session.hpp"
#include "io/model.hpp"
#include "support/shipped_models.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

using namespace apg;

using test::shipped;

TEST_CASE("beams of every width keep greedy's ended answer first and rank ended before cut") {
    const io::Model model = shipped("zh-additive-bahdanau.safetensors");
    decode::SessionOptions options;
    options.start_id = io::Vocabulary::bos;
    options.end_id = io::Vocabulary::eos;
    decode::DecodeSession greedy(model.network(), model.encode_source("tom chased jerry in the kitchen yesterday"),
                                 options);
    REQUIRE(greedy.run() == 8);
    REQUIRE(greedy.steps().back().token == options.end_id);
    const double greedy_score = greedy.steps().back().total_log_prob / 8;
    for (int width = 1; width <= 8; ++width) {
        CAPTURE(width);
        const decode::BeamResult r = decode::beam_search(model.network(), greedy.encoded(), width, options);
        REQUIRE(!r.beams.empty());
        CHECK(r.beams.size() <= static_cast<std::size_t>(width));
        const std::vector<int> &best = r.beams[0];
        REQUIRE(best.size() == greedy.steps().size());
        for (std::size_t i = 0; i < best.size(); ++i) CHECK(r.nodes[best[i]].token == greedy.steps()[i].token);
        CHECK(r.scores[0] == doctest::Approx(greedy_score).epsilon(1e-9));
        bool seen_cut = false;
        for (std::size_t k = 0; k < r.beams.size(); ++k) {
            const bool ended = r.nodes[r.beams[k].back()].token == options.end_id;
            CHECK_FALSE((seen_cut && ended));
            seen_cut = seen_cut || !ended;
        }
    }
}
