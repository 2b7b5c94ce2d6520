#include "core/error.hpp"
#include "core/limits.hpp"
#include "decode/session.hpp"
#include "support/training.hpp"
#include "train/run.hpp"
#include "train/text_task.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

using namespace apg;
using namespace apg::train;

namespace {

using test::kTokens;

// Reversal of 2–6 letters a–f as own pairs: 200 lines, 20 held out.
std::string reverse_pairs_text() {
    core::Rng rng(3);
    std::string text;
    for (int k = 0; k < 200; ++k) {
        std::string s(2 + rng.below(5), 'a');
        for (char &c : s) c = static_cast<char>('a' + rng.below(6));
        text += s + "\t" + std::string(s.rbegin(), s.rend()) + "\n";
    }
    return text;
}

RunConfig small_pairs(int steps) {
    RunConfig c;
    c.pairs = reverse_pairs_text();
    c.embed = 8;
    c.hidden = 16;
    c.steps = steps;
    c.batch = 16;
    return c;
}

using test::detail_name;
using test::flat;

} // namespace

TEST_CASE("Run builds the model apg train builds and trains it step for step like the Trainer") {
    // apg train --task reverse --score general --style luong --seed 2, driven by hand (reverse: the
    // cheapest task to generate; every task takes the same path).
    const PreparedTask task = prepare_task("reverse", 2);
    const models::ModelConfig config =
        recipe_config(task, attention::ScoreKind::general, models::AttentionStyle::luong);
    TrainOptions options = recipe_options("reverse");
    options.seed = 2;
    options.steps = 4;
    options.batch_size = 4; // (small: the suite also runs under the sanitizers)
    models::Seq2Seq reference(config, 2);
    Trainer trainer(reference, task.train, task.heldout, kTokens, options);

    RunConfig c;
    c.task = "reverse";
    c.score = attention::ScoreKind::general;
    c.style = models::AttentionStyle::luong;
    c.seed = 2;
    c.steps = 4;
    c.batch = 4;
    Run run(c);
    CHECK(run.model_config().to_json() == config.to_json());
    CHECK(run.data().source_vocab == task.source_vocab);
    CHECK(run.data().train.sources == task.train.sources);
    CHECK(flat(run.network()) == flat(reference)); // the same initialisation

    std::vector<double> losses;
    for (int i = 0; i < 4; ++i) losses.push_back(trainer.step().loss);
    const RunProgress first = run.step(1);
    CHECK(first.step == 1);
    CHECK(first.loss == losses[0]);
    const RunProgress rest = run.step(3);
    CHECK(rest.step == 4);
    CHECK(rest.sequences == 4 * 4);
    CHECK(rest.loss == doctest::Approx((losses[1] + losses[2] + losses[3]) / 3).epsilon(1e-12));
    CHECK(rest.grad_norm == trainer.progress().grad_norm);
    CHECK(rest.learning_rate == trainer.progress().learning_rate);
    CHECK(rest.done);
    CHECK(flat(run.network()) == flat(reference)); // bit-identical after training too
    // After the last step, step() reports done again without training.
    CHECK(run.step(3).step == 4);
}

