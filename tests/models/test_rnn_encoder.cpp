#include "models/rnn_encoder.hpp"

#include "support/gradcheck.hpp"

#include <doctest/doctest.h>

#include <utility>

using namespace apg;
using namespace apg::models;
using namespace apg::nn;

namespace {

EncoderParams tiny_encoder(core::Rng &rng, int V, int E, int He) {
    EncoderParams p;
    p.embedding.resize(V, E);
    for (Eigen::Index i = 0; i < p.embedding.size(); ++i) p.embedding.data()[i] = rng.uniform(-1.0f, 1.0f);
    p.fwd = GruParams::init(E, He, rng);
    p.bwd = GruParams::init(E, He, rng);
    return p;
}

} // namespace

TEST_CASE("a bidirectional encoder state is [forward state; backward state] of the unpadded sequence") {
    core::Rng rng(11);
    EncoderParams p = tiny_encoder(rng, 6, 3, 4);
    // Batch of two: sequence 0 = {2, 3, 4}, sequence 1 = {5, 1} padded with 0.
    EncoderCache batch;
    encoder_forward(p, true, {2, 5, 3, 1, 4, 0}, {3, 2}, batch);
    EncoderCache alone;
    encoder_forward(p, true, {5, 1}, {2}, alone);
    REQUIRE(batch.outputs[1].rows() == 2);
    REQUIRE(batch.outputs[1].cols() == 8);
    // Padding must not leak into either direction: the same sequence alone gives the same states.
    CHECK((batch.outputs[1] - alone.outputs[0]).cwiseAbs().maxCoeff() < 1e-6f);

    // The backward direction's state at the last position has seen one token only:
    // ←h_{n-1} = GRU(x_{n-1}, 0), so it equals a one-token sequence's backward state.
    EncoderCache one;
    encoder_forward(p, true, {1}, {1}, one);
    CHECK((batch.outputs[1].row(1).tail(4) - one.outputs[0].row(0).tail(4)).cwiseAbs().maxCoeff() < 1e-6f);
    // ...and the forward direction's first state likewise.
    EncoderCache first;
    encoder_forward(p, true, {5}, {1}, first);
    CHECK((batch.outputs[1].row(0).head(4) - first.outputs[0].row(0).head(4)).cwiseAbs().maxCoeff() < 1e-6f);
}

TEST_CASE("encoder rejects ids outside the vocabulary and bad lengths") {
    core::Rng rng(1);
    EncoderParams p = tiny_encoder(rng, 4, 2, 3);
    EncoderCache c;
    CHECK_THROWS_WITH_AS(encoder_forward(p, true, {1, 9}, {2}, c), doctest::Contains("outside the source vocabulary"),
                         std::invalid_argument);
    CHECK_THROWS_AS(encoder_forward(p, true, {1, 2}, {3}, c), std::invalid_argument);
    CHECK_THROWS_AS(encoder_forward(p, true, {1, 2}, {0}, c), std::invalid_argument);
}

TEST_CASE("BiGRU encoder gradients match finite differences on a padded batch") {
    for (bool bidirectional : {true, false}) {
        CAPTURE(bidirectional);
        core::Rng rng(5);
        const int V = 5, E = 3, He = 4, dh = bidirectional ? 2 * He : He;
        EncoderParams p = tiny_encoder(rng, V, E, He);
        const std::vector<int> ids = {1, 4, 2, 3, 3, 0}; // N = 3, B = 2, lengths 3 and 2
        const std::vector<int> lengths = {3, 2};
        std::vector<Mat> weights;
        for (int len : lengths) {
            Mat w(len, dh);
            for (Eigen::Index i = 0; i < w.size(); ++i) w.data()[i] = rng.uniform(-1.0f, 1.0f);
            weights.push_back(w);
        }
        auto loss = [&]() {
            EncoderCache c;
            encoder_forward(p, bidirectional, ids, lengths, c);
            double sum = 0;
            for (std::size_t b = 0; b < lengths.size(); ++b) sum += (c.outputs[b].array() * weights[b].array()).sum();
            return sum;
        };
        EncoderCache c;
        encoder_forward(p, bidirectional, ids, lengths, c);
        EncoderParams g;
        g.embedding.setZero(V, E);
        g.fwd = p.fwd.zeros_like();
        g.bwd = p.bwd.zeros_like();
        encoder_backward(p, bidirectional, c, weights, g);

        test::check_gradient("embedding", view(p.embedding), view(std::as_const(g.embedding)), loss,
                             test::GradCheck::composed(24));
        test::check_gradient("fwd.w_ih", view(p.fwd.w_ih), view(std::as_const(g.fwd.w_ih)), loss,
                             test::GradCheck::composed(24));
        test::check_gradient("fwd.w_hh", view(p.fwd.w_hh), view(std::as_const(g.fwd.w_hh)), loss,
                             test::GradCheck::composed(24));
        test::check_gradient("fwd.b_hh", view(p.fwd.b_hh), view(std::as_const(g.fwd.b_hh)), loss,
                             test::GradCheck::composed(24));
        if (bidirectional) {
            test::check_gradient("bwd.w_ih", view(p.bwd.w_ih), view(std::as_const(g.bwd.w_ih)), loss,
                                 test::GradCheck::composed(24));
            test::check_gradient("bwd.w_hh", view(p.bwd.w_hh), view(std::as_const(g.bwd.w_hh)), loss,
                                 test::GradCheck::composed(24));
            test::check_gradient("bwd.b_ih", view(p.bwd.b_ih), view(std::as_const(g.bwd.b_ih)), loss,
                                 test::GradCheck::composed(24));
        }
    }
}
