// A tiny Transformer-decoder model's step records against its decode written out by hand in double
// precision from the model's parameters: token embeddings plus positional codes, per layer the
// masked self-attention over every position so far (recomputed, no cache), the cross-attention over
// the encoder states, the feed-forward block and the three layer norms, then the output layer. The
// records (record::to_record, what the exports and the page read) must carry the same numbers at
// every step, what-ifs on one head included.
#include "decode/record_schema.hpp"
#include "decode/session.hpp"

#include "support/tiny_config.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace apg;
using namespace apg::models;
using namespace apg::decode;

namespace {

using Md = Eigen::MatrixXd; // rows are positions
using Vd = Eigen::VectorXd;

Md to_double(const Mat &m) { return m.cast<double>(); }

// y = x Wᵀ + b, row by row.
Md linear(const Md &x, const Mat &w, const Vec &b) {
    return (x * to_double(w).transpose()).rowwise() + b.cast<double>().transpose();
}

Md layer_norm(const Md &x, const nn::LayerNormParams &p) {
    Md y(x.rows(), x.cols());
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
        const double mean = x.row(r).mean();
        const double var = (x.row(r).array() - mean).square().mean();
        const Eigen::RowVectorXd normalized = (x.row(r).array() - mean) / std::sqrt(var + p.eps);
        y.row(r) = normalized.cwiseProduct(p.gain.cast<double>().transpose()) + p.bias.cast<double>().transpose();
    }
    return y;
}

// What the reference applies at the last position: one head's own mask and one head switched off.
struct HeadWhatIf {
    int masked_layer = -1, masked_head = -1, masked_token = -1;
    int off_layer = -1, off_head = -1;
};

struct Attention {
    std::vector<Vd> scores, weights; // per head, the last query's
    Md output;                       // all queries' outputs, through W_o
};

// Multi-head scaled dot-product attention of queries x over memory m; query r sees key c when
// visible(r, c, head). A head switched off for query r (off(r, head)) adds nothing but b_o.
template <class Visible, class Off>
Attention attend(const attention::SelfAttentionParams &p, int heads, const Md &x, const Md &m, Visible visible,
                 Off off) {
    const Md Q = linear(x, p.w_q, p.b_q), K = linear(m, p.w_k, p.b_k), V = linear(m, p.w_v, p.b_v);
    const Eigen::Index dk = Q.cols() / heads;
    Md concat = Md::Zero(x.rows(), Q.cols());
    Attention out;
    for (int h = 0; h < heads; ++h) {
        for (Eigen::Index r = 0; r < x.rows(); ++r) {
            Vd e(m.rows());
            double top = -std::numeric_limits<double>::infinity();
            for (Eigen::Index c = 0; c < m.rows(); ++c) {
                e[c] = Q.row(r).segment(h * dk, dk).dot(K.row(c).segment(h * dk, dk)) / std::sqrt(double(dk));
                if (visible(r, c, h)) top = std::max(top, e[c]);
            }
            Vd w = Vd::Zero(m.rows());
            for (Eigen::Index c = 0; c < m.rows(); ++c)
                if (visible(r, c, h)) w[c] = std::exp(e[c] - top);
            w /= w.sum();
            if (!off(r, h)) concat.row(r).segment(h * dk, dk) = w.transpose() * V.middleCols(h * dk, dk);
            if (r + 1 == x.rows()) {
                for (Eigen::Index c = 0; c < m.rows(); ++c)
                    if (!visible(r, c, h)) e[c] = -std::numeric_limits<double>::infinity();
                out.scores.push_back(e);
                out.weights.push_back(w);
            }
        }
    }
    out.output = linear(concat, p.w_o, p.b_o);
    return out;
}

struct HandDecode {
    std::vector<Attention> self, cross; // per layer
    Md layer_output;                    // L × d, the last position's x_l
    Vd logits, probs, x0;
};

// The decoder over positions 0..i (inputs[0..i]) from scratch; what-ifs at the last position only.
HandDecode decode_by_hand(const Seq2Seq &model, const Md &H, const std::vector<int> &inputs, const HeadWhatIf &what) {
    const TransformerDecoderParams &p = model.parameters().transformer_decoder;
    const int heads = model.config().heads;
    const Eigen::Index T = static_cast<Eigen::Index>(inputs.size()), d = p.dim();
    Md x(T, d);
    for (Eigen::Index pos = 0; pos < T; ++pos)
        for (Eigen::Index k = 0; 2 * k < d; ++k) {
            const double angle = double(pos) / std::pow(10000.0, 2.0 * double(k) / double(d));
            x(pos, 2 * k) = std::sin(angle) + p.embedding(inputs[pos], 2 * k);
            x(pos, 2 * k + 1) = std::cos(angle) + p.embedding(inputs[pos], 2 * k + 1);
        }
    HandDecode ref;
    ref.x0 = x.row(T - 1).transpose();
    const Md M = p.memory_w.size() > 0 ? linear(H, p.memory_w, p.memory_b) : H;
    ref.layer_output.resize(static_cast<Eigen::Index>(p.layers.size()), d);
    for (std::size_t l = 0; l < p.layers.size(); ++l) {
        const TransformerDecoderLayerParams &layer = p.layers[l];
        const int li = static_cast<int>(l);
        const Attention self = attend(
            layer.self_attn, heads, x, x, [](Eigen::Index r, Eigen::Index c, int) { return c <= r; },
            [](Eigen::Index, int) { return false; });
        const Md u = layer_norm(x + self.output, layer.ln1);
        const Attention cross = attend(
            layer.cross_attn, heads, u, M,
            [&](Eigen::Index r, Eigen::Index c, int h) {
                return !(r + 1 == T && li == what.masked_layer && h == what.masked_head && c == what.masked_token);
            },
            [&](Eigen::Index r, int h) { return r + 1 == T && li == what.off_layer && h == what.off_head; });
        const Md v = layer_norm(u + cross.output, layer.ln2);
        const Md hidden = linear(v, layer.ffn.w1, layer.ffn.b1).cwiseMax(0.0); // ReLU
        x = layer_norm(v + linear(hidden, layer.ffn.w2, layer.ffn.b2), layer.ln3);
        ref.self.push_back(self);
        ref.cross.push_back(cross);
        ref.layer_output.row(static_cast<Eigen::Index>(l)) = x.row(T - 1);
    }
    ref.logits = linear(x.bottomRows(1), p.out_w, p.out_b).row(0).transpose();
    ref.probs = (ref.logits.array() - ref.logits.maxCoeff()).exp().matrix();
    ref.probs /= ref.probs.sum();
    return ref;
}