TEST_CASE("Run checks every field against core/limits.hpp and names it") {
    struct Case {
        const char *name;
        void (*set)(RunConfig &);
    };
    const Case cases[] = {
        {"task", [](RunConfig &c) { c.task = "nope"; }},
        {"embed", [](RunConfig &c) { c.embed = 0; }},
        {"embed", [](RunConfig &c) { c.embed = limits::max_train_dim + 1; }},
        {"hidden", [](RunConfig &c) { c.hidden = -3; }},
        {"steps", [](RunConfig &c) { c.steps = 0; }},
        {"steps", [](RunConfig &c) { c.steps = limits::max_train_steps + 1; }},
        {"batch", [](RunConfig &c) { c.batch = limits::max_train_batch + 1; }},
        {"learningRate", [](RunConfig &c) { c.learning_rate = 0; }},
        {"learningRate", [](RunConfig &c) { c.learning_rate = std::nan(""); }},
        {"learningRate", [](RunConfig &c) { c.learning_rate = 2 * limits::max_learning_rate; }},
        {"seed", [](RunConfig &c) { c.seed = limits::max_seed + 1; }},
        {"evalExamples", [](RunConfig &c) { c.eval_examples = 0; }},
        {"evalExamples", [](RunConfig &c) { c.eval_examples = limits::max_eval_examples + 1; }},
        {"evalEvery", [](RunConfig &c) { c.eval_every = -1; }},
        {"probe", [](RunConfig &c) { c.probe = "zzz"; }},                // unknown characters
        {"probe", [](RunConfig &c) { c.probe = ""; }},                   // empty
        {"probe", [](RunConfig &c) { c.probe = std::string(40, 'a'); }}, // longer than the model takes
    };
    for (const Case &k : cases) {
        CAPTURE(k.name);
        RunConfig c = small_pairs(10);
        k.set(c);
        if (std::string(k.name) == "task") c.pairs.reset();
        try {
            Run run(c);
            FAIL("no error");
        } catch (const Error &e) {
            CHECK(detail_name(e) == k.name);
            CHECK(std::string(e.text()).rfind(k.name, 0) == 0);
        }
    }
    RunConfig odd;
    odd.encoder = models::EncoderKind::transformer;
    odd.embed = 30; // not a multiple of 4 heads
    CHECK_THROWS_AS(Run{odd}, InputError);
    RunConfig c = small_pairs(10);
    Run run(c);
    CHECK_THROWS_AS(run.step(0), InputError);
    CHECK_THROWS_AS(run.step(limits::max_steps_per_call + 1), InputError);
    CHECK_THROWS_AS(run.evaluate(-1), InputError);
}

TEST_CASE("a non-finite loss stops the run, keeps the last finite step's parameters, and further steps are refused") {
    RunConfig c = small_pairs(50);
    c.learning_rate = 1e20; // the weights overflow within two steps
    Run run(c);
    Run reference(c);
    const RunProgress p = run.step(10);
    CHECK(p.diverged);
    CHECK(p.done);
    CHECK(p.divergence != Divergence::none);
    CHECK(p.diverged_step == p.step + 1);
    REQUIRE(p.step >= 1);
    (void)reference.step(p.step); // the same run up to the last finite step
    CHECK(flat(run.network()) == flat(reference.network()));
    for (float x : flat(run.network())) REQUIRE(std::isfinite(x));
    try {
        run.step(1);
        FAIL("no error");
    } catch (const StateError &e) {
        CHECK(e.code() == ErrorCode::bad_state);
        CHECK(std::string(e.what()).find("diverged") != std::string::npos);
    }
    // The model is still there to evaluate and save (after a step at 1e20 its outputs need not be
    // finite numbers, but its parameters are, so the loader takes the file).
    CHECK(run.evaluate(5).examples == 5);
    CHECK(io::Model::load(run.save()).training()["diverged"].is_string());
}

TEST_CASE("a loss that grows past ten times the first one is divergence too, though every number is finite") {
    // A learning rate of 1000 (the page's field takes it) drives the loss to about 1e6 without
    // overflowing: before this check the run read "done" at 0 % held-out.
    RunConfig c = small_pairs(60);
    c.learning_rate = 1000;
    Run run(c);
    const RunProgress p = run.step(60);
    REQUIRE(p.diverged);
    CHECK(p.done);
    CHECK(p.divergence == Divergence::loss_grew);
    CHECK(name(p.divergence) == "loss_grew");
    CHECK(p.first_loss > 1); // ln of a vocabulary of six letters and the specials
    CHECK(p.first_loss < 3);
    CHECK(std::isfinite(p.diverged_loss));
    CHECK(p.diverged_loss > loss_growth_limit * p.first_loss);
    CHECK(p.diverged_step < 60);
    CHECK(p.message.find("try a smaller learning rate") != std::string::npos);
    CHECK_THROWS_AS(run.step(1), StateError);
    CHECK(io::Model::load(run.save()).training()["diverged"].is_string());
}

