// The Transformer decoder: every parameter's gradient against finite differences (over the
// Transformer encoder's states and, through a projection, the BiGRU's), decoding with the key/value
// cache against the teacher-forced pass, and its config and tensors.
#include "core/error.hpp"
#include "models/seq2seq.hpp"
#include "models/transformer_decoder.hpp"
#include "nn/positional_encoding.hpp"

#include "support/gradcheck.hpp"
#include "support/model_gradcheck.hpp"
#include "support/tiny_config.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace apg;
using namespace apg::models;

namespace {

// GELU keeps every function smooth, so no difference quotient straddles a kink.
TransformerDecoderConfig small_decoder_config(int memory) {
    TransformerDecoderConfig c;
    c.vocab = 7;
    c.d_model = 8;
    c.heads = 2;
    c.d_ff = 12;
    c.layers = 2;
    c.memory = memory;
    c.activation = nn::Activation::gelu;
    return c;
}

// Random (not the init's zero) biases and non-unit layer-norm gains, so their gradients matter.
void randomise(TransformerDecoderParams &p, core::Rng &rng) {
    for (auto &layer : p.layers) {
        for (auto *attn : {&layer.self_attn, &layer.cross_attn})
            for (Vec *b : {&attn->b_q, &attn->b_k, &attn->b_v, &attn->b_o}) *b = test::normal_vec(b->size(), rng, 0.3f);
        for (auto *ln : {&layer.ln1, &layer.ln2, &layer.ln3}) {
            ln->gain = Vec::Ones(ln->gain.size()) + test::normal_vec(ln->gain.size(), rng, 0.3f);
            ln->bias = test::normal_vec(ln->bias.size(), rng, 0.3f);
        }
    }
    if (p.memory_b.size() > 0) p.memory_b = test::normal_vec(p.memory_b.size(), rng, 0.3f);
    p.out_b = test::normal_vec(p.out_b.size(), rng, 0.3f);
}

// A tiny seq2seq model with a Transformer decoder over either encoder.
ModelConfig tiny_model(EncoderKind encoder) {
    ModelConfig c = testing::tiny_config(attention::ScoreKind::scaled_dot, AttentionStyle::luong, {.embedding = 4});
    c.encoder = encoder;
    c.decoder = DecoderKind::transformer;
    c.heads = 2;
    c.layers = 2;
    c.ff_hidden = 6;
    c.activation = nn::Activation::gelu;
    c.encoder_hidden = 3; // the BiGRU's states are 6 wide, so the decoder projects them to d = 4
    return c;
}

} // namespace

TEST_CASE("the decoder's gradients match finite differences for the encoder states and every parameter") {
    // memory 8 = d: the Transformer encoder's states as they are; memory 6: the BiGRU's, projected.
    for (int memory : {8, 6}) {
        CAPTURE(memory);
        core::Rng rng(11);
        const TransformerDecoderConfig config = small_decoder_config(memory);
        TransformerDecoderParams p = TransformerDecoderParams::init(config, rng);
        randomise(p, rng);
        Mat H = test::normal_mat(4, memory, rng);
        // Token 3 fed twice, so its embedding row gathers two positions' gradients.
        const std::vector<int> inputs{1, 3, 5, 3};
        const Mat r = test::normal_mat(4, config.vocab, rng);

        TransformerDecoderCache cache;
        transformer_decoder_forward(p, H, inputs, cache);
        TransformerDecoderParams grads = core::zeros<TransformerDecoderParams>(config);
        Mat d_H = Mat::Zero(H.rows(), H.cols());
        transformer_decoder_backward(p, H, cache, r, grads, d_H);

        auto loss = [&] {
            TransformerDecoderCache c;
            transformer_decoder_forward(p, H, inputs, c);
            return test::weighted_sum(c.logits, r);
        };
        test::check_gradient("H", view(H), view(d_H), loss, test::nonzero_gradient);
        const auto values = core::views(p, "decoder", config), gradients = core::views(grads, "decoder", config);
        REQUIRE(values.size() == gradients.size());
        CHECK(values.size() == (memory == 8 ? 3 : 5) + 2 * 26);
        for (std::size_t i = 0; i < values.size(); ++i)
            // softmax ignores the constant qᵀb_k a key bias adds to a whole row of scores
            test::check_gradient(values[i].name, values[i].data, gradients[i].data, loss,
                                 test::GradCheck::composed().expecting(values[i].name.ends_with("attn.b_k")
                                                                           ? test::GradCheck::Expect::zero
                                                                           : test::GradCheck::Expect::nonzero));
        // The unused token 6 gets no gradient.
        CHECK(grads.embedding.row(6).norm() == 0.0f);
    }
}

