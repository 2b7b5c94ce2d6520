// Location-aware attention (Chorowski et al., 2015): the convolution over the previous weights,
// the score by hand, α_0, finite differences for every parameter and into the previous weights,
// the gradient carried from one step into the one before, SIMD against scalar kernels and double.
#include "attention/score.hpp"
#include "attention/step.hpp"

#include "core/kernels.hpp"
#include "support/gradcheck.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

using namespace apg;
using namespace apg::attention;
using apg::test::gradient_error;
using apg::test::span_of;

namespace {

// Parameters of order 1 (the checker's scale), kf filters of width r.
ScoreParams random_location(Eigen::Index dq, Eigen::Index dk, Eigen::Index da, Eigen::Index kf, Eigen::Index r,
                            core::Rng &rng) {
    ScoreParams p = ScoreParams::init(ScoreKind::location, dq, dk, da, rng, kf, r);
    for (Mat *m : {&p.w_q, &p.w_k, &p.filters, &p.w_f}) *m = test::random_mat(m->rows(), m->cols(), rng);
    p.v = test::random_vec(da, rng);
    p.b = test::random_vec(da, rng, 0.5f);
    return p;
}

// Positive weights summing to 1, like a softmax's.
Vec random_weights(Eigen::Index n, core::Rng &rng) {
    Vec a(n);
    for (Eigen::Index j = 0; j < n; ++j) a[j] = rng.uniform(0.1f, 1.0f);
    return a / a.sum();
}

} // namespace

TEST_CASE("location features convolve the previous weights with each filter, zero-padded and centred") {
    // F = [1 2 3; 0 −1 0.5] (kf = 2, r = 3, centre t = 1), α = [0.2, 0.5, 0.3]:
    //   f_0 = F(·,1) α_0 + F(·,2) α_1          = [0.4 + 1.5, −0.2 + 0.25]        = [1.9, 0.05]
    //   f_1 = F(·,0) α_0 + F(·,1) α_1 + F(·,2) α_2 = [0.2 + 1 + 0.9, 0 − 0.5 + 0.15] = [2.1, −0.35]
    //   f_2 = F(·,0) α_1 + F(·,1) α_2          = [0.5 + 0.6, 0 − 0.3]            = [1.1, −0.3]
    Mat filters(2, 3);
    filters << 1, 2, 3, 0, -1, 0.5f;
    Vec alpha(3);
    alpha << 0.2f, 0.5f, 0.3f;
    Mat f;
    location_features(filters, alpha, f);
    REQUIRE(f.rows() == 3);
    REQUIRE(f.cols() == 2);
    CHECK(f(0, 0) == doctest::Approx(1.9));
    CHECK(f(0, 1) == doctest::Approx(0.05));
    CHECK(f(1, 0) == doctest::Approx(2.1));
    CHECK(f(1, 1) == doctest::Approx(-0.35));
    CHECK(f(2, 0) == doctest::Approx(1.1));
    CHECK(f(2, 1) == doctest::Approx(-0.3));
    // A filter wider than the source reads zeros beyond both ends: one-hot α at j = 1 with r = 5
    // puts F(c, t) at row j = 1 − (t − 2), i.e. rows 3, 2, 1, 0 for t = 0 … 3 (t = 4 falls off).
    Mat wide(1, 5);
    wide << 10, 20, 30, 40, 50;
    Vec one_hot = Vec::Zero(4);
    one_hot[1] = 1;
    location_features(wide, one_hot, f);
    CHECK(f(0, 0) == doctest::Approx(40));
    CHECK(f(1, 0) == doctest::Approx(30));
    CHECK(f(2, 0) == doctest::Approx(20));
    CHECK(f(3, 0) == doctest::Approx(10));
}

