#include "models/transformer_encoder.hpp"
#include "nn/positional_encoding.hpp"

#include "support/gradcheck.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

using namespace apg;
using namespace apg::models;
using namespace apg::nn;

namespace {

// GELU keeps every function smooth, so no difference quotient straddles a kink (ReLU is
// checked on its own in the feed-forward tests).
TransformerEncoderConfig small_encoder_config(int layers) {
    TransformerEncoderConfig c;
    c.vocab = 7;
    c.d_model = 8;
    c.heads = 2;
    c.d_ff = 12;
    c.layers = layers;
    c.activation = Activation::gelu;
    return c;
}

// Random (not the init's zero) biases and non-unit layer-norm gains, so their gradients matter.
void randomise(TransformerLayerParams &p, core::Rng &rng) {
    for (Vec *b : {&p.attn.b_q, &p.attn.b_k, &p.attn.b_v, &p.attn.b_o, &p.ln1.bias, &p.ln2.bias})
        *b = test::normal_vec(b->size(), rng, 0.3f);
    p.ln1.gain = Vec::Ones(p.dim()) + test::normal_vec(p.dim(), rng, 0.3f);
    p.ln2.gain = Vec::Ones(p.dim()) + test::normal_vec(p.dim(), rng, 0.3f);
}

// Every tensor of a layer with its gradient, named for the failure message.
struct Pair {
    const char *name;
    core::fspan value;
    core::cfspan grad;
};
std::vector<Pair> layer_tensors(TransformerLayerParams &p, TransformerLayerParams &g) {
    return {{"attn.w_q", view(p.attn.w_q), view(g.attn.w_q)}, {"attn.b_q", view(p.attn.b_q), view(g.attn.b_q)},
            {"attn.w_k", view(p.attn.w_k), view(g.attn.w_k)}, {"attn.b_k", view(p.attn.b_k), view(g.attn.b_k)},
            {"attn.w_v", view(p.attn.w_v), view(g.attn.w_v)}, {"attn.b_v", view(p.attn.b_v), view(g.attn.b_v)},
            {"attn.w_o", view(p.attn.w_o), view(g.attn.w_o)}, {"attn.b_o", view(p.attn.b_o), view(g.attn.b_o)},
            {"ln1.gain", view(p.ln1.gain), view(g.ln1.gain)}, {"ln1.bias", view(p.ln1.bias), view(g.ln1.bias)},
            {"ffn.w1", view(p.ffn.w1), view(g.ffn.w1)},       {"ffn.b1", view(p.ffn.b1), view(g.ffn.b1)},
            {"ffn.w2", view(p.ffn.w2), view(g.ffn.w2)},       {"ffn.b2", view(p.ffn.b2), view(g.ffn.b2)},
            {"ln2.gain", view(p.ln2.gain), view(g.ln2.gain)}, {"ln2.bias", view(p.ln2.bias), view(g.ln2.bias)}};
}

} // namespace

TEST_CASE("an encoder layer's gradients match finite differences for its input and every parameter, with padding") {
    core::Rng rng(42);
    TransformerLayerParams p = TransformerLayerParams::init(small_encoder_config(1), rng);
    randomise(p, rng);
    const Eigen::Index n = 4, d = p.dim();
    const std::vector<std::uint8_t> mask{1, 1, 1, 0};
    Mat x = test::normal_mat(n, d, rng);
    const Mat r = test::normal_mat(n, d, rng);

    TransformerLayerCache cache;
    transformer_layer_forward(p, x, mask, cache);
    Mat dx = Mat::Zero(n, d);
    TransformerLayerParams grads = p.zeros_like();
    transformer_layer_backward(p, x, mask, cache, r, dx, grads);

    auto loss = [&] {
        TransformerLayerCache c;
        transformer_layer_forward(p, x, mask, c);
        return test::weighted_sum(c.output, r);
    };
    test::check_gradient("x", view(x), view(dx), loss, test::nonzero_gradient);
    for (const Pair &t : layer_tensors(p, grads))
        test::check_gradient(t.name, t.value, t.grad, loss,
                             test::GradCheck::composed().expecting(std::string(t.name) == "attn.b_k"
                                                                       ? test::GradCheck::Expect::zero
                                                                       : test::GradCheck::Expect::nonzero));
    // The padded key contributes nothing to real queries, but the padded row itself (whose loss
    // weight is nonzero here) still depends on real keys: the gradient reaches x[3] only through it.
    CHECK(dx.row(3).norm() > 0.0f);
}

