// The parameter registry (core/params.hpp): every Params struct lists each of its tensors
// once, with the shape its config gives, and the views, zeros and checks derive from that list.
#include "core/params.hpp"
#include "models/seq2seq.hpp"

#include "support/tiny_config.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace apg;
using namespace apg::models;
using attention::ScoreKind;

namespace {

using ParamShape = std::vector<std::int64_t>;

// The parameter count of a config, from the formulas in the headers' shape comments.
std::int64_t expected_count(const ModelConfig &c) {
    const std::int64_t E = c.embedding, He = c.encoder_hidden, Hd = c.decoder_hidden, dh = c.encoder_state(),
                       da = c.attention_dim, Vs = c.source_vocab, Vt = c.target_vocab;
    auto gru = [](std::int64_t in, std::int64_t h) { return 3 * h * in + 3 * h * h + 6 * h; };
    std::int64_t n = 0;
    if (c.encoder == EncoderKind::gru) {
        n += Vs * E + gru(E, He) * (c.bidirectional ? 2 : 1);
    } else {
        const std::int64_t d = E, f = c.ff_hidden;
        n += Vs * d + c.layers * (4 * (d * d + d) + 2 * 2 * d + (f * d + f + d * f + d));
    }
    const bool bahdanau = c.style == AttentionStyle::bahdanau;
    n += Hd * dh + Hd + Vt * E + gru(bahdanau ? E + dh : E, Hd);
    if (c.score == ScoreKind::general) n += Hd * dh;
    if (c.score == ScoreKind::additive) n += da * Hd + da * dh + da;
    if (c.score == ScoreKind::scaled_cosine) n += 1; // g
    if (!bahdanau) n += Hd * (dh + Hd);
    n += Vt * (bahdanau ? Hd + dh + E : Hd) + Vt;
    return n;
}

std::vector<ModelConfig> every_kind_of_config() {
    std::vector<ModelConfig> out;
    for (ScoreKind score : attention::all_score_kinds)
        for (AttentionStyle style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
            ModelConfig c = testing::tiny_config(score, style);
            out.push_back(c);
            c.bidirectional = false;
            c.decoder_hidden = c.encoder_hidden; // dot-like scores need the query as wide as a state
            out.push_back(c);
            c = testing::tiny_config(score, style, {.embedding = 4});
            c.encoder = EncoderKind::transformer;
            c.heads = 2;
            c.layers = 2;
            c.ff_hidden = 6;
            out.push_back(c);
        }
    return out;
}

} // namespace

TEST_CASE("every config's tensors are listed once each, with unique names and the config's count") {
    for (const ModelConfig &c : every_kind_of_config()) {
        CAPTURE(name(c.encoder));
        CAPTURE(c.bidirectional);
        CAPTURE(attention::name(c.score));
        CAPTURE(name(c.style));
        Parameters p = init_parameters(c, 3);
        const std::vector<TensorRef> list = tensors(p, c);
        std::set<std::string> names;
        std::set<const float *> storage;
        std::int64_t count = 0;
        for (const TensorRef &t : list) {
            CHECK(names.insert(t.name).second);
            CHECK(storage.insert(t.data.data()).second);
            std::int64_t size = 1;
            for (std::int64_t d : t.shape) size *= d;
            CHECK(size == static_cast<std::int64_t>(t.data.size()));
            count += size;
        }
        CHECK(count == expected_count(c));

        // zeros() has the same list, every value 0; zeros_like() too.
        Parameters z = zeros(c);
        const std::vector<TensorRef> zero_list = tensors(z, c);
        REQUIRE(zero_list.size() == list.size());
        for (std::size_t i = 0; i < list.size(); ++i) {
            CHECK(zero_list[i].name == list[i].name);
            CHECK(zero_list[i].shape == list[i].shape);
            CHECK(std::all_of(zero_list[i].data.begin(), zero_list[i].data.end(), [](float x) { return x == 0; }));
        }
        Parameters g = zeros_like(p, c);
        CHECK(tensors(g, c).size() == list.size());
    }
}