TEST_CASE("the location score is v tanh(W_q q + W_k k_j + W_f f_j + b), by hand") {
    // dq = dk = da = 1, kf = 2, r = 3, the filters and α of the test above (so f is known):
    //   a_j = 0.3 q + 0.4 k_j + (f_j0 − 2 f_j1) + 0.1 with q = 1, k = [0.5, −1, 2]
    //   a_0 = 0.3 + 0.2 + 1.9 − 0.1 + 0.1 = 2.4;  a_1 = 0.3 − 0.4 + 2.1 + 0.7 + 0.1 = 2.8
    //   a_2 = 0.3 + 0.8 + 1.1 + 0.6 + 0.1 = 2.9;  e_j = 2 tanh(a_j)
    ScoreParams p;
    p.kind = ScoreKind::location;
    p.w_q = Mat::Constant(1, 1, 0.3f);
    p.w_k = Mat::Constant(1, 1, 0.4f);
    p.v = Vec::Constant(1, 2.0f);
    p.filters.resize(2, 3);
    p.filters << 1, 2, 3, 0, -1, 0.5f;
    p.w_f.resize(1, 2);
    p.w_f << 1, -2;
    p.b = Vec::Constant(1, 0.1f);
    Vec q = Vec::Constant(1, 1.0f);
    Mat keys(3, 1);
    keys << 0.5f, -1, 2;
    Vec alpha(3);
    alpha << 0.2f, 0.5f, 0.3f;
    ScoreResult out;
    score_forward(p, q, keys, prepare_keys(p, keys), out, span_of(alpha));
    CHECK(out.scores[0] == doctest::Approx(2 * std::tanh(2.4)));
    CHECK(out.scores[1] == doctest::Approx(2 * std::tanh(2.8)));
    CHECK(out.scores[2] == doctest::Approx(2 * std::tanh(2.9)));
    CHECK(out.previous == alpha);
    CHECK(out.location(1, 1) == doctest::Approx(-0.35));
    CHECK(out.hidden(0, 0) == doctest::Approx(std::tanh(2.4)));

    // Without previous weights the score reads α_0 = one-hot on the first position.
    ScoreResult first;
    score_forward(p, q, keys, prepare_keys(p, keys), first);
    CHECK(first.previous == initial_weights(3));
    ScoreResult explicit_first;
    const Vec alpha0 = initial_weights(3);
    score_forward(p, q, keys, prepare_keys(p, keys), explicit_first, span_of(alpha0));
    CHECK(first.scores == explicit_first.scores);
    // f_0 = F(·,1) = [2, −1]:  a_0 = 0.3 + 0.2 + 2 + 2 + 0.1 = 4.6
    CHECK(first.scores[0] == doctest::Approx(2 * std::tanh(4.6)));
}

TEST_CASE("the location score moves with the previous weights: the same query scores differently") {
    core::Rng rng(3);
    const ScoreParams p = random_location(4, 4, 5, 3, 3, rng);
    const Vec q = test::random_vec(4, rng);
    const Mat keys = test::random_mat(6, 4, rng);
    Vec at1 = Vec::Zero(6), at4 = Vec::Zero(6);
    at1[1] = 1;
    at4[4] = 1;
    ScoreResult a, b;
    score_forward(p, q, keys, prepare_keys(p, keys), a, span_of(at1));
    score_forward(p, q, keys, prepare_keys(p, keys), b, span_of(at4));
    CHECK((a.scores - b.scores).cwiseAbs().maxCoeff() > 0.1f);
    // r = 3 reaches one position either side: a peak at 1 is seen from j = 0 … 2 only, one at 4
    // from j = 3 … 5 only.
    CHECK(a.location.row(5).isZero());
    CHECK(a.location.row(1).cwiseAbs().maxCoeff() > 0);
    CHECK(b.location.row(0).isZero());
}