TEST_CASE("a 2-layer encoder's gradients match finite differences for the embedding and every parameter") {
    core::Rng rng(9);
    const TransformerEncoderConfig config = small_encoder_config(2);
    TransformerEncoderParams p = TransformerEncoderParams::init(config, rng);
    for (TransformerLayerParams &layer : p.layers) randomise(layer, rng);
    // Id 1 appears twice, so its embedding row gathers two positions' gradients; the last position is padding.
    const std::vector<int> ids{3, 1, 4, 1, 5};
    const std::vector<std::uint8_t> mask{1, 1, 1, 1, 0};
    const Mat r = test::normal_mat(5, config.d_model, rng);

    TransformerEncoderCache cache;
    transformer_encoder_forward(p, ids, mask, cache);
    TransformerEncoderParams grads = p.zeros_like();
    Mat d_inputs;
    transformer_encoder_backward(p, cache, r, grads, &d_inputs);

    auto loss = [&] {
        TransformerEncoderCache c;
        transformer_encoder_forward(p, ids, mask, c);
        return test::weighted_sum(c.output, r);
    };
    std::vector<core::TensorRef> values = tensors(p, config), gradients = tensors(grads, config);
    REQUIRE(values.size() == gradients.size());
    for (std::size_t i = 0; i < values.size(); ++i)
        test::check_gradient(values[i].name, values[i].data, gradients[i].data, loss,
                             test::GradCheck::composed().expecting(values[i].name.ends_with("attn.b_k")
                                                                       ? test::GradCheck::Expect::zero
                                                                       : test::GradCheck::Expect::nonzero));

    // dL/dE gathers dL/dx_0 by id: row 3 from position 0, row 1 from positions 1 and 3, none from the padding.
    CHECK((grads.embedding.row(3) - d_inputs.row(0)).norm() <= 1e-6f);
    CHECK((grads.embedding.row(1) - d_inputs.row(1) - d_inputs.row(3)).norm() <= 1e-6f);
    CHECK(grads.embedding.row(5).norm() == 0.0f);
    CHECK(d_inputs.row(4).norm() == 0.0f); // position 4 reaches no real output
}

TEST_CASE("padded positions do not change the outputs of real positions") {
    core::Rng rng(5);
    TransformerEncoderConfig config = small_encoder_config(2);
    config.activation = Activation::relu;
    const TransformerEncoderParams p = TransformerEncoderParams::init(config, rng);
    const std::vector<std::uint8_t> mask{1, 1, 1, 0, 0};
    TransformerEncoderCache a, b, alone;
    transformer_encoder_forward(p, std::vector<int>{3, 1, 4, 1, 5}, mask, a);
    transformer_encoder_forward(p, std::vector<int>{3, 1, 4, 6, 0}, mask, b);
    // Masked keys get a weight of exactly 0, so the real rows do not move at all.
    CHECK(a.output.topRows(3) == b.output.topRows(3));
    CHECK(a.output.bottomRows(2).norm() == 0.0f);
    CHECK(a.output.topRows(3).norm() > 1.0f);
    // The same three tokens without padding: equal up to float rounding (sums of another length).
    transformer_encoder_forward(p, std::vector<int>{3, 1, 4}, {}, alone);
    CHECK((a.output.topRows(3) - alone.output).cwiseAbs().maxCoeff() <= 1e-5f);
}

