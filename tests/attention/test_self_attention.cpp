#include "attention/self_attention.hpp"
#include "attention/step.hpp"

#include "support/contains.hpp"
#include "support/gradcheck.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace apg;
using namespace apg::attention;
using apg::test::contains;
using apg::test::gradient_error;
using apg::test::span_of;

namespace {

// Every projection the identity and every bias zero: Q = K = V = X and Y = concat.
SelfAttentionParams identity_params(Eigen::Index d) {
    SelfAttentionParams p;
    p.w_q = p.w_k = p.w_v = p.w_o = Mat::Identity(d, d);
    p.b_q = p.b_k = p.b_v = p.b_o = Vec::Zero(d);
    return p;
}

// Parameters of order 1 (biases included) so that every gradient term is exercised.
SelfAttentionParams random_params(Eigen::Index d, core::Rng &rng) {
    SelfAttentionParams p;
    for (Mat *m : {&p.w_q, &p.w_k, &p.w_v, &p.w_o}) *m = test::random_mat(d, d, rng);
    for (Vec *v : {&p.b_q, &p.b_k, &p.b_v, &p.b_o}) *v = test::random_vec(d, rng, 0.5f);
    return p;
}

} // namespace

TEST_CASE("self-attention with identity projections computes softmax(X X^T / sqrt d) X by hand") {
    // d = 2, one head, X = [[1, 0], [0, 0]], b_o = [1, −1].
    // raw = X Xᵀ = [[1, 0], [0, 0]];  scaled row 0 = [1/√2, 0] → weights [σ(1/√2), 1 − σ(1/√2)]
    //   σ(0.70710678) = 0.66976155;  row 1 = [0, 0] → [0.5, 0.5]
    // head output = weights X: row 0 = [0.66976155, 0], row 1 = [0.5, 0];  Y = output + b_o
    SelfAttentionParams params = identity_params(2);
    params.b_o << 1, -1;
    Mat x(2, 2);
    x << 1, 0, 0, 0;
    SelfAttentionResult out;
    self_attention_forward(params, x, {}, out);
    REQUIRE(out.heads.size() == 1);
    const SelfAttentionHead &head = out.heads[0];
    CHECK(head.raw_scores(0, 0) == doctest::Approx(1.0));
    CHECK(head.scores(0, 0) == doctest::Approx(0.70710678));
    CHECK(head.weights(0, 0) == doctest::Approx(0.66976155));
    CHECK(head.weights(0, 1) == doctest::Approx(0.33023845));
    CHECK(head.weights(1, 0) == doctest::Approx(0.5));
    CHECK(head.output(0, 0) == doctest::Approx(0.66976155));
    CHECK(head.output(1, 0) == doctest::Approx(0.5));
    CHECK(out.output(0, 0) == doctest::Approx(1.66976155));
    CHECK(out.output(0, 1) == doctest::Approx(-1.0));
    CHECK(out.output(1, 0) == doctest::Approx(1.5));

    SUBCASE("causal masking leaves the first position only itself") {
        // Row 0 may see column 0 only: weight 1, output = x_0 = [1, 0]; the masked score is −∞.
        self_attention_forward(params, x, {.heads = 1, .padding_mask = {}, .causal = true}, out);
        CHECK(out.heads[0].weights(0, 0) == 1.0f);
        CHECK(out.heads[0].weights(0, 1) == 0.0f);
        CHECK(out.heads[0].scores(0, 1) == -std::numeric_limits<float>::infinity());
        CHECK(out.heads[0].raw_scores(0, 1) == 0.0f); // the raw score is kept unmasked
        CHECK(out.output(0, 0) == doctest::Approx(2.0));
        CHECK(out.heads[0].weights(1, 0) == doctest::Approx(0.5));
    }
}

