#include "train/trainer.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

using namespace apg;
using namespace apg::models;
using namespace apg::train;

namespace {

// Reversal of 3–7 symbols from an alphabet of 6 (ids 4…9; 0–3 are pad, start, end, unknown).
EncodedPairs reverse_pairs(std::size_t count, std::uint64_t seed) {
    core::Rng rng(seed);
    EncodedPairs pairs;
    for (std::size_t k = 0; k < count; ++k) {
        std::vector<int> s(3 + rng.below(5));
        for (int &x : s) x = 4 + static_cast<int>(rng.below(6));
        pairs.sources.push_back(s);
        pairs.targets.emplace_back(s.rbegin(), s.rend());
    }
    return pairs;
}

ModelConfig tiny_reverse_config(AttentionStyle style, attention::ScoreKind score = attention::ScoreKind::additive) {
    ModelConfig c;
    c.task = "reverse";
    c.score = score;
    c.style = style;
    c.source_vocab = 10;
    c.target_vocab = 10;
    c.embedding = 8;
    c.encoder_hidden = 16;
    c.decoder_hidden = 32;
    c.attention_dim = 16;
    c.max_source_len = 7;
    c.max_target_len = 7;
    return c;
}

} // namespace

TEST_CASE("Adam's first step moves every parameter by the learning rate against its gradient's sign") {
    // With bias correction, m̂ = g and v̂ = g² after one step, so Δθ = −lr · g / (|g| + ε).
    Mat p(1, 3), g(1, 3);
    p << 1.0f, 2.0f, 3.0f;
    g << 0.5f, -4.0f, 0.0f;
    Adam adam({{"p", {1, 3}, view(p)}}, AdamOptions{0.1f});
    adam.step({{"p", {1, 3}, view(g)}});
    CHECK(p(0, 0) == doctest::Approx(0.9f));
    CHECK(p(0, 1) == doctest::Approx(2.1f));
    CHECK(p(0, 2) == doctest::Approx(3.0f));
}

TEST_CASE("gradient clipping rescales to the maximum norm and reports the norm before") {
    Mat a(1, 2), b(1, 1);
    a << 3.0f, 0.0f;
    b << 4.0f; // global norm 5
    std::vector<TensorRef> grads = {{"a", {1, 2}, view(a)}, {"b", {1, 1}, view(b)}};
    CHECK(clip_gradient_norm(grads, 10.0f) == doctest::Approx(5.0));
    CHECK(a(0, 0) == 3.0f); // below the limit: untouched
    CHECK(clip_gradient_norm(grads, 1.0f) == doctest::Approx(5.0));
    CHECK(a(0, 0) == doctest::Approx(0.6f));
    CHECK(b(0, 0) == doctest::Approx(0.8f));
}

TEST_CASE("a tiny model learns to reverse sequences in a few hundred steps (both styles)") {
    for (AttentionStyle style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
        CAPTURE(name(style));
        Seq2Seq model(tiny_reverse_config(style), 1);
        TrainOptions options;
        options.steps = 300;
        options.batch_size = 16;
        options.learning_rate = 1e-2f;
        Trainer trainer(model, reverse_pairs(2000, 1), reverse_pairs(100, 2), SpecialTokens{}, options);
        double first_loss = -1;
        std::vector<double> losses;
        trainer.run(
            [&](const Progress &p) {
                if (first_loss < 0) first_loss = p.loss;
                losses.push_back(p.loss);
                return true;
            },
            20);
        INFO("first loss " << first_loss << ", last " << losses.back());
        // Chance level is ln 10 ≈ 2.3 per token; a model that reverses gets far below 0.3.
        CHECK(first_loss > 1.5);
        CHECK(losses.back() < 0.3);
        CHECK(trainer.evaluate() > 0.6);
    }
}

TEST_CASE("the trainer trains scaled cosine's g with the rest, and the model learns to reverse") {
    Seq2Seq model(tiny_reverse_config(AttentionStyle::bahdanau, attention::ScoreKind::scaled_cosine), 1);
    const float g0 = model.parameters().decoder.attn.scale[0];
    CHECK(g0 == doctest::Approx(std::sqrt(32.0))); // √dk, dk = 2 · 16
    TrainOptions options;
    options.steps = 300;
    options.batch_size = 16;
    options.learning_rate = 1e-2f;
    Trainer trainer(model, reverse_pairs(2000, 1), reverse_pairs(100, 2), SpecialTokens{}, options);
    double last_loss = -1;
    trainer.run([&](const Progress &p) { return last_loss = p.loss, true; }, 20);
    const float g = model.parameters().decoder.attn.scale[0];
    INFO("g " << g0 << " → " << g << ", last loss " << last_loss);
    // Adam moves g by about the learning rate per step: far from its start after 300 steps.
    CHECK(std::abs(g - g0) > 0.1f);
    CHECK(std::isfinite(g));
    CHECK(last_loss < 0.3);
    CHECK(trainer.evaluate() > 0.6);
}

TEST_CASE("training is deterministic: the same seeds give bit-identical parameters") {
    auto train_once = [](std::uint64_t batch_seed) {
        Seq2Seq model(tiny_reverse_config(AttentionStyle::bahdanau), 3);
        TrainOptions options;
        options.steps = 15;
        options.batch_size = 8;
        options.seed = batch_seed;
        Trainer trainer(model, reverse_pairs(200, 5), {}, SpecialTokens{}, options);
        trainer.run(nullptr);
        std::vector<float> flat;
        for (const auto &t : model.tensors()) flat.insert(flat.end(), t.data.begin(), t.data.end());
        return flat;
    };
    const auto a = train_once(1), b = train_once(1), c = train_once(2);
    REQUIRE(a.size() == b.size());
    CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
    CHECK(std::memcmp(a.data(), c.data(), a.size() * sizeof(float)) != 0);
}

TEST_CASE("a trainer whose progress callback returns false stops at that step") {
    Seq2Seq model(tiny_reverse_config(AttentionStyle::luong), 3);
    TrainOptions options;
    options.steps = 100;
    options.batch_size = 4;
    Trainer trainer(model, reverse_pairs(48, 5), {}, SpecialTokens{}, options);
    const Progress p = trainer.run([](const Progress &q) { return q.step < 10; }, 5);
    CHECK(trainer.cancelled());
    CHECK(p.step == 10);
    CHECK(p.sequences == 40);
}
