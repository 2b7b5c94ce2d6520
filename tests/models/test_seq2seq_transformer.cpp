// The seq2seq model with a Transformer encoder (config encoder = "transformer"): gradients of
// the whole model, inference vs training, config and checkpoint round trips.
#include "io/checkpoint.hpp"
#include "io/model.hpp"
#include "models/seq2seq.hpp"

#include "support/model_gradcheck.hpp"
#include "support/tiny_config.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace apg;
using namespace apg::models;
using namespace apg::nn;
using namespace apg::io;

namespace {

// d = 4 split over 2 heads, 2 layers, decoder state 4 (= d, so dot-product scores fit).
ModelConfig tiny_transformer(attention::ScoreKind score, AttentionStyle style) {
    ModelConfig c = testing::tiny_config(score, style, {.embedding = 4});
    c.encoder = EncoderKind::transformer;
    c.heads = 2;
    c.layers = 2;
    c.ff_hidden = 6;
    return c;
}

using test::tiny_batch;

} // namespace

TEST_CASE("a transformer-encoder model's gradients match finite differences, encoder included") {
    for (AttentionStyle style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
        for (attention::ScoreKind score : {attention::ScoreKind::additive, attention::ScoreKind::dot}) {
            CAPTURE(name(style));
            CAPTURE(attention::name(score));
            Seq2Seq model(tiny_transformer(score, style), 5);
            test::check_model_gradients(model, tiny_batch(), 8);
            int encoder_tensors = 0; // the encoder's layers are among the tensors checked
            for (const TensorRef &t : model.tensors())
                if (t.name.rfind("encoder.layers.", 0) == 0) ++encoder_tensors;
            CHECK(encoder_tensors == 2 * 16); // per layer: 8 attention, 2 + 2 layer norm, 4 feed-forward
        }
    }
}

TEST_CASE("encoding one source reproduces the batched training pass and keeps every layer's attention") {
    Seq2Seq model(tiny_transformer(attention::ScoreKind::additive, AttentionStyle::bahdanau), 3);
    TrainingWorkspace ws;
    model.forward_backward(tiny_batch(), nullptr, ws);
    const EncoderOutput enc = model.encode(std::vector<int>{5, 4});
    CHECK(enc.states.rows() == 2);
    CHECK(enc.states.cols() == 4);
    CHECK((enc.states - ws.transformer.outputs[1]).cwiseAbs().maxCoeff() < 1e-6f);
    REQUIRE(enc.self_attention);
    REQUIRE(enc.self_attention->layers.size() == 2);
    const auto &heads = enc.self_attention->layers[1].attn.heads;
    REQUIRE(heads.size() == 2);
    for (const auto &h : heads)
        for (Eigen::Index i = 0; i < 2; ++i) CHECK(h.weights.row(i).sum() == doctest::Approx(1.0f));
    CHECK(enc.self_attention->output == enc.states);
    // The GRU encoder has no self-attention to show.
    Seq2Seq gru(testing::tiny_config(attention::ScoreKind::additive, AttentionStyle::bahdanau), 3);
    CHECK_FALSE(gru.encode(std::vector<int>{5, 4}).self_attention);
}

TEST_CASE("the config names the encoder; configs written before the transformer read as GRU") {
    const ModelConfig t = tiny_transformer(attention::ScoreKind::additive, AttentionStyle::luong);
    CHECK(t.encoder_state() == 4);
    const nlohmann::json j = t.to_json();
    CHECK(j["encoder"] == "transformer");
    CHECK(j["heads"] == 2);
    CHECK(ModelConfig::from_json(j).to_json() == j);
    const nlohmann::json old = testing::tiny_config(attention::ScoreKind::dot, AttentionStyle::luong).to_json();
    CHECK_FALSE(old.contains("encoder"));
    CHECK(ModelConfig::from_json(old).encoder == EncoderKind::gru);

    nlohmann::json bad = j;
    bad["heads"] = 3;
    CHECK_THROWS_WITH_AS(ModelConfig::from_json(bad),
                         doctest::Contains("embedding (4) must be a multiple of heads (3)"), std::invalid_argument);
    bad = j;
    bad.erase("layers");
    CHECK_THROWS_WITH_AS(ModelConfig::from_json(bad), doctest::Contains("missing field \"layers\""),
                         std::invalid_argument);
    bad = j;
    bad["encoder"] = "lstm";
    CHECK_THROWS_WITH_AS(ModelConfig::from_json(bad), doctest::Contains("valid: gru, transformer"),
                         std::invalid_argument);
    ModelConfig dot = tiny_transformer(attention::ScoreKind::dot, AttentionStyle::luong);
    dot.decoder_hidden = 5;
    CHECK_THROWS_WITH_AS(dot.validate(), doctest::Contains("encoder state size (4 = embedding)"),
                         std::invalid_argument);
}