TEST_CASE("every head equals the single-query attention step on its own columns") {
    // d = 6, h = 3 (dk = 2), n = 5, last position padded, with and without causal masking:
    // row r of head i must match attend(scaled_dot, q_r, K_i, V_i, mask row r).
    core::Rng rng(5);
    const Eigen::Index n = 5, d = 6;
    const SelfAttentionParams params = random_params(d, rng);
    const Mat x = test::random_mat(n, d, rng);
    const std::vector<std::uint8_t> padding{1, 1, 1, 1, 0};
    for (bool causal : {false, true}) {
        SUBCASE(causal ? "causal" : "bidirectional") {
            SelfAttentionResult out;
            self_attention_forward(params, x, {.heads = 3, .padding_mask = padding, .causal = causal}, out);
            REQUIRE(out.heads.size() == 3);
            ScoreParams scaled;
            scaled.kind = ScoreKind::scaled_dot;
            for (int h = 0; h < 3; ++h) {
                const SelfAttentionHead &head = out.heads[static_cast<std::size_t>(h)];
                CHECK(head.query.isApprox(out.query.middleCols(h * 2, 2)));
                for (Eigen::Index r = 0; r < n; ++r) {
                    CAPTURE(h);
                    CAPTURE(r);
                    const std::span<const std::uint8_t> mask(out.allowed.data() + r * n, static_cast<std::size_t>(n));
                    const Vec query = head.query.row(r).transpose();
                    const AttentionStep step = attend(scaled, query, head.key, head.value, {.mask = mask});
                    CHECK((head.weights.row(r).transpose() - step.weights).cwiseAbs().maxCoeff() < 1e-6f);
                    CHECK((head.output.row(r).transpose() - step.context).cwiseAbs().maxCoeff() < 1e-5f);
                    CHECK(head.weights(r, 4) == 0.0f); // padding is never attended to
                    if (causal && r + 1 < n) CHECK(head.weights(r, r + 1) == 0.0f);
                }
                CHECK(out.concat.middleCols(h * 2, 2).isApprox(head.output));
            }
        }
    }
}

TEST_CASE("self-attention backward matches central differences with padding and causal masks") {
    // n = 4 (last position padded), d = 4, h = 2, with and without causal masking.
    const std::vector<std::uint8_t> padding{1, 1, 1, 0};
    for (bool causal : {false, true}) {
        SUBCASE(causal ? "causal" : "bidirectional") {
            core::Rng rng(13);
            const Eigen::Index n = 4, d = 4;
            SelfAttentionParams params = random_params(d, rng);
            Mat x = test::random_mat(n, d, rng);
            const Mat coeffs = test::random_mat(n, d, rng);
            const SelfAttentionOptions options{.heads = 2, .padding_mask = padding, .causal = causal};

            auto loss = [&] {
                SelfAttentionResult out;
                self_attention_forward(params, x, options, out);
                return test::weighted_sum(span_of(out.output), span_of(coeffs));
            };

            SelfAttentionResult fwd;
            self_attention_forward(params, x, options, fwd);
            Mat d_x = Mat::Zero(n, d);
            SelfAttentionParams d_params = params.zeros_like();
            self_attention_backward(params, x, options, fwd, coeffs, d_x, d_params);

            CHECK(gradient_error(span_of(x), span_of(d_x), loss) <= 1.0);
            CHECK(gradient_error(span_of(params.w_q), span_of(d_params.w_q), loss) <= 1.0);
            CHECK(gradient_error(span_of(params.w_k), span_of(d_params.w_k), loss) <= 1.0);
            CHECK(gradient_error(span_of(params.w_v), span_of(d_params.w_v), loss) <= 1.0);
            CHECK(gradient_error(span_of(params.w_o), span_of(d_params.w_o), loss) <= 1.0);
            CHECK(gradient_error(span_of(params.b_q), span_of(d_params.b_q), loss) <= 1.0);
            CHECK(gradient_error(span_of(params.b_k), span_of(d_params.b_k), loss) <= 1.0);
            CHECK(gradient_error(span_of(params.b_v), span_of(d_params.b_v), loss) <= 1.0);
            CHECK(gradient_error(span_of(params.b_o), span_of(d_params.b_o), loss) <= 1.0);
            // b_k shifts every score of a row by the same amount, which softmax ignores.
            CHECK(d_params.b_k.cwiseAbs().maxCoeff() < 1e-5f);
            CHECK(d_params.w_q.norm() > 0.0f);

            // Backward accumulates: a second call doubles every gradient.
            const Mat d_x_once = d_x, d_w_q_once = d_params.w_q;
            self_attention_backward(params, x, options, fwd, coeffs, d_x, d_params);
            CHECK((d_x - 2.0f * d_x_once).norm() <= 1e-5f * (1.0f + d_x.norm()));
            CHECK((d_params.w_q - 2.0f * d_w_q_once).norm() <= 1e-5f * (1.0f + d_params.w_q.norm()));
        }
    }
}