TEST_CASE("a bidirectional additive Bahdanau model lists its tensors by module path with the config's shapes") {
    // Vs 6, Vt 7, E 3, He 2 (dh 4), Hd 4, da 3.
    const ModelConfig c = testing::tiny_config(ScoreKind::additive, AttentionStyle::bahdanau);
    Parameters p = init_parameters(c, 1);
    const std::vector<std::pair<std::string, ParamShape>> want = {
        {"encoder.embedding", {6, 3}}, {"encoder.fwd.w_ih", {6, 3}},  {"encoder.fwd.w_hh", {6, 2}},
        {"encoder.fwd.b_ih", {6}},     {"encoder.fwd.b_hh", {6}},     {"encoder.bwd.w_ih", {6, 3}},
        {"encoder.bwd.w_hh", {6, 2}},  {"encoder.bwd.b_ih", {6}},     {"encoder.bwd.b_hh", {6}},
        {"decoder.init.w", {4, 4}},    {"decoder.init.b", {4}},       {"decoder.embedding", {7, 3}},
        {"decoder.gru.w_ih", {12, 7}}, {"decoder.gru.w_hh", {12, 4}}, {"decoder.gru.b_ih", {12}},
        {"decoder.gru.b_hh", {12}},    {"decoder.attn.w_q", {3, 4}},  {"decoder.attn.w_k", {3, 4}},
        {"decoder.attn.v", {3}},       {"decoder.out.w", {7, 11}},    {"decoder.out.b", {7}}};
    const std::vector<TensorRef> list = tensors(p, c);
    REQUIRE(list.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        CHECK(list[i].name == want[i].first);
        CHECK(list[i].shape == want[i].second);
    }
    // The views write through (the checkpoint loader fills them in place).
    list.back().data[2] = 1.5f;
    CHECK(p.decoder.out_b(2) == 1.5f);
}

TEST_CASE("a tensor or a setting that does not fit the config is named in a logic_error") {
    const ModelConfig c = testing::tiny_config(ScoreKind::additive, AttentionStyle::luong);
    Parameters p = init_parameters(c, 1);
    p.decoder.out_b.resize(5);
    CHECK_THROWS_WITH_AS(tensors(p, c), "decoder.out.b is 5 long, its config wants 7", std::logic_error);
    p = init_parameters(c, 1);
    p.decoder.combine_w.resize(4, 3);
    CHECK_THROWS_WITH_AS(tensors(p, c), "decoder.combine.w is 4x3, its config wants 4x8", std::logic_error);
    p = init_parameters(c, 1);
    p.decoder.attn.kind = ScoreKind::dot;
    CHECK_THROWS_WITH_AS(tensors(p, c), doctest::Contains("decoder.attn.kind is"), std::logic_error);

    ModelConfig t = testing::tiny_config(ScoreKind::dot, AttentionStyle::bahdanau, {.embedding = 4});
    t.encoder = EncoderKind::transformer;
    t.heads = 2;
    t.layers = 2;
    t.ff_hidden = 6;
    t.decoder_hidden = 4;
    Parameters q = init_parameters(t, 1);
    q.transformer.layers[1].heads = 1;
    CHECK_THROWS_WITH_AS(tensors(q, t), "encoder.layers.1.heads is 1, its config wants 2", std::logic_error);
    q = init_parameters(t, 1);
    q.transformer.layers.pop_back();
    CHECK_THROWS_WITH_AS(tensors(q, t), "encoder.layers is 1 entries, its config wants 2", std::logic_error);
    // A Seq2Seq refuses such parameters at construction.
    CHECK_THROWS_AS(Seq2Seq(t, q), std::logic_error);
}

TEST_CASE("a layer's zeros_like keeps its settings and shapes") {
    core::Rng rng(2);
    TransformerEncoderConfig config;
    config.vocab = 5;
    config.d_model = 6;
    config.heads = 3;
    config.d_ff = 7;
    config.layers = 2;
    config.activation = nn::Activation::gelu;
    config.ln_eps = 1e-3f;
    const TransformerEncoderParams p = TransformerEncoderParams::init(config, rng);
    TransformerEncoderParams z = p.zeros_like();
    REQUIRE(z.layers.size() == 2);
    CHECK(z.layers[1].heads == 3);
    CHECK(z.layers[1].ffn.activation == nn::Activation::gelu);
    CHECK(z.layers[1].ln2.eps == 1e-3f);
    CHECK(z.layers[0].ffn.w2.rows() == 6);
    CHECK(z.layers[0].ffn.w2.cols() == 7);
    CHECK(z.embedding.rows() == 5);
    CHECK(tensors(z, config).size() == 1 + 2 * 16);
    CHECK(z.embedding.norm() == 0.0f);
}