TEST_CASE("a transformer checkpoint round trip gives identical outputs and self-attention weights") {
    const Vocabulary letters({"<pad>", "<s>", "</s>", "<unk>", "a", "b", "c"}, Tokenizer::characters);
    ModelConfig c = tiny_transformer(attention::ScoreKind::general, AttentionStyle::bahdanau);
    c.source_vocab = 7;
    c.max_target_len = 6;
    const Model model(Seq2Seq(c, 11), letters, letters, {{"seed", 11}});
    const auto bytes = model.save();
    const Model loaded = Model::load(bytes);
    CHECK(loaded.config().to_json() == model.config().to_json());
    const Translation a = model.translate("abca"), b = loaded.translate("abca");
    CHECK(a.output_tokens == b.output_tokens);
    CHECK(a.weights == b.weights);
    const auto ids = model.encode_source("abca");
    const EncoderOutput ea = model.network().encode(ids), eb = loaded.network().encode(ids);
    for (std::size_t l = 0; l < 2; ++l)
        for (std::size_t h = 0; h < 2; ++h)
            CHECK(ea.self_attention->layers[l].attn.heads[h].weights ==
                  eb.self_attention->layers[l].attn.heads[h].weights);
    CHECK(loaded.save() == bytes);

    // A file whose config says 3 layers but holds 2 is refused, naming the missing tensor.
    Checkpoint edited = load_safetensors(bytes);
    nlohmann::json meta = nlohmann::json::parse(edited.metadata.at("config"));
    meta["layers"] = 3;
    edited.metadata["config"] = meta.dump();
    CHECK_THROWS_WITH_AS(Model::load(save_safetensors(edited)), doctest::Contains("encoder.layers.2.attn.w_q"),
                         std::runtime_error);
}

TEST_CASE("a GELU transformer keeps its activation through a checkpoint, and a config without one is ReLU") {
    const Vocabulary letters({"<pad>", "<s>", "</s>", "<unk>", "a", "b", "c"}, Tokenizer::characters);
    ModelConfig c = tiny_transformer(attention::ScoreKind::additive, AttentionStyle::bahdanau);
    c.source_vocab = 7;
    c.max_target_len = 6;
    c.activation = Activation::gelu;
    const Model model(Seq2Seq(c, 5), letters, letters, {{"seed", 5}});
    for (const auto &layer : model.network().parameters().transformer.layers)
        CHECK(layer.ffn.activation == Activation::gelu);
    CHECK(c.to_json()["activation"] == "gelu");
    const Model loaded = Model::load(model.save());
    CHECK(loaded.config().activation == Activation::gelu);
    for (const auto &layer : loaded.network().parameters().transformer.layers)
        CHECK(layer.ffn.activation == Activation::gelu);
    const auto ids = model.encode_source("abca");
    CHECK(model.network().encode(ids).states == loaded.network().encode(ids).states);

    // The same weights run through ReLU give other encoder states: the activation is really used.
    ModelConfig relu = c;
    relu.activation = Activation::relu;
    Parameters params = model.network().parameters();
    for (auto &layer : params.transformer.layers) layer.ffn.activation = Activation::relu;
    const Seq2Seq as_relu(relu, params);
    CHECK(as_relu.encode(ids).states != model.network().encode(ids).states);

    // Checkpoints written before the field existed name no activation: ReLU, and saved without it.
    nlohmann::json j = relu.to_json();
    CHECK_FALSE(j.contains("activation"));
    CHECK(ModelConfig::from_json(j).activation == Activation::relu);
    j["activation"] = "swish";
    CHECK_THROWS_WITH_AS(ModelConfig::from_json(j), doctest::Contains("unknown activation \"swish\""),
                         std::invalid_argument);
    // Parameters whose activation differs from the config are refused.
    CHECK_THROWS_WITH_AS(Seq2Seq(c, params), doctest::Contains("encoder.layers.0.ffn.activation"), std::logic_error);
}