TEST_CASE("self-attention parameters are initialised deterministically with zero biases") {
    core::Rng a(9), b(9);
    const SelfAttentionParams p = SelfAttentionParams::init(8, a), q = SelfAttentionParams::init(8, b);
    CHECK(p.w_v == q.w_v);
    CHECK(p.dim() == 8);
    CHECK(p.w_o.cwiseAbs().maxCoeff() <= 1.0f / std::sqrt(8.0f));
    CHECK(p.w_o.cwiseAbs().maxCoeff() > 0.25f / std::sqrt(8.0f));
    CHECK(p.b_q.isZero());
    CHECK(p.w_q != p.w_k);
    const SelfAttentionParams z = p.zeros_like();
    CHECK(z.w_k.rows() == 8);
    CHECK(z.w_k.isZero());
    CHECK(z.b_o.size() == 8);
}

TEST_CASE("self-attention rejects bad shapes and rows with nothing to attend to by name") {
    core::Rng rng(2);
    const SelfAttentionParams params = SelfAttentionParams::init(6, rng);
    const Mat x = Mat::Ones(3, 6);
    SelfAttentionResult out;
    auto forward_message = [&](const Mat &input, const SelfAttentionOptions &options) {
        return test::invalid_argument_message([&] { self_attention_forward(params, input, options, out); });
    };

    SUBCASE("d not divisible by the number of heads") {
        const std::string message = forward_message(x, {.heads = 4});
        CHECK(contains(message, "d = 6"));
        CHECK(contains(message, "heads = 4"));
    }
    SUBCASE("x of the wrong width") {
        const std::string message = forward_message(Mat::Ones(3, 5), {});
        CHECK(contains(message, "x is 3×5"));
        CHECK(contains(message, "d = 6"));
    }
    SUBCASE("an empty sequence") { CHECK(contains(forward_message(Mat(0, 6), {}), "0×6")); }
    SUBCASE("a padding mask of the wrong size") {
        const std::vector<std::uint8_t> padding{1, 1};
        const std::string message = forward_message(x, {.heads = 2, .padding_mask = padding});
        CHECK(contains(message, "padding mask has 2 bytes"));
        CHECK(contains(message, "3×6"));
    }
    SUBCASE("every position padded") {
        const std::vector<std::uint8_t> padding{0, 0, 0};
        CHECK(contains(forward_message(x, {.heads = 2, .padding_mask = padding}), "no key to attend to"));
    }
    SUBCASE("causal with the first position padded") {
        const std::vector<std::uint8_t> padding{0, 1, 1};
        const std::string message = forward_message(x, {.heads = 2, .padding_mask = padding, .causal = true});
        CHECK(contains(message, "position 0 of 3"));
        CHECK(contains(message, "causal"));
    }
    SUBCASE("a parameter of the wrong shape") {
        SelfAttentionParams bad = params;
        bad.w_v.resize(6, 5);
        const std::string message = test::invalid_argument_message([&] { self_attention_forward(bad, x, {}, out); });
        CHECK(contains(message, "W_v is 6×5, expected 6×6"));
    }
    SUBCASE("backward gradients of the wrong shape") {
        self_attention_forward(params, x, {.heads = 2}, out);
        Mat d_x = Mat::Zero(3, 6);
        SelfAttentionParams d_params = params.zeros_like();
        const std::string message = test::invalid_argument_message(
            [&] { self_attention_backward(params, x, {.heads = 2}, out, Mat::Ones(3, 4), d_x, d_params); });
        CHECK(contains(message, "d_output is 3×4, expected 3×6"));
    }
}