TEST_CASE("location score_backward matches central differences for q, keys, every parameter and α_prev") {
    for (const Eigen::Index r : {1, 3, 7}) { // 7 > n: the filters overhang both ends
        CAPTURE(r);
        core::Rng rng(11 + static_cast<std::uint64_t>(r));
        const Eigen::Index n = 5, dq = 3, dk = 4, da = 4, kf = 3;
        ScoreParams params = random_location(dq, dk, da, kf, r, rng);
        Vec query = test::random_vec(dq, rng);
        Mat keys = test::random_mat(n, dk, rng);
        Vec previous = random_weights(n, rng);
        const Vec coeffs = test::random_vec(n, rng);
        auto loss = [&] {
            ScoreResult out;
            score_forward(params, query, keys, prepare_keys(params, keys), out, span_of(previous));
            return test::weighted_sum(span_of(out.scores), span_of(coeffs));
        };
        const KeyCache cache = prepare_keys(params, keys);
        ScoreResult fwd;
        score_forward(params, query, keys, cache, fwd, span_of(previous));
        Vec d_query = Vec::Zero(dq), d_previous = Vec::Zero(n);
        Mat d_keys = Mat::Zero(n, dk);
        ScoreParams d_params = params.zeros_like();
        REQUIRE(d_params.filters.rows() == kf);
        REQUIRE(d_params.filters.cols() == r);
        score_backward(params, query, keys, cache, fwd, coeffs, d_query, d_keys, d_params, &d_previous);

        CHECK(d_params.filters.norm() > 1e-3f); // the checks below are not of zero gradients
        CHECK(d_previous.norm() > 1e-3f);
        CHECK(gradient_error(span_of(query), span_of(d_query), loss) <= 1.0);
        CHECK(gradient_error(span_of(keys), span_of(d_keys), loss) <= 1.0);
        CHECK(gradient_error(span_of(params.w_q), span_of(d_params.w_q), loss) <= 1.0);
        CHECK(gradient_error(span_of(params.w_k), span_of(d_params.w_k), loss) <= 1.0);
        CHECK(gradient_error(span_of(params.v), span_of(d_params.v), loss) <= 1.0);
        CHECK(gradient_error(span_of(params.filters), span_of(d_params.filters), loss) <= 1.0);
        CHECK(gradient_error(span_of(params.w_f), span_of(d_params.w_f), loss) <= 1.0);
        CHECK(gradient_error(span_of(params.b), span_of(d_params.b), loss) <= 1.0);
        CHECK(gradient_error(span_of(previous), span_of(d_previous), loss) <= 1.0);

        // Backward accumulates: a second call doubles every gradient.
        const Vec once = d_previous;
        const Mat filters_once = d_params.filters;
        score_backward(params, query, keys, cache, fwd, coeffs, d_query, d_keys, d_params, &d_previous);
        CHECK((d_previous - 2.0f * once).norm() <= 1e-5f * (1.0f + d_previous.norm()));
        CHECK((d_params.filters - 2.0f * filters_once).norm() <= 1e-5f * (1.0f + d_params.filters.norm()));
    }
}