double gap(const trace::Tensor &t, const std::vector<double> &want) {
    REQUIRE(t.size() == want.size());
    double worst = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
        // −∞ at a masked score on both sides
        if (std::isinf(want[i]) && std::isinf(t.data()[i])) continue;
        worst = std::max(worst, std::abs(double(t.data()[i]) - want[i]));
    }
    return worst;
}

// The L × h × … tensor of one kind of vector per layer and head.
std::vector<double> flat(const std::vector<Attention> &layers, std::vector<Vd> Attention::*member) {
    std::vector<double> out;
    for (const Attention &a : layers)
        for (const Vd &v : a.*member) out.insert(out.end(), v.data(), v.data() + v.size());
    return out;
}

std::vector<double> flat(const Vd &v) { return {v.data(), v.data() + v.size()}; }
std::vector<double> flat(const Md &m) {
    std::vector<double> out;
    for (Eigen::Index r = 0; r < m.rows(); ++r)
        for (Eigen::Index c = 0; c < m.cols(); ++c) out.push_back(m(r, c));
    return out;
}

} // namespace

TEST_CASE("a tiny transformer decoder's step records equal its decode written out by hand in double precision") {
    register_transformer_decoder();
    // d = 4 in 2 heads, 2 layers, ReLU; over the Transformer encoder's states and, projected, the BiGRU's.
    for (EncoderKind encoder : {EncoderKind::transformer, EncoderKind::gru}) {
        CAPTURE(name(encoder));
        ModelConfig c = testing::tiny_config(attention::ScoreKind::scaled_dot, AttentionStyle::luong,
                                             {.source_vocab = 7,
                                              .target_vocab = 6,
                                              .embedding = 4,
                                              .encoder_hidden = 3,
                                              .max_source_len = 8,
                                              .max_target_len = 5});
        c.encoder = encoder;
        c.decoder = DecoderKind::transformer;
        c.heads = 2;
        c.layers = 2;
        c.ff_hidden = 6;
        const Seq2Seq model(c, 31);
        const std::vector<int> source{4, 5, 6, 4};
        DecodeSession session(model, source);
        const Md H = to_double(session.encoded().states);
        const std::vector<int> forced{3, 5, 4};
        std::vector<int> inputs{1}; // <s>
        const std::vector<std::string> names{"<pad>", "<s>", "</s>", "<unk>", "a", "b"};
        for (std::size_t i = 0; i < forced.size(); ++i) {
            CAPTURE(i);
            HeadWhatIf what;
            if (i == 2) { // at the third step: layer 1's head 0 without source token 3, layer 0's head 1 off
                what = {.masked_layer = 1, .masked_head = 0, .masked_token = 3, .off_layer = 0, .off_head = 1};
                session.mask_head(1, 0, 3);
                session.switch_head(0, 1, false);
            }
            const SessionStep &step = session.force(forced[i]);
            const trace::StepRecord r = record::to_record(step, static_cast<int>(i), names);
            const HandDecode ref = decode_by_hand(model, H, inputs, what);
            // Float32 against double through ~10 products of width 4-6 and three layer norms a layer.
            constexpr double tolerance = 2e-5;
            CHECK(gap(r.get("prev_state"), flat(ref.x0)) < tolerance);
            CHECK(gap(r.get("self_scores"), flat(ref.self, &Attention::scores)) < tolerance);
            CHECK(gap(r.get("self_weights"), flat(ref.self, &Attention::weights)) < tolerance);
            CHECK(gap(r.get("cross_scores"), flat(ref.cross, &Attention::scores)) < tolerance);
            CHECK(gap(r.get("cross_weights"), flat(ref.cross, &Attention::weights)) < tolerance);
            CHECK(gap(r.get("layer_output"), flat(ref.layer_output)) < tolerance);
            CHECK(gap(r.get("logits"), flat(ref.logits)) < tolerance);
            CHECK(gap(r.get("probs"), flat(ref.probs)) < tolerance);
            CHECK(gap(r.get("state"), flat(Vd(ref.layer_output.bottomRows(1).transpose()))) < tolerance);
            CHECK(gap(r.get("weights"), flat(Vd((ref.cross.back().weights[0] + ref.cross.back().weights[1]) / 2))) <
                  tolerance);
            CHECK(gap(r.get("context"), flat(Vd(ref.cross.back().output.bottomRows(1).transpose()))) < tolerance);
            CHECK(r.get("self_weights").shape() == std::vector<std::size_t>{2, 2, i + 1});
            if (i == 2) {
                CHECK(r.get("cross_weights")(1, 0, 3) == 0.0f);
                CHECK(r.get("head_off")(0, 1) == 1.0f);
            }
            inputs.push_back(forced[i]);
        }
    }
}