TEST_CASE("each layer keeps every head's scores and weights for the trace") {
    core::Rng rng(2);
    TransformerEncoderParams p = TransformerEncoderParams::init(small_encoder_config(2), rng);
    // Zero query projections make every raw score 0, so each head spreads its weight evenly
    // over the three real keys: 1/3 each, and 0 on the padded key.
    p.layers[1].attn.w_q.setZero();
    p.layers[1].attn.b_q.setZero();
    TransformerEncoderCache cache;
    transformer_encoder_forward(p, std::vector<int>{0, 2, 6, 2}, std::vector<std::uint8_t>{1, 1, 1, 0}, cache);
    REQUIRE(cache.layers.size() == 2);
    for (const TransformerLayerCache &layer : cache.layers) {
        REQUIRE(layer.attn.heads.size() == 2);
        for (const auto &head : layer.attn.heads) {
            CHECK(head.raw_scores.rows() == 4);
            CHECK(head.raw_scores.cols() == 4);
            CHECK(head.output.cols() == 4); // dk = d / h
            for (Eigen::Index row = 0; row < 4; ++row) {
                CHECK(head.weights.row(row).sum() == doctest::Approx(1.0f));
                CHECK(head.weights(row, 3) == 0.0f);
            }
        }
    }
    for (const auto &head : cache.layers[1].attn.heads) {
        CHECK(head.raw_scores.cwiseAbs().maxCoeff() == 0.0f);
        CHECK(head.weights(2, 0) == doctest::Approx(1.0f / 3.0f));
        CHECK(head.weights(0, 2) == doctest::Approx(1.0f / 3.0f));
    }
    // Layer 0's input is the embedding plus the positional code.
    CHECK((cache.inputs.row(1) - p.embedding.row(2) - positional_encoding(4, 8).row(1)).norm() <= 1e-6f);
}

TEST_CASE("the encoder's tensors are listed by module path with their shapes") {
    core::Rng rng(1);
    TransformerEncoderConfig config = small_encoder_config(2);
    TransformerEncoderParams p = TransformerEncoderParams::init(config, rng);
    const std::vector<core::TensorRef> tensors = models::tensors(p, config, "encoder");
    REQUIRE(tensors.size() == 1 + 16 * 2);
    CHECK(tensors[0].name == "encoder.embedding");
    CHECK(tensors[0].shape == std::vector<std::int64_t>{7, 8});
    CHECK(tensors[1].name == "encoder.layers.0.attn.w_q");
    CHECK(tensors[1].shape == std::vector<std::int64_t>{8, 8});
    CHECK(tensors[2].name == "encoder.layers.0.attn.b_q");
    CHECK(tensors[2].shape == std::vector<std::int64_t>{8});
    CHECK(tensors[9].name == "encoder.layers.0.ln1.gain");
    CHECK(tensors[11].name == "encoder.layers.0.ffn.w1");
    CHECK(tensors[11].shape == std::vector<std::int64_t>{12, 8});
    CHECK(tensors[32].name == "encoder.layers.1.ln2.bias");
    // The views write through to the parameters (a checkpoint loader fills them in place).
    tensors[9].data[3] = 2.5f;
    CHECK(p.layers[0].ln1.gain(3) == 2.5f);
    std::size_t total = 0;
    for (const core::TensorRef &t : tensors) total += t.data.size();
    CHECK(total == 7 * 8 + 2 * (4 * (8 * 8 + 8) + 2 * 8 + (12 * 8 + 12 + 8 * 12 + 8) + 2 * 8));
}

