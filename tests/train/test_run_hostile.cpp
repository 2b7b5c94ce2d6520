// Training runs from configurations whose fields are each within their limits but whose products
// are not (refused by the run's memory budget, train/budget.hpp, before the model is made; where
// admitted, an upper bound of what the run allocates), and the minor hostile ones: a run without
// attention evaluated, an activation the GRU encoder has no use for, a byte order mark before own
// pairs, a NUL in a task's name.
#include "core/error.hpp"
#include "core/limits.hpp"
#include "support/heap_in_use.hpp"
#include "tasks/pairs.hpp"
#include "train/budget.hpp"
#include "train/run.hpp"

#include <doctest/doctest.h>

#include <string>
#include <variant>

using namespace apg;
using namespace apg::train;

namespace {

std::string name_of(const Error &e) {
    for (const auto &[key, value] : e.details())
        if (key == "name" || key == "field") return std::get<std::string>(value);
    return "";
}

// 2,000 pairs (1.8 MB) with 128-token targets over 32,000 words.
std::string wide_pairs() {
    std::string text;
    for (int k = 0; k < 2000; ++k) {
        text += "s" + std::to_string(k % 50) + " s" + std::to_string(k * 7 % 50) + "\t";
        for (int j = 0; j < 128; ++j) text += (j ? " w" : "w") + std::to_string((k * 128 + j) % 32000);
        text += "\n";
    }
    return text;
}

} // namespace

TEST_CASE("run budget: target steps × batch × target tokens past the limit is refused before the model is made") {
    RunConfig c;
    c.pairs = wide_pairs();
    c.embed = c.hidden = 512;
    c.batch = 512;
    c.steps = 10;
    const std::int64_t before = test::heap_in_use();
    try {
        Run run(c);
        FAIL("no refusal");
    } catch (const InputError &e) {
        CHECK(e.code() == ErrorCode::limit_exceeded);
        CHECK(name_of(e) == "target steps × batch × target tokens");
        CHECK(std::string(e.text()).starts_with("training run: 129 target steps × 512 batch × 32004 target tokens"));
    }
    // the pairs were read and freed; nothing else was made
    if (before >= 0) CHECK(test::heap_in_use() - before < (8 << 20));
}

TEST_CASE("run budget: what a run allocates is within its budget") {
    RunConfig c;
    c.task = "reverse";
    c.embed = 16;
    c.hidden = 32;
    c.batch = 64;
    c.steps = 3;
    c.eval_examples = 5;
    const std::int64_t before = test::heap_in_use();
    Run run(c);
    run.step(3);
    const Evaluation e = run.evaluate();
    const double budget = run_memory(run.model_config(), run.options(), run.data().train).total();
    CHECK(budget < static_cast<double>(limits::max_work_bytes));
    if (before >= 0) CHECK(static_cast<double>(test::heap_in_use() - before) <= budget);
}

TEST_CASE("a run without attention evaluates to an empty alignment, not rows written through a null pointer") {
    RunConfig c;
    c.task = "reverse";
    c.score = attention::ScoreKind::none;
    c.steps = 2;
    Run run(c);
    run.step(2);
    const Evaluation e = run.evaluate();
    CHECK(e.probe.weights.rows() == 0);
    CHECK(e.probe.weights.cols() == 0);
    CHECK(!e.probe.output.empty());
    CHECK(!e.probe.source.empty());
}

TEST_CASE("activation gelu with the GRU encoder is refused: only the transformer has a feed-forward") {
    RunConfig c;
    c.task = "dates";
    c.activation = nn::Activation::gelu;
    try {
        Run run(c);
        FAIL("no refusal");
    } catch (const InputError &e) {
        CHECK(e.code() == ErrorCode::bad_argument);
        CHECK(name_of(e) == "activation");
    }
    c.encoder = models::EncoderKind::transformer;
    c.steps = 1;
    CHECK_NOTHROW(Run{c});
}

TEST_CASE("own pairs: a byte order mark before the first pair is not part of its source") {
    const std::string text = "abc\tcba\nabd\tdba\nacd\tdca\nbcd\tdcb\n";
    const tasks::PairsData plain = tasks::parse_pairs(text, io::Tokenizer::characters, 1);
    const tasks::PairsData marked = tasks::parse_pairs("\xEF\xBB\xBF" + text, io::Tokenizer::characters, 1);
    CHECK(tasks::source_vocabulary(marked.data).size() == tasks::source_vocabulary(plain.data).size());
    CHECK(marked.longest_source == plain.longest_source);
}

TEST_CASE("a task name with a NUL reaches the message escaped, whole") {
    RunConfig c;
    c.task = std::string("da\0tes", 6);
    try {
        Run run(c);
        FAIL("no refusal");
    } catch (const InputError &e) {
        const std::string text(e.text());
        CHECK(text.find('\0') == std::string::npos);
        CHECK(text.ends_with("got \"da\\u0000tes\""));
    }
}