TEST_CASE("a later position cannot change an earlier one's output (the causal mask)") {
    core::Rng rng(3);
    const TransformerDecoderConfig config = small_decoder_config(8);
    const TransformerDecoderParams p = TransformerDecoderParams::init(config, rng);
    const Mat H = test::normal_mat(3, 8, rng);
    TransformerDecoderCache a, b;
    transformer_decoder_forward(p, H, std::vector<int>{1, 4, 2}, a);
    transformer_decoder_forward(p, H, std::vector<int>{1, 4, 6}, b);
    // Masked keys get a weight of exactly 0 and the products run row by row, so rows 0 and 1 agree exactly.
    CHECK(a.logits.topRows(2) == b.logits.topRows(2));
    CHECK(a.logits.row(2) != b.logits.row(2));
}

TEST_CASE("decoding step by step with the key/value cache gives the teacher-forced pass's numbers") {
    register_transformer_decoder();
    for (int memory : {8, 6}) {
        CAPTURE(memory);
        core::Rng rng(21);
        const TransformerDecoderConfig config = small_decoder_config(memory);
        TransformerDecoderParams p = TransformerDecoderParams::init(config, rng);
        randomise(p, rng);
        const Mat H = test::normal_mat(5, memory, rng);
        const std::vector<int> inputs{1, 4, 2, 5, 3};
        TransformerDecoderCache full;
        transformer_decoder_forward(p, H, inputs, full);

        TransformerMemory memory_cache;
        prepare_memory(p, H, memory_cache);
        KeyValueCache cache;
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            CAPTURE(i);
            DecoderStep step;
            transformer_decoder_step(p, memory_cache, cache, inputs[i], {}, true, step);
            REQUIRE(step.transformer);
            const TransformerDecoderStep &s = *step.transformer;
            cache.append(s);
            CHECK(cache.size() == static_cast<int>(i) + 1);
            // The batched pass sums its products in another grouping (Eigen's blocked GEMM against the
            // kernels' lanes of 4, over T rows instead of one), so the same numbers agree to float
            // rounding, ~1e-6 here, not bit for bit.
            const Eigen::Index row = static_cast<Eigen::Index>(i);
            CHECK((step.logits.transpose() - full.logits.row(row)).cwiseAbs().maxCoeff() <= 2e-5f);
            for (std::size_t l = 0; l < 2; ++l) {
                const TransformerDecoderLayerCache &layer = full.layers[l];
                CHECK((s.output.row(static_cast<Eigen::Index>(l)) - layer.output.row(row)).cwiseAbs().maxCoeff() <=
                      2e-5f);
                for (int h = 0; h < 2; ++h) {
                    const auto &self = layer.self_attn.heads[static_cast<std::size_t>(h)];
                    const auto &cross = layer.cross.heads[static_cast<std::size_t>(h)];
                    const std::size_t t = i + 1, at = l * 2 + static_cast<std::size_t>(h);
                    for (std::size_t j = 0; j < t; ++j)
                        CHECK(s.self_weights[at * t + j] ==
                              doctest::Approx(self.weights(row, static_cast<Eigen::Index>(j))).epsilon(1e-5));
                    // The positions after this one are not computed by the step, and weigh 0 in the full pass.
                    for (std::size_t j = t; j < inputs.size(); ++j)
                        CHECK(self.weights(row, static_cast<Eigen::Index>(j)) == 0.0f);
                    for (std::size_t j = 0; j < 5; ++j)
                        CHECK(s.cross_weights[at * 5 + j] ==
                              doctest::Approx(cross.weights(row, static_cast<Eigen::Index>(j))).epsilon(1e-5));
                }
            }
            CHECK(s.self_weights.size() == 2 * 2 * (i + 1));
            CHECK(s.self_key.size() == 2 * 2 * (i + 1) * 4);
            CHECK(s.cross_key.size() == 2 * 2 * 5 * 4);
            // The step's own alignment: the last layer's heads averaged.
            const auto &last = full.layers[1].cross.heads;
            CHECK((step.attention.weights.transpose() - (last[0].weights.row(row) + last[1].weights.row(row)) / 2)
                      .cwiseAbs()
                      .maxCoeff() <= 1e-5f);
            CHECK(step.attention.weights.sum() == doctest::Approx(1.0f));
        }
    }
}