TEST_CASE("a learning rate that trains well never trips the divergence check") {
    RunConfig c = small_pairs(60);
    Run run(c);
    const RunProgress p = run.step(60);
    CHECK_FALSE(p.diverged);
    CHECK(p.divergence == Divergence::none);
    CHECK(p.first_loss > p.loss);
}

TEST_CASE("evaluate: held-out exact match of the snapshot, and the probe's alignment from a session's trace") {
    // (That a run learns is the JS tests' to show, in the optimised wasm build: 300 steps.)
    RunConfig c = small_pairs(30);
    c.probe = "abcdef";
    Run run(c);
    (void)run.step(30);
    const Evaluation e = run.evaluate(0);
    CHECK(e.step == 30);
    CHECK(e.examples == static_cast<int>(run.data().heldout.size()));
    const io::Model model = run.snapshot();
    CHECK(e.heldout_exact_match == exact_match(model.network(), run.data().heldout, kTokens));
    CHECK(run.evaluate(3).examples == 3);

    CHECK(e.probe.text == "abcdef");
    CHECK(e.probe.source == std::vector<std::string>{"a", "b", "c", "d", "e", "f"});
    decode::DecodeSession session(model.network(), model.source_vocab().encode("abcdef"),
                                  {io::Vocabulary::bos, io::Vocabulary::eos, 5, 0, {}});
    session.run();
    REQUIRE(e.probe.weights.rows() == static_cast<Eigen::Index>(session.steps().size()));
    REQUIRE(e.probe.output.size() == session.steps().size());
    for (Eigen::Index i = 0; i < e.probe.weights.rows(); ++i) {
        CHECK(e.probe.weights.row(i).sum() == doctest::Approx(1.0).epsilon(1e-5));
        CHECK(e.probe.weights.row(i).transpose() ==
              session.steps()[static_cast<std::size_t>(i)].step.attention.weights);
        const int token = session.steps()[static_cast<std::size_t>(i)].token;
        CHECK(e.probe.output[static_cast<std::size_t>(i)] == model.target_vocab().token(token));
    }
}

TEST_CASE("evaluate lists the first held-out pairs as a decoding session of the snapshot answers them") {
    RunConfig c = small_pairs(300);
    Run run(c);
    (void)run.step(300);
    const Evaluation e = run.evaluate(0);
    const EncodedPairs &heldout = run.data().heldout;
    REQUIRE(e.predictions.size() == std::min<std::size_t>(Evaluation::shown_predictions, heldout.size()));
    const io::Model model = run.snapshot();
    const io::Vocabulary &tv = model.target_vocab();
    const std::string text = *c.pairs;
    int correct = 0;
    for (std::size_t k = 0; k < e.predictions.size(); ++k) {
        CAPTURE(k);
        const HeldoutPrediction &p = e.predictions[k];
        // Characters are written together: the pair reads as it does in the pairs' text.
        CHECK(text.find(p.source + "\t" + p.target + "\n") != std::string::npos);
        CHECK(p.target == std::string(p.source.rbegin(), p.source.rend()));
        decode::DecodeSession session(model.network(), heldout.sources[k],
                                      {io::Vocabulary::bos, io::Vocabulary::eos, 5, 0, {}});
        session.run();
        bool ended = false;
        std::string output;
        for (const auto &step : session.steps()) {
            if (step.token == io::Vocabulary::eos) {
                ended = true;
                break;
            }
            output += tv.token(step.token);
        }
        CHECK(p.output == output);
        CHECK(p.correct == (ended && output == p.target));
        correct += p.correct;
    }
    // The same pairs at every evaluation, whatever its limit.
    const Evaluation few = run.evaluate(3);
    REQUIRE(few.predictions.size() == 3);
    for (std::size_t k = 0; k < 3; ++k) CHECK(few.predictions[k].output == e.predictions[k].output);
    // What exact match counts is what the list marks right: the visitor sees every pair's outcome.
    std::size_t hits = 0, seen = 0;
    const double share = exact_match(model.network(), heldout, kTokens, 0, [&](std::size_t k, const PairOutcome &o) {
        CHECK(k == seen++);
        hits += o.hit;
        if (k < e.predictions.size()) CHECK(o.hit == e.predictions[k].correct);
    });
    CHECK(seen == heldout.size());
    CHECK(share == doctest::Approx(static_cast<double>(hits) / static_cast<double>(heldout.size())));
    CHECK(share == e.heldout_exact_match);
    // 300 steps leave the list with both kinds (7 of 8 right), so each way of the flag is seen.
    CHECK(correct > 0);
    CHECK(correct < static_cast<int>(e.predictions.size()));
}

