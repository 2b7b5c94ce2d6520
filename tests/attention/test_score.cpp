#include "attention/score.hpp"

#include "core/kernels.hpp"
#include "support/contains.hpp"
#include "support/gradcheck.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

using namespace apg;
using namespace apg::attention;
using apg::test::contains;
using apg::test::gradient_error;
using apg::test::span_of;

namespace {

Vec scores_of(const ScoreParams &params, const Vec &query, const Mat &keys) {
    ScoreResult out;
    score_forward(params, query, keys, prepare_keys(params, keys), out);
    return out.scores;
}

} // namespace

TEST_CASE("score kinds round-trip through their names and an unknown name lists the valid ones") {
    for (ScoreKind kind : all_score_kinds) CHECK(parse_score_kind(name(kind)) == kind);
    CHECK(name(ScoreKind::scaled_dot) == "scaled_dot");
    const std::string message = test::invalid_argument_message([] { parse_score_kind("bilinear"); });
    CHECK(contains(message, "\"bilinear\""));
    CHECK(contains(message, "dot, scaled_dot, general, additive, cosine, scaled_cosine"));
}

TEST_CASE("dot score is the plain inner product with each key") {
    // q = [1, 2];  k_1 = [3, 4] → 3 + 8 = 11;  k_2 = [−1, 0.5] → −1 + 1 = 0
    ScoreParams params; // dot has no parameters
    Vec q(2);
    q << 1, 2;
    Mat keys(2, 2);
    keys << 3, 4, -1, 0.5f;
    const Vec e = scores_of(params, q, keys);
    CHECK(e[0] == doctest::Approx(11.0));
    CHECK(e[1] == doctest::Approx(0.0));
}

TEST_CASE("scaled dot score divides the inner product by the square root of the key size") {
    // dk = 4, √4 = 2.  q = [1, 2, 0, 1];  k_1 = [2, 1, 0, 0] → 4 / 2 = 2;  k_2 = [0, 0, 3, −1] → −1 / 2 = −0.5
    ScoreParams params;
    params.kind = ScoreKind::scaled_dot;
    Vec q(4);
    q << 1, 2, 0, 1;
    Mat keys(2, 4);
    keys << 2, 1, 0, 0, 0, 0, 3, -1;
    const Vec e = scores_of(params, q, keys);
    CHECK(e[0] == doctest::Approx(2.0));
    CHECK(e[1] == doctest::Approx(-0.5));
}

TEST_CASE("general score is the bilinear form q^T W k and caches W k per key") {
    // W = [[1, 2, 0], [0, 1, 1]] (dq = 2, dk = 3), q = [1, −1]
    // k_1 = [1, 0, 2]: W k_1 = [1, 2] → 1 − 2 = −1
    // k_2 = [0, 1, 1]: W k_2 = [2, 2] → 2 − 2 = 0
    // k_3 = [3, 1, 0]: W k_3 = [5, 1] → 5 − 1 = 4
    ScoreParams params;
    params.kind = ScoreKind::general;
    params.w.resize(2, 3);
    params.w << 1, 2, 0, 0, 1, 1;
    Vec q(2);
    q << 1, -1;
    Mat keys(3, 3);
    keys << 1, 0, 2, 0, 1, 1, 3, 1, 0;
    const KeyCache cache = prepare_keys(params, keys);
    REQUIRE(cache.projected.rows() == 3);
    REQUIRE(cache.projected.cols() == 2);
    CHECK(cache.projected(2, 0) == doctest::Approx(5.0));
    CHECK(cache.projected(2, 1) == doctest::Approx(1.0));
    const Vec e = scores_of(params, q, keys);
    CHECK(e[0] == doctest::Approx(-1.0));
    CHECK(e[1] == doctest::Approx(0.0));
    CHECK(e[2] == doctest::Approx(4.0));
}

TEST_CASE("additive score is v^T tanh(W_q q + W_k k) and keeps every hidden row") {
    // da = 2, dq = dk = 1.  W_q = [[1], [0]], W_k = [[0], [1]], v = [1, 2], q = [0.5]
    // k_1 = [0]: a = [0.5, 0] → h = [tanh 0.5, 0]          → e = 0.46211716
    // k_2 = [1]: a = [0.5, 1] → h = [tanh 0.5, tanh 1]     → e = 0.46211716 + 2·0.76159416 = 1.98530548
    ScoreParams params;
    params.kind = ScoreKind::additive;
    params.w_q.resize(2, 1);
    params.w_q << 1, 0;
    params.w_k.resize(2, 1);
    params.w_k << 0, 1;
    params.v.resize(2);
    params.v << 1, 2;
    Vec q(1);
    q << 0.5f;
    Mat keys(2, 1);
    keys << 0, 1;
    ScoreResult out;
    score_forward(params, q, keys, prepare_keys(params, keys), out);
    CHECK(out.query_proj[0] == doctest::Approx(0.5));
    CHECK(out.query_proj[1] == doctest::Approx(0.0));
    CHECK(out.hidden(0, 0) == doctest::Approx(0.46211716));
    CHECK(out.hidden(0, 1) == doctest::Approx(0.0));
    CHECK(out.hidden(1, 1) == doctest::Approx(0.76159416));
    CHECK(out.scores[0] == doctest::Approx(0.46211716));
    CHECK(out.scores[1] == doctest::Approx(1.98530548));
}