TEST_CASE("a step's what-ifs: a head switched off adds nothing, a pinned head takes the given weights") {
    register_transformer_decoder();
    core::Rng rng(5);
    const TransformerDecoderConfig config = small_decoder_config(8);
    const TransformerDecoderParams p = TransformerDecoderParams::init(config, rng);
    const Mat H = test::normal_mat(3, 8, rng);
    TransformerMemory memory;
    prepare_memory(p, H, memory);
    const KeyValueCache empty;
    DecoderStep plain, edited;
    transformer_decoder_step(p, memory, empty, 1, {}, false, plain);

    TransformerEdits edits;
    edits.head_off = {0, 1, 0, 0};                           // layer 0, head 1
    edits.head_weights = {{}, {}, {0.25f, 0.75f, 0.0f}, {}}; // layer 1, head 0
    edits.head_masks = {{1, 0, 1}, {}, {}, {}};              // layer 0, head 0 does not see token 1
    transformer_decoder_step(p, memory, empty, 1, edits, false, edited);
    const TransformerDecoderStep &s = *edited.transformer;
    // Layer 0, head 1 switched off: its context is 0.
    for (int k = 0; k < 4; ++k) CHECK(s.cross_context[static_cast<std::size_t>(1 * 4 + k)] == 0.0f);
    // Layer 0, head 0 masked: weight 0 on token 1, the rest renormalised.
    CHECK(s.cross_weights[1] == 0.0f);
    CHECK(s.cross_weights[0] + s.cross_weights[2] == doctest::Approx(1.0f));
    // Layer 1, head 0 pinned.
    CHECK(s.cross_weights[2 * 3 + 0] == 0.25f);
    CHECK(s.cross_weights[2 * 3 + 1] == 0.75f);
    CHECK(s.head_off == std::vector<float>{0, 1, 0, 0});
    CHECK(s.head_pinned == std::vector<float>{0, 0, 1, 0});
    CHECK(s.head_masked == std::vector<float>{0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    CHECK(edited.logits != plain.logits);
    // The same step without what-ifs is the plain one, bit for bit.
    DecoderStep again;
    transformer_decoder_step(p, memory, empty, 1, {}, false, again);
    CHECK(again.logits == plain.logits);
    // Temperature divides the scores for the softmax only: layer 0's scores shown stay q·k/√dk
    // (layer 1's query then follows from layer 0's other weights).
    TransformerEdits hot;
    hot.temperature = 4.0f;
    DecoderStep tempered;
    transformer_decoder_step(p, memory, empty, 1, hot, false, tempered);
    const auto layer0 = [](const std::vector<float> &v) { return std::vector<float>(v.begin(), v.begin() + 2 * 3); };
    CHECK(layer0(tempered.transformer->cross_scores) == layer0(plain.transformer->cross_scores));
    CHECK(layer0(tempered.transformer->cross_weights) != layer0(plain.transformer->cross_weights));
}

TEST_CASE("a seq2seq model with a transformer decoder: gradients of the whole model, either encoder") {
    const Batch batch = make_batch({{4, 5, 3}, {5, 4}}, {{3, 6, 4}, {5}}, 0, 1, 2);
    for (EncoderKind encoder : {EncoderKind::transformer, EncoderKind::gru}) {
        CAPTURE(name(encoder));
        Seq2Seq model(tiny_model(encoder), 7);
        test::check_model_gradients(model, batch, 8);
        int decoder_tensors = 0;
        for (const TensorRef &t : model.tensors())
            if (t.name.rfind("decoder.", 0) == 0) ++decoder_tensors;
        // embedding, out.{w,b}, 26 per layer (8 + 8 attention, 3 × 2 layer norm, 4 feed-forward); the BiGRU's 2 · 3
        // states are projected to d = 4
        CHECK(decoder_tensors == 3 + 2 * 26 + (encoder == EncoderKind::gru ? 2 : 0));
    }
}

TEST_CASE("greedy decoding with the transformer decoder equals the teacher-forced pass on its own output") {
    register_transformer_decoder();
    Seq2Seq model(tiny_model(EncoderKind::transformer), 2);
    const EncoderOutput encoded = model.encode(std::vector<int>{4, 5, 3});
    REQUIRE(encoded.transformer);
    CHECK(encoded.keys.projected.size() == 0); // nothing of the GRU decoder's is computed
    const std::vector<DecoderStep> steps = model.greedy(encoded, 1, 2);
    REQUIRE(!steps.empty());
    std::vector<int> inputs{1};
    for (std::size_t i = 0; i + 1 < steps.size(); ++i) {
        Eigen::Index best;
        steps[i].probs.maxCoeff(&best);
        inputs.push_back(static_cast<int>(best));
    }
    TransformerDecoderCache full;
    transformer_decoder_forward(model.parameters().transformer_decoder, encoded.states, inputs, full);
    for (std::size_t i = 0; i < steps.size(); ++i)
        CHECK((steps[i].logits.transpose() - full.logits.row(static_cast<Eigen::Index>(i))).cwiseAbs().maxCoeff() <=
              2e-5f);
    CHECK_THROWS_AS(model.step(encoded, Vec(), 1), StateError);
}

TEST_CASE("the config names the decoder; configs written before it read as the GRU decoder") {
    const ModelConfig c = tiny_model(EncoderKind::gru);
    const nlohmann::json j = c.to_json();
    CHECK(j["decoder"] == "transformer");
    CHECK(j["heads"] == 2);
    CHECK_FALSE(j.contains("encoder"));
    CHECK(ModelConfig::from_json(j).to_json() == j);
    CHECK(ModelConfig::from_json(j).decoder == DecoderKind::transformer);
    const nlohmann::json old = testing::tiny_config(attention::ScoreKind::dot, AttentionStyle::luong).to_json();
    CHECK_FALSE(old.contains("decoder"));
    CHECK(ModelConfig::from_json(old).decoder == DecoderKind::gru);

    nlohmann::json bad = j;
    bad["decoder"] = "lstm";
    CHECK_THROWS_WITH(ModelConfig::from_json(bad), "model config: unknown decoder \"lstm\" (valid: gru, transformer)");
    ModelConfig additive = c;
    additive.score = attention::ScoreKind::additive;
    CHECK_THROWS_WITH(additive.validate(), "model config: a transformer decoder's cross-attention is scaled "
                                           "dot-product: score must be \"scaled_dot\", got \"additive\"");
    ModelConfig bahdanau = c;
    bahdanau.style = AttentionStyle::bahdanau;
    CHECK_THROWS_AS(bahdanau.validate(), InputError);
    ModelConfig odd = c;
    odd.heads = 3;
    CHECK_THROWS_WITH(odd.validate(), "model config: a transformer's embedding (4) must be a multiple of heads (3)");
}

TEST_CASE("the decoder's tensors are listed by module path with their shapes") {
    const ModelConfig c = tiny_model(EncoderKind::gru);
    std::vector<std::string> names;
    for (const TensorShape &t : tensor_shapes(c))
        if (t.name.rfind("decoder.", 0) == 0) names.push_back(t.name);
    CHECK(names.front() == "decoder.embedding");
    CHECK(names[1] == "decoder.memory.w");
    CHECK(names[3] == "decoder.layers.0.self_attn.w_q");
    CHECK(std::find(names.begin(), names.end(), "decoder.layers.1.cross_attn.w_k") != names.end());
    CHECK(std::find(names.begin(), names.end(), "decoder.layers.1.ln3.gain") != names.end());
    CHECK(names.back() == "decoder.out.b");
    const auto shapes = tensor_shapes(c);
    const auto memory_w =
        std::find_if(shapes.begin(), shapes.end(), [](const auto &t) { return t.name == "decoder.memory.w"; });
    CHECK(memory_w->shape == std::vector<std::int64_t>{4, 6}); // d × dh: 2 · encoder_hidden 3
}