TEST_CASE("the encoder rejects bad configs, ids, masks and shapes with messages naming them") {
    TransformerEncoderConfig config = small_encoder_config(1);
    config.heads = 3;
    CHECK_THROWS_WITH_AS(config.validate(), "transformer config: d_model (8) must be a multiple of heads (3)",
                         std::invalid_argument);
    config = small_encoder_config(1);
    config.d_ff = 0;
    CHECK_THROWS_WITH_AS(config.validate(), "transformer config: d_ff must be > 0, got 0", std::invalid_argument);

    core::Rng rng(4);
    const TransformerEncoderParams p = TransformerEncoderParams::init(small_encoder_config(1), rng);
    TransformerEncoderCache cache;
    CHECK_THROWS_WITH_AS(transformer_encoder_forward(p, std::vector<int>{1, 7}, {}, cache),
                         "transformer_encoder_forward: id 7 at position 1 is outside the vocabulary of 7",
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(transformer_encoder_forward(p, std::vector<int>{1, 2}, std::vector<std::uint8_t>{1}, cache),
                         "transformer_encoder_forward: padding mask has 1 bytes for 2 ids", std::invalid_argument);
    CHECK_THROWS_WITH_AS(transformer_encoder_forward(p, std::vector<int>{1, 2}, std::vector<std::uint8_t>{0, 0}, cache),
                         "transformer_encoder_forward: padding mask has no real token", std::invalid_argument);
    CHECK_THROWS_WITH_AS(transformer_encoder_forward(p, std::vector<int>{}, {}, cache),
                         "transformer_encoder_forward: empty sequence", std::invalid_argument);

    transformer_encoder_forward(p, std::vector<int>{1, 2, 3}, {}, cache);
    TransformerEncoderParams grads = p.zeros_like();
    const Mat wrong = Mat::Zero(2, 8);
    CHECK_THROWS_WITH_AS(transformer_encoder_backward(p, cache, wrong, grads),
                         "transformer_encoder_backward: d_output is 2×8, expected 3×8", std::invalid_argument);

    TransformerLayerParams layer = p.layers[0];
    layer.ln2 = LayerNormParams::init(6);
    TransformerLayerCache layer_cache;
    const Mat x = Mat::Zero(3, 8);
    CHECK_THROWS_WITH_AS(
        transformer_layer_forward(layer, x, {}, layer_cache),
        "transformer_layer_forward: layer parts disagree on the model size: attn 8, ln1 8, ffn 8, ln2 6",
        std::invalid_argument);
    const Mat x6 = Mat::Zero(3, 6);
    CHECK_THROWS_WITH_AS(transformer_layer_forward(p.layers[0], x6, {}, layer_cache),
                         "transformer_layer_forward: x is 3×6, expected 3×8", std::invalid_argument);
}

TEST_CASE("a padded time-major batch encodes each sequence as if it were alone") {
    core::Rng rng(8);
    const TransformerEncoderConfig config = small_encoder_config(2);
    TransformerEncoderParams p = TransformerEncoderParams::init(config, rng);
    // B = 2, N = 3: sequence 0 = (3, 1, 4), sequence 1 = (2, 6) then a pad id.
    const std::vector<int> ids{3, 2, 1, 6, 4, 0};
    const std::vector<int> lengths{3, 2};
    TransformerBatchCache batch;
    transformer_encoder_forward_batch(p, ids, lengths, batch);
    TransformerEncoderCache first, second;
    transformer_encoder_forward(p, std::vector<int>{3, 1, 4}, {}, first);
    transformer_encoder_forward(p, std::vector<int>{2, 6}, {}, second);
    REQUIRE(batch.outputs.size() == 2);
    CHECK(batch.outputs[0] == first.output);
    CHECK(batch.outputs[1] == second.output);

    // The batch gradient is the sum of the two sequences' gradients.
    const std::vector<Mat> d_outputs{test::normal_mat(3, 8, rng), test::normal_mat(2, 8, rng)};
    TransformerEncoderParams batch_grads = p.zeros_like(), single_grads = p.zeros_like();
    transformer_encoder_backward_batch(p, batch, d_outputs, batch_grads);
    transformer_encoder_backward(p, first, d_outputs[0], single_grads);
    transformer_encoder_backward(p, second, d_outputs[1], single_grads);
    const auto a = tensors(batch_grads, config), b = tensors(single_grads, config);
    for (std::size_t i = 0; i < a.size(); ++i) {
        CAPTURE(a[i].name);
        CHECK(std::equal(a[i].data.begin(), a[i].data.end(), b[i].data.begin()));
    }
    CHECK(batch_grads.embedding.row(6).norm() > 0.0f);

    CHECK_THROWS_WITH_AS(transformer_encoder_forward_batch(p, ids, std::vector<int>{3, 4}, batch),
                         "transformer_encoder_forward_batch: length 4 of sequence 1 is outside [1, 3]",
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(transformer_encoder_forward_batch(p, std::vector<int>{1, 2, 3}, lengths, batch),
                         "transformer_encoder_forward_batch: 3 ids for a batch of 2 (expected N·B)",
                         std::invalid_argument);
}
