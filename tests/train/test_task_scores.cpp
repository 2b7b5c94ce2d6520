// The score functions a task's info offers (what the Train view lists): the six content-based ones
// and location-aware attention, each with the styles the config check accepts for the task's
// recipe, for every task and encoder; and an offered location run of speech and of dates, in each
// style, trains (its first loss finite, its probe alignment one row per step over the positions).
#include "train/run.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace apg;
using namespace apg::train;

namespace {

std::vector<std::string> names(const TaskInfo &info) {
    std::vector<std::string> out;
    for (const auto &o : info.scores) out.emplace_back(attention::name(o.kind));
    return out;
}

const std::vector<std::string> kAll = {"dot",    "scaled_dot",    "general", "additive",
                                       "cosine", "scaled_cosine", "location"};

} // namespace

TEST_CASE("every task's info offers the six content-based score functions and location, in both styles") {
    for (const auto encoder : {models::EncoderKind::gru, models::EncoderKind::transformer}) {
        std::vector<TaskInfo> infos = task_infos(encoder);
        infos.push_back(pairs_info(encoder));
        REQUIRE(infos.size() == 6);
        for (const TaskInfo &info : infos) {
            CAPTURE(info.name);
            CAPTURE(models::name(encoder));
            CHECK(names(info) == kAll);
            for (const auto &o : info.scores) {
                REQUIRE(o.styles.size() == 2);
                CHECK(o.styles[0] == models::AttentionStyle::bahdanau);
                CHECK(o.styles[1] == models::AttentionStyle::luong);
            }
        }
    }
}

TEST_CASE("an offered location run trains: speech and dates, Bahdanau and Luong") {
    for (const std::string task : {"speech", "dates"})
        for (const auto style : {models::AttentionStyle::bahdanau, models::AttentionStyle::luong}) {
            CAPTURE(task);
            CAPTURE(models::name(style));
            RunConfig c;
            c.task = task;
            c.score = attention::ScoreKind::location;
            c.style = style;
            c.steps = 2;
            c.batch = 4;
            c.eval_examples = 2;
            Run run(c);
            CHECK(run.model_config().score == attention::ScoreKind::location);
            const RunProgress p = run.step(1);
            CHECK(p.step == 1);
            CHECK(std::isfinite(p.loss));
            CHECK(p.loss > 0);
            const Evaluation e = run.evaluate();
            CHECK(e.examples == 2);
            REQUIRE(e.probe.weights.rows() > 0);
            CHECK(e.probe.weights.cols() == static_cast<Eigen::Index>(e.probe.source.size()));
            for (Eigen::Index i = 0; i < e.probe.weights.rows(); ++i)
                CHECK(std::abs(e.probe.weights.row(i).sum() - 1.0f) < 1e-5f);
        }
}