TEST_CASE("keeping only the outputs gives the outputs of the full pass, at every awkward length") {
    // The fused kernel (Keep::outputs) against the pass that keeps every intermediate, both
    // multi-head and a single head_forward, with padding and causal masks. Each is within the bound
    // of tests/core/test_attention.cpp of the exact output; with these inputs (|scores| ≤ 6.2,
    // dk = 4, so Σ|q_p k_p|·scale ≤ 12 and E = γ_5·12 ≈ 3.6e-6) that bound is ≈ 2(2E + 2u·12 + …)
    // ≈ 1.6e-5 of Σ_c w_c|v_c| ≤ max|v|, so 3e-5·(1 + max|y|) covers the two paths' difference
    // (measured: 6e-7). A key that leaks through a mask moves an output by 1e-2 or more.
    core::Rng rng(28);
    const Eigen::Index d = 8;
    const SelfAttentionParams params = random_params(d, rng);
    for (Eigen::Index n : {1, 3, 4, 5, 8, 17, 64, 65})
        for (bool causal : {false, true}) {
            CAPTURE(n);
            CAPTURE(causal);
            const Mat x = test::random_mat(n, d, rng);
            std::vector<std::uint8_t> padding(static_cast<std::size_t>(n), 1);
            if (n > 2) padding[static_cast<std::size_t>(n) - 1] = padding[1] = 0;
            SelfAttentionOptions options{.heads = 2, .padding_mask = padding, .causal = causal};
            SelfAttentionResult full, fast;
            self_attention_forward(params, x, options, full);
            options.keep = Keep::outputs;
            self_attention_forward(params, x, options, fast);
            CHECK(fast.heads.empty());
            const float tol = 3e-5f * (1.0f + full.concat.cwiseAbs().maxCoeff());
            CHECK((fast.concat - full.concat).cwiseAbs().maxCoeff() <= tol);
            // Y = concat W_oᵀ + b_o carries a difference of concat times at most W_o's largest row sum.
            CHECK((fast.output - full.output).cwiseAbs().maxCoeff() <=
                  tol * params.w_o.cwiseAbs().rowwise().sum().maxCoeff());

            SelfAttentionHead head = full.heads[1];
            head_forward(head, full.allowed, 0.5f, Keep::outputs);
            CHECK((head.output - full.heads[1].output).cwiseAbs().maxCoeff() <= tol);
            CHECK(head.weights == full.heads[1].weights); // left as they were
        }
}

TEST_CASE("backward refuses a forward pass that kept only its outputs") {
    core::Rng rng(3);
    const SelfAttentionParams params = SelfAttentionParams::init(4, rng);
    const Mat x = test::random_mat(3, 4, rng);
    SelfAttentionResult fwd;
    self_attention_forward(params, x, {.heads = 2, .keep = Keep::outputs}, fwd);
    Mat d_x = Mat::Zero(3, 4);
    SelfAttentionParams d_params = params.zeros_like();
    const std::string message = test::invalid_argument_message(
        [&] { self_attention_backward(params, x, {.heads = 2}, fwd, Mat::Ones(3, 4), d_x, d_params); });
    CHECK(contains(message, "0 heads"));
    CHECK(contains(message, "keeps only its outputs"));
}