TEST_CASE("two location steps: the second step's gradient flows through the first step's softmax") {
    // Step 1 attends with q1 from α_0; step 2 with q2 reads step 1's weights as α_prev. The loss
    // reads both contexts. attend_backward of step 2 gives dL/dα_1 (d_previous), which step 1's
    // attend_backward takes as d_weights: then dL/dq1 and dL/dF match central differences.
    core::Rng rng(19);
    const Eigen::Index n = 5, d = 4, da = 3, kf = 2, r = 3;
    ScoreParams params = random_location(d, d, da, kf, r, rng);
    Vec q1 = test::random_vec(d, rng), q2 = test::random_vec(d, rng);
    const Mat H = test::random_mat(n, d, rng, 2.0f);
    const Vec c1 = test::random_vec(d, rng), c2 = test::random_vec(d, rng);
    auto run = [&](AttentionStep &one, AttentionStep &two) {
        const KeyCache cache = prepare_keys(params, H);
        attend(params, q1, H, cache, H, {}, one);
        StepOptions second;
        second.previous = span_of(one.weights);
        attend(params, q2, H, cache, H, second, two);
    };
    auto loss = [&] {
        AttentionStep one, two;
        run(one, two);
        return test::weighted_sum(span_of(one.context), span_of(c1)) +
               test::weighted_sum(span_of(two.context), span_of(c2));
    };
    AttentionStep one, two;
    run(one, two);
    const KeyCache cache = prepare_keys(params, H);
    KeyCache d_cache = zeros_like(cache);
    ScoreParams d_params = params.zeros_like();
    Vec dq1 = Vec::Zero(d), dq2 = Vec::Zero(d), d_alpha1 = Vec::Zero(n);
    Mat d_keys = Mat::Zero(n, d), d_values = Mat::Zero(n, d);
    StepOptions second;
    second.previous = span_of(one.weights);
    attend_backward(params, q2, H, cache, H, second, two, c2, dq2, d_keys, d_cache, d_values, d_params, nullptr,
                    &d_alpha1);
    CHECK(d_alpha1.norm() > 1e-3f);
    attend_backward(params, q1, H, cache, H, {}, one, c1, dq1, d_keys, d_cache, d_values, d_params, &d_alpha1, nullptr);
    CHECK(gradient_error(span_of(q1), span_of(dq1), loss) <= 1.0);
    CHECK(gradient_error(span_of(q2), span_of(dq2), loss) <= 1.0);
    CHECK(gradient_error(span_of(params.filters), span_of(d_params.filters), loss) <= 1.0);
    CHECK(gradient_error(span_of(params.w_f), span_of(d_params.w_f), loss) <= 1.0);

    // Without the carried term dL/dq1 is only the first context's gradient, and wrong.
    Vec dq1_alone = Vec::Zero(d);
    ScoreParams scratch = params.zeros_like();
    KeyCache scratch_cache = zeros_like(cache);
    attend_backward(params, q1, H, cache, H, {}, one, c1, dq1_alone, d_keys, scratch_cache, d_values, scratch);
    CHECK(gradient_error(span_of(q1), span_of(dq1_alone), loss) > 1.0);
}

TEST_CASE("location scores from the SIMD kernels equal those from the scalar kernels and a double reference") {
    core::Rng rng(29);
    const Eigen::Index n = 9, dq = 13, dk = 11, da = 7, kf = 5, r = 5; // odd sizes: the SIMD tails too
    const ScoreParams p = random_location(dq, dk, da, kf, r, rng);
    const Vec q = test::random_vec(dq, rng);
    const Mat keys = test::random_mat(n, dk, rng);
    const Vec alpha = random_weights(n, rng);
    ScoreResult out;
    score_forward(p, q, keys, prepare_keys(p, keys), out, span_of(alpha));
    Mat f;
    location_features(p.filters, alpha, f);
    Vec wq(da);
    core::scalar::gemv(view(p.w_q), view(q), view(wq), da, dq);
    for (Eigen::Index j = 0; j < n; ++j) {
        CAPTURE(j);
        Vec a(da), wk(da), wf(da);
        core::scalar::gemv(view(p.w_k), row(keys, j), view(wk), da, dk);
        core::scalar::gemv(view(p.w_f), row(f, j), view(wf), da, kf);
        a = wq + wk + wf + p.b;
        core::scalar::tanh(view(a), view(a));
        const float scalar = core::scalar::dot(view(a), view(p.v));
        // double, the convolution written out again
        double exact = 0;
        for (Eigen::Index h = 0; h < da; ++h) {
            double pre = p.b[h];
            for (Eigen::Index i = 0; i < dq; ++i) pre += double(p.w_q(h, i)) * q[i];
            for (Eigen::Index i = 0; i < dk; ++i) pre += double(p.w_k(h, i)) * keys(j, i);
            for (Eigen::Index c = 0; c < kf; ++c) {
                double fc = 0;
                for (Eigen::Index t = 0; t < r; ++t) {
                    const Eigen::Index m = j + t - (r - 1) / 2;
                    if (m >= 0 && m < n) fc += double(p.filters(c, t)) * alpha[m];
                }
                pre += double(p.w_f(h, c)) * fc;
            }
            exact += double(p.v[h]) * std::tanh(pre);
        }
        CHECK(std::abs(out.scores[j] - scalar) <= 1e-5f);
        CHECK(std::abs(out.scores[j] - exact) <= 1e-5);
    }
}