TEST_CASE("cosine score is the cosine of the angle and a zero vector scores zero") {
    // q = [3, 4], ‖q‖ = 5.  [6, 8] → 50/50 = 1;  [4, −3] → 0;  [−1, 0] → −3/5;  [0, 0] → 0 (clamped norm)
    ScoreParams params;
    params.kind = ScoreKind::cosine;
    Vec q(2);
    q << 3, 4;
    Mat keys(4, 2);
    keys << 6, 8, 4, -3, -1, 0, 0, 0;
    ScoreResult out;
    score_forward(params, q, keys, prepare_keys(params, keys), out);
    CHECK(out.query_norm == doctest::Approx(5.0));
    CHECK(out.scores[0] == doctest::Approx(1.0));
    CHECK(out.scores[1] == doctest::Approx(0.0));
    CHECK(out.scores[2] == doctest::Approx(-0.6));
    CHECK(out.scores[3] == 0.0f);

    SUBCASE("a zero query scores zero everywhere and has a finite gradient") {
        const Vec zero = Vec::Zero(2);
        const KeyCache cache = prepare_keys(params, keys);
        score_forward(params, zero, keys, cache, out);
        for (Eigen::Index j = 0; j < 4; ++j) CHECK(out.scores[j] == 0.0f);
        Vec d_query = Vec::Zero(2);
        Mat d_keys = Mat::Zero(4, 2);
        ScoreParams d_params = params.zeros_like();
        score_backward(params, zero, keys, cache, out, Vec::Ones(4), d_query, d_keys, d_params);
        CHECK(d_query.allFinite());
        CHECK(d_keys.allFinite());
    }
}

TEST_CASE("scaled cosine score is the learned scale times the cosine") {
    // q = [3, 4], ‖q‖ = 5, g = 2.5.  [6, 8] → 2.5 · 1;  [4, −3] → 0;  [−1, 0] → 2.5 · (−3/5) = −1.5
    core::Rng rng(1);
    ScoreParams params = ScoreParams::init(ScoreKind::scaled_cosine, 2, 2, 0, rng);
    params.scale[0] = 2.5f;
    Vec q(2);
    q << 3, 4;
    Mat keys(3, 2);
    keys << 6, 8, 4, -3, -1, 0;
    ScoreResult out;
    score_forward(params, q, keys, prepare_keys(params, keys), out);
    CHECK(out.query_norm == doctest::Approx(5.0));
    CHECK(out.scale == 2.5f);
    CHECK(out.cosines[0] == doctest::Approx(1.0));
    CHECK(out.cosines[2] == doctest::Approx(-0.6));
    CHECK(out.scores[0] == doctest::Approx(2.5));
    CHECK(out.scores[1] == doctest::Approx(0.0));
    CHECK(out.scores[2] == doctest::Approx(-1.5));

    SUBCASE("the other kinds report a scale of 1 and no cosines") {
        params.kind = ScoreKind::cosine;
        score_forward(params, q, keys, prepare_keys(params, keys), out);
        CHECK(out.scale == 1.0f);
        CHECK(out.cosines.size() == 0);
        CHECK(out.scores[2] == doctest::Approx(-0.6));
    }
    SUBCASE("dg is the sum of the cosines weighted by dL/de") {
        const KeyCache cache = prepare_keys(params, keys);
        Vec d_query = Vec::Zero(2);
        Mat d_keys = Mat::Zero(3, 2);
        ScoreParams d_params = params.zeros_like();
        Vec d_scores(3);
        d_scores << 1, 2, -1; // dg = 1 · 1 + 2 · 0 − 1 · (−0.6) = 1.6
        score_backward(params, q, keys, cache, out, d_scores, d_query, d_keys, d_params);
        CHECK(d_params.scale[0] == doctest::Approx(1.6));
    }
    SUBCASE("g without its one element is refused by name") {
        params.scale.resize(0);
        CHECK(contains(test::invalid_argument_message([&] { scores_of(params, q, keys); }),
                       "the scale g has 0 elements, expected 1"));
    }
}