TEST_CASE("save: the CLI's file with vocabularies, config and training record; load gives the same model") {
    RunConfig c = small_pairs(20);
    Run run(c);
    (void)run.step(20);
    const io::Model loaded = io::Model::load(run.save());
    CHECK(loaded.config().to_json() == run.model_config().to_json());
    CHECK(loaded.source_vocab() == run.data().source_vocab);
    CHECK(loaded.target_vocab() == run.data().target_vocab);
    CHECK(flat(loaded.network()) == flat(run.network()));
    const auto &t = loaded.training();
    CHECK(t["steps"] == 20);
    CHECK(t["seed"] == 1);
    CHECK(t["batch_size"] == 16);
    CHECK(t["train_pairs"] == run.data().train.size());
    CHECK(t["heldout_exact_match"].get<double>() == exact_match(run.network(), run.data().heldout, kTokens));
    CHECK(t["tokenization"] == "characters");
    CHECK(loaded.config().task == "pairs");
}

TEST_CASE("cancel: the run stops for good, the model stays") {
    RunConfig c = small_pairs(20);
    Run run(c);
    (void)run.step(2);
    run.cancel();
    CHECK(run.done());
    CHECK_THROWS_AS(run.step(1), StateError);
    CHECK(run.snapshot().training()["steps_done"] == 2);
}

TEST_CASE("Run: 30 steps of dates, additive Bahdanau (the native half of the wasm determinism test)") {
    // tests/js/trainer-determinism.test.mjs runs this case with APG_RUN_RECORD=<path> and compares
    // the trainer module's 30 steps with what it writes: <path>.json (per step loss, gradient norm,
    // learning rate) and <path>.safetensors (save()).
    // Under the sanitizers (a debug build, ~100 times slower) it trains 3 steps: only the release
    // build's record is read.
#if defined(__SANITIZE_ADDRESS__)
    constexpr int steps = 3;
#else
    constexpr int steps = 30;
#endif
    RunConfig c;
    c.task = "dates";
    c.steps = steps;
    Run run(c);
    std::string json = "{\"loss\":[";
    std::string norms = "],\"gradNorm\":[", rates = "],\"learningRate\":[";
    double first = 0, last = 0;
    for (int i = 0; i < steps; ++i) {
        const RunProgress p = run.step(1);
        REQUIRE(std::isfinite(p.loss));
        if (i == 0) first = p.loss;
        last = p.loss;
        char text[96];
        std::snprintf(text, sizeof text, "%s%.17g", i ? "," : "", p.loss);
        json += text;
        std::snprintf(text, sizeof text, "%s%.17g", i ? "," : "", p.grad_norm);
        norms += text;
        std::snprintf(text, sizeof text, "%s%.17g", i ? "," : "", p.learning_rate);
        rates += text;
    }
    CHECK(last < (steps == 30 ? 0.8 : 1.0) * first);
    if (const char *path = std::getenv("APG_RUN_RECORD")) {
        std::ofstream(std::string(path) + ".json") << json << norms << rates << "]}\n";
        const auto bytes = run.save();
        std::ofstream(std::string(path) + ".safetensors", std::ios::binary)
            .write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
}