TEST_CASE("location parameters: the registry, zeros_like, deterministic init and refused shapes") {
    core::Rng a(5), b(5), c(5);
    const ScoreParams p = ScoreParams::init(ScoreKind::location, 6, 8, 4, a, 3, 5);
    const ScoreParams p2 = ScoreParams::init(ScoreKind::location, 6, 8, 4, b, 3, 5);
    CHECK(p.filters == p2.filters);
    CHECK(p.w_f == p2.w_f);
    // W_q, W_k, v come first from the generator, as for additive: the same seed gives the same ones.
    const ScoreParams additive = ScoreParams::init(ScoreKind::additive, 6, 8, 4, c);
    CHECK(p.w_q == additive.w_q);
    CHECK(p.v == additive.v);
    CHECK(p.filters.rows() == 3);
    CHECK(p.filters.cols() == 5);
    CHECK(p.w_f.rows() == 4);
    CHECK(p.w_f.cols() == 3);
    CHECK(p.b.isZero());
    CHECK(p.filters.cwiseAbs().maxCoeff() <= 1.0f / std::sqrt(5.0f));
    const ScoreParams z = p.zeros_like();
    CHECK(z.kind == ScoreKind::location);
    CHECK(z.filters.rows() == 3);
    CHECK(z.w_f.cols() == 3);
    CHECK(z.b.size() == 4);
    CHECK(z.filters.isZero());

    CHECK(parse_score_kind("location") == ScoreKind::location);
    CHECK(name(ScoreKind::location) == "location");
    CHECK(reads_previous_weights(ScoreKind::location));
    CHECK_FALSE(reads_previous_weights(ScoreKind::additive));
    for (ScoreKind kind : all_score_kinds) CHECK(kind != ScoreKind::location); // not in the sandbox's list
    CHECK(test::invalid_argument_message([] { parse_score_kind("loc"); }).find("location, none") != std::string::npos);

    core::Rng d(1);
    CHECK(test::invalid_argument_message([&] {
              ScoreParams::init(ScoreKind::location, 2, 2, 2, d, 2, 4);
          }).find("odd width r") != std::string::npos);
    CHECK(test::invalid_argument_message([&] { ScoreParams::init(ScoreKind::location, 2, 2, 2, d); }).find("kf = 0") !=
          std::string::npos);

    const Vec q = Vec::Ones(6);
    const Mat keys = Mat::Ones(3, 8);
    const KeyCache cache = prepare_keys(p, keys);
    ScoreResult out;
    const Vec two = Vec::Constant(2, 0.5f);
    CHECK(test::invalid_argument_message([&] {
              score_forward(p, q, keys, cache, out, span_of(two));
          }).find("previous weights have 2 elements, expected 3") != std::string::npos);
    StepOptions options;
    options.previous = span_of(two);
    CHECK(test::invalid_argument_message([&] { attend(p, q, keys, keys, options); }).find("previous weights") !=
          std::string::npos);
    ScoreParams even = p;
    even.filters.resize(3, 4);
    CHECK(test::invalid_argument_message([&] { score_forward(even, q, keys, cache, out); }).find("odd width") !=
          std::string::npos);
    ScoreParams bad_wf = p;
    bad_wf.w_f.resize(4, 2);
    CHECK(test::invalid_argument_message([&] { score_forward(bad_wf, q, keys, cache, out); }).find("W_f") !=
          std::string::npos);
}