TEST_CASE("scaled cosine starts at g = sqrt(dk) and draws nothing from the generator") {
    core::Rng a(5), b(5);
    const ScoreParams p = ScoreParams::init(ScoreKind::scaled_cosine, 128, 128, 64, a);
    REQUIRE(p.scale.size() == 1);
    CHECK(p.scale[0] == doctest::Approx(std::sqrt(128.0)));
    CHECK(initial_cosine_scale(16) == 4.0f);
    // The rest of a model then initialises exactly as the plain cosine model of the same seed.
    CHECK(a.next_u64() == b.next_u64());
    const ScoreParams z = p.zeros_like();
    CHECK(z.kind == ScoreKind::scaled_cosine);
    REQUIRE(z.scale.size() == 1);
    CHECK(z.scale[0] == 0.0f);
}

TEST_CASE("scaled cosine scores from the SIMD kernels equal those from the scalar kernels and a double reference") {
    // score_forward runs the kernels the build chose (SIMD here); the same computation spelled out
    // with core::scalar:: kernels, and in double, must agree to float rounding.
    core::Rng rng(23);
    const Eigen::Index n = 9, d = 37; // not a multiple of 4: the SIMD tails too
    ScoreParams params = ScoreParams::init(ScoreKind::scaled_cosine, d, d, 0, rng);
    params.scale[0] = 7.25f;
    const Vec q = test::random_vec(d, rng);
    const Mat keys = test::random_mat(n, d, rng);
    ScoreResult out;
    score_forward(params, q, keys, prepare_keys(params, keys), out);
    const float qn = std::sqrt(core::scalar::dot(view(q), view(q)));
    Vec dots(n);
    core::scalar::gemv(view(keys), view(q), view(dots), n, d);
    for (Eigen::Index j = 0; j < n; ++j) {
        CAPTURE(j);
        const float kn = std::sqrt(core::scalar::dot(row(keys, j), row(keys, j)));
        const float scalar = params.scale[0] * (dots[j] / (qn * kn));
        const double exact = 7.25 * q.cast<double>().dot(keys.row(j).transpose().cast<double>()) /
                             (q.cast<double>().norm() * keys.row(j).cast<double>().norm());
        CHECK(std::abs(out.scores[j] - scalar) <= 1e-5f);
        CHECK(std::abs(out.scores[j] - exact) <= 1e-5);
    }
}

TEST_CASE("score_backward matches central differences for every score function") {
    // n = 4 keys, dq = dk = 3 for the kinds that need equal sizes; general and additive use dk = 5.
    for (ScoreKind kind : all_score_kinds) {
        SUBCASE(std::string(name(kind)).c_str()) {
            core::Rng rng(7);
            const bool same = kind != ScoreKind::general && kind != ScoreKind::additive;
            const Eigen::Index n = 4, dq = 3, dk = same ? 3 : 5, da = 4;
            ScoreParams params = ScoreParams::init(kind, dq, dk, da, rng);
            // The checker needs parameters of order 1, not the ±1/√fan_in of init.
            for (Mat *m : {&params.w, &params.w_q, &params.w_k}) *m = test::random_mat(m->rows(), m->cols(), rng);
            params.v = test::random_vec(params.v.size(), rng);
            if (kind == ScoreKind::scaled_cosine) params.scale[0] = 2.3f; // g ≠ √dk and ≠ 1
            Vec query = test::random_vec(dq, rng);
            Mat keys = test::random_mat(n, dk, rng);
            const Vec coeffs = test::random_vec(n, rng);

            auto loss = [&] {
                ScoreResult out;
                score_forward(params, query, keys, prepare_keys(params, keys), out);
                return test::weighted_sum(span_of(out.scores), span_of(coeffs));
            };

            const KeyCache cache = prepare_keys(params, keys);
            ScoreResult fwd;
            score_forward(params, query, keys, cache, fwd);
            Vec d_query = Vec::Zero(dq);
            Mat d_keys = Mat::Zero(n, dk);
            ScoreParams d_params = params.zeros_like();
            score_backward(params, query, keys, cache, fwd, coeffs, d_query, d_keys, d_params);

            CHECK(gradient_error(span_of(query), span_of(d_query), loss) <= 1.0);
            CHECK(gradient_error(span_of(keys), span_of(d_keys), loss) <= 1.0);
            if (kind == ScoreKind::general) CHECK(gradient_error(span_of(params.w), span_of(d_params.w), loss) <= 1.0);
            if (kind == ScoreKind::additive) {
                CHECK(gradient_error(span_of(params.w_q), span_of(d_params.w_q), loss) <= 1.0);
                CHECK(gradient_error(span_of(params.w_k), span_of(d_params.w_k), loss) <= 1.0);
                CHECK(gradient_error(span_of(params.v), span_of(d_params.v), loss) <= 1.0);
            }
            if (kind == ScoreKind::scaled_cosine) {
                REQUIRE(d_params.scale.size() == 1);
                CHECK(std::abs(d_params.scale[0]) > 1e-3f); // the check below is not of a zero gradient
                CHECK(gradient_error(span_of(params.scale), span_of(d_params.scale), loss) <= 1.0);
            }

            // Backward accumulates: a second call doubles every gradient.
            const Vec d_query_once = d_query;
            const Mat d_keys_once = d_keys;
            score_backward(params, query, keys, cache, fwd, coeffs, d_query, d_keys, d_params);
            CHECK((d_query - 2.0f * d_query_once).norm() <= 1e-5f * (1.0f + d_query.norm()));
            CHECK((d_keys - 2.0f * d_keys_once).norm() <= 1e-5f * (1.0f + d_keys.norm()));
        }
    }
}

