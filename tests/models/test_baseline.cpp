// The fixed-vector baseline (score none): no attention parameters, one context at every step,
// the encoder's final states [→h_n; ←h_1]; its gradients against finite differences.
#include "io/checkpoint.hpp"
#include "io/model.hpp"
#include "models/seq2seq.hpp"

#include "support/model_gradcheck.hpp"
#include "support/tiny_config.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

using namespace apg;
using namespace apg::models;

namespace {

using attention::ScoreKind;
using testing::tiny_config;

using test::tiny_batch;

bool attention_tensor(const std::string &name) { return name.rfind("decoder.attn.", 0) == 0; }

} // namespace

TEST_CASE("a model without attention has no attention tensors and reads and writes score \"none\"") {
    for (AttentionStyle style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
        CAPTURE(name(style));
        const ModelConfig none = tiny_config(ScoreKind::none, style);
        int attn = 0;
        for (const TensorShape &t : tensor_shapes(none)) attn += attention_tensor(t.name) ? 1 : 0;
        CHECK(attn == 0);
        // The same model with dot attention (which has no tensors either) has exactly the same list.
        CHECK(tensor_shapes(none) == tensor_shapes(tiny_config(ScoreKind::dot, style)));
        CHECK(tensor_shapes(none).size() + 3 == tensor_shapes(tiny_config(ScoreKind::additive, style)).size());
        CHECK(none.to_json()["score"] == "none");
        CHECK(ModelConfig::from_json(none.to_json()).score == ScoreKind::none);
    }
    CHECK(attention::parse_score_kind("none") == ScoreKind::none);
    // none is not a score function: the lists of them (the page's picker, the tests' loops) leave it out.
    for (ScoreKind kind : attention::all_score_kinds) CHECK(kind != ScoreKind::none);
}

TEST_CASE("score none needs a GRU encoder, and its parameters refuse to score") {
    ModelConfig c = tiny_config(ScoreKind::none, AttentionStyle::bahdanau);
    c.encoder = EncoderKind::transformer;
    c.embedding = 4;
    c.heads = 2;
    CHECK_THROWS_WITH_AS(c.validate(), doctest::Contains("needs the gru encoder"), std::invalid_argument);
    core::Rng rng(1);
    const attention::ScoreParams params = attention::ScoreParams::init(ScoreKind::none, 4, 4, 3, rng);
    Mat keys = Mat::Ones(2, 4);
    attention::ScoreResult out;
    CHECK_THROWS_WITH_AS(attention::score_forward(params, Vec::Ones(4), keys, {}, out),
                         doctest::Contains("has no score function"), std::invalid_argument);
}

TEST_CASE("without attention every step's context is [last forward state; first backward state] and s_0 reads it") {
    for (AttentionStyle style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
        CAPTURE(name(style));
        Seq2Seq model(tiny_config(ScoreKind::none, style), 5);
        const std::vector<int> source = {4, 5, 3, 5};
        const EncoderOutput enc = model.encode(source);
        const Mat &H = enc.states; // 4 × (2 + 2): row j = [→h_j; ←h_j]
        REQUIRE(H.rows() == 4);
        const Vec fixed = (Vec(4) << H(3, 0), H(3, 1), H(0, 2), H(0, 3)).finished();
        CHECK(enc.fixed.rows() == 1);
        CHECK((enc.fixed.row(0).transpose() - fixed).cwiseAbs().maxCoeff() == 0.0f);
        CHECK(enc.keys.projected.size() + enc.keys.norms.size() == 0);
        // s_0 = tanh(W_init c + b_init), by hand in double
        const DecoderParams &d = model.parameters().decoder;
        for (Eigen::Index k = 0; k < d.init_w.rows(); ++k) {
            double z = d.init_b[k];
            for (Eigen::Index m = 0; m < 4; ++m) z += double{d.init_w(k, m)} * fixed[m];
            CHECK(enc.initial_state[k] == doctest::Approx(std::tanh(z)).epsilon(1e-5));
        }
        Vec state = enc.initial_state;
        for (int token : {1, 3, 6, 4}) {
            const DecoderStep s = model.step(enc, state, token);
            CHECK(s.attention.score.scores.size() == 0);
            CHECK(s.attention.weights.size() == 0);
            CHECK(s.attention.context == fixed);
            state = s.state;
        }
    }
}

TEST_CASE("the baseline's gradients, encoder included, match finite differences for both styles") {
    for (AttentionStyle style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
        CAPTURE(name(style));
        Seq2Seq model(tiny_config(ScoreKind::none, style), 42);
        const BatchResult result = test::check_model_gradients(model, tiny_batch(), 12);
        CHECK(result.tokens == 6);
    }
}

TEST_CASE("the baseline's step-by-step decoding reproduces its teacher-forced training pass") {
    for (AttentionStyle style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
        CAPTURE(name(style));
        Seq2Seq model(tiny_config(ScoreKind::none, style), 7);
        const Batch batch = tiny_batch();
        TrainingWorkspace ws;
        model.forward_backward(batch, nullptr, ws);
        const EncoderOutput enc = model.encode(std::vector<int>{4, 5, 3});
        Vec state = enc.initial_state;
        const int inputs[] = {1, 3, 6, 4};
        for (int i = 0; i < 4; ++i) {
            const DecoderStep s = model.step(enc, state, inputs[i]);
            const int r = i * batch.size;
            CHECK((s.probs.transpose() - ws.decoder.probs.row(r)).cwiseAbs().maxCoeff() < 1e-5f);
            CHECK((s.attention.context.transpose() - ws.decoder.contexts.row(r)).cwiseAbs().maxCoeff() < 1e-6f);
            state = s.state;
        }
    }
}

TEST_CASE("a baseline checkpoint holds no attention tensors, says score none, and round-trips") {
    const io::Vocabulary letters({"<pad>", "<s>", "</s>", "<unk>", "a", "b", "c"}, io::Tokenizer::characters);
    const ModelConfig c =
        tiny_config(ScoreKind::none, AttentionStyle::bahdanau, {.source_vocab = 7, .max_target_len = 6});
    const io::Model model(Seq2Seq(c, 9), letters, letters);
    const auto bytes = model.save();
    const io::Checkpoint file = io::load_safetensors(bytes);
    for (const auto &entry : file.tensors) CHECK_MESSAGE(!attention_tensor(entry.first), entry.first);
    CHECK(file.tensors.count("decoder.init.w") == 1);
    CHECK(nlohmann::json::parse(file.metadata.at("config"))["score"] == "none");
    const io::Model loaded = io::Model::load(bytes);
    CHECK(loaded.config().score == ScoreKind::none);
    const io::Translation a = model.translate("abca"), b = loaded.translate("abca");
    CHECK(a.output_tokens == b.output_tokens);
    CHECK(a.weights.cols() == 0); // no alignment: there are no weights
    CHECK(a.weights.rows() == static_cast<Eigen::Index>(a.steps.size()));
}