TEST_CASE("score parameters are initialised deterministically within plus or minus one over root fan-in") {
    core::Rng a(42), b(42);
    const ScoreParams p = ScoreParams::init(ScoreKind::additive, 6, 8, 16, a);
    const ScoreParams p2 = ScoreParams::init(ScoreKind::additive, 6, 8, 16, b);
    CHECK(p.w_q == p2.w_q);
    CHECK(p.v == p2.v);
    CHECK(p.w_q.rows() == 16);
    CHECK(p.w_q.cols() == 6);
    CHECK(p.w_k.cols() == 8);
    CHECK(p.w_q.cwiseAbs().maxCoeff() <= 1.0f / std::sqrt(6.0f));
    CHECK(p.w_k.cwiseAbs().maxCoeff() <= 1.0f / std::sqrt(8.0f));
    CHECK(p.w_q.cwiseAbs().maxCoeff() > 0.5f / std::sqrt(6.0f)); // not all near zero
    const ScoreParams z = p.zeros_like();
    CHECK(z.kind == ScoreKind::additive);
    CHECK(z.w_k.rows() == 16);
    CHECK(z.w_k.cols() == 8);
    CHECK(z.w_k.isZero());
    CHECK(z.v.size() == 16);
}

TEST_CASE("score functions reject shapes that do not fit with a message naming them") {
    Vec q3 = Vec::Ones(3);
    Mat keys4 = Mat::Ones(2, 4);

    SUBCASE("dot needs query and keys of the same size") {
        ScoreParams params;
        const std::string message = test::invalid_argument_message([&] { scores_of(params, q3, keys4); });
        CHECK(contains(message, "dot score"));
        CHECK(contains(message, "query of 3"));
        CHECK(contains(message, "4 columns"));
    }
    SUBCASE("general needs W of dq × dk") {
        core::Rng rng(1);
        const ScoreParams params = ScoreParams::init(ScoreKind::general, 3, 5, 0, rng);
        const std::string message = test::invalid_argument_message([&] { scores_of(params, q3, keys4); });
        CHECK(contains(message, "3×5"));
        CHECK(contains(message, "2×4"));
    }
    SUBCASE("additive needs v of size da") {
        core::Rng rng(1);
        ScoreParams params = ScoreParams::init(ScoreKind::additive, 3, 4, 6, rng);
        params.v.resize(5);
        const std::string message = test::invalid_argument_message([&] { scores_of(params, q3, keys4); });
        CHECK(contains(message, "v has 5 elements, expected 6"));
    }
    SUBCASE("no keys") {
        ScoreParams params;
        const std::string message = test::invalid_argument_message([&] { scores_of(params, q3, Mat(0, 3)); });
        CHECK(contains(message, "no keys"));
        CHECK(contains(message, "0×3"));
    }
    SUBCASE("a key cache made for other keys") {
        core::Rng rng(1);
        const ScoreParams params = ScoreParams::init(ScoreKind::general, 3, 4, 0, rng);
        const KeyCache cache = prepare_keys(params, Mat::Ones(5, 4));
        ScoreResult out;
        const std::string message =
            test::invalid_argument_message([&] { score_forward(params, q3, keys4, cache, out); });
        CHECK(contains(message, "5×3"));
        CHECK(contains(message, "expected 2×3"));
    }
    SUBCASE("backward outputs of the wrong size") {
        ScoreParams params;
        const Vec q4 = Vec::Ones(4);
        const KeyCache cache = prepare_keys(params, keys4);
        ScoreResult fwd;
        score_forward(params, q4, keys4, cache, fwd);
        Vec d_query = Vec::Zero(3);
        Mat d_keys = Mat::Zero(2, 4);
        ScoreParams d_params = params.zeros_like();
        const std::string message = test::invalid_argument_message(
            [&] { score_backward(params, q4, keys4, cache, fwd, Vec::Ones(2), d_query, d_keys, d_params); });
        CHECK(contains(message, "d_query has 3 elements, expected 4"));
    }
}
