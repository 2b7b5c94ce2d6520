#include "attention/step.hpp"
#include "core/error.hpp"

#include "support/contains.hpp"
#include "support/gradcheck.hpp"

#include <Eigen/LU>
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

using namespace apg;
using namespace apg::attention;
using apg::test::contains;
using apg::test::gradient_error;
using apg::test::span_of;

namespace {

// Scores [ln 3, 0, 0] through the dot score with one-hot keys: the query is the score vector.
Vec ln3_query() {
    Vec q(3);
    q << std::log(3.0f), 0, 0;
    return q;
}

} // namespace

TEST_CASE("the running example: weights 0.6, 0.2, 0.2 over Tom, chase, Jerry give their weighted sum") {
    // Encoder states (keys and values, as in seq2seq): h(Tom), h(chase), h(Jerry).
    Mat states(3, 3);
    states << 1, 2, 0, // h(Tom)
        0, 1, 3,       // h(chase)
        4, 0, 1;       // h(Jerry)
    // A query whose dot scores are e = H q = [ln 3, 0, 0]: softmax gives 3/5, 1/5, 1/5.
    // det H = 25, so q = H⁻¹ e is well conditioned; solve in double.
    const Eigen::Vector3d e(std::log(3.0), 0.0, 0.0);
    const Eigen::Vector3d q_exact = states.cast<double>().inverse() * e;
    const Vec query = q_exact.cast<float>();

    const AttentionStep step = attend(ScoreParams{}, query, states, states);
    CHECK(step.score.scores[0] == doctest::Approx(std::log(3.0)).epsilon(1e-5));
    CHECK(step.score.scores[1] == doctest::Approx(0.0).epsilon(1e-5));
    CHECK(step.weights[0] == doctest::Approx(0.6).epsilon(1e-5));
    CHECK(step.weights[1] == doctest::Approx(0.2).epsilon(1e-5));
    CHECK(step.weights[2] == doctest::Approx(0.2).epsilon(1e-5));
    // c = 0.6·[1, 2, 0] + 0.2·[0, 1, 3] + 0.2·[4, 0, 1] = [1.4, 1.4, 0.8]
    CHECK(step.context[0] == doctest::Approx(1.4).epsilon(1e-5));
    CHECK(step.context[1] == doctest::Approx(1.4).epsilon(1e-5));
    CHECK(step.context[2] == doctest::Approx(0.8).epsilon(1e-5));
}

TEST_CASE("weights sum to one and a masked key gets weight zero") {
    // e = [ln 3, 0, 0], key 2 masked: exp → [3, ·, 1] → [3/4, 0, 1/4]
    const std::vector<std::uint8_t> mask{1, 0, 1};
    const AttentionStep step = attend(ScoreParams{}, ln3_query(), Mat::Identity(3, 3), Mat::Identity(3, 3),
                                      {.mask = mask, .temperature = 1.0f});
    CHECK(step.weights[0] == doctest::Approx(0.75));
    CHECK(step.weights[1] == 0.0f);
    CHECK(step.weights[2] == doctest::Approx(0.25));
    CHECK(step.weights.sum() == doctest::Approx(1.0));
}

TEST_CASE("temperature sharpens the weights as it gets small and flattens them as it grows") {
    const Mat identity = Mat::Identity(3, 3);
    auto weights_at = [&](float temperature) {
        return attend(ScoreParams{}, ln3_query(), identity, identity, {.mask = {}, .temperature = temperature}).weights;
    };
    // τ = 0.5: exp(2 ln 3) = 9 → [9/11, 1/11, 1/11]
    CHECK(weights_at(0.5f)[0] == doctest::Approx(9.0 / 11.0));
    CHECK(weights_at(0.5f)[1] == doctest::Approx(1.0 / 11.0));
    // τ = 2: exp(ln 3 / 2) = √3 → [√3/(√3+2), 1/(√3+2), 1/(√3+2)]
    CHECK(weights_at(2.0f)[0] == doctest::Approx(std::sqrt(3.0) / (std::sqrt(3.0) + 2.0)));
    // τ → 0 puts (nearly) all weight on the best key; τ → ∞ tends to uniform.
    CHECK(weights_at(0.05f)[0] > 0.9999f);
    CHECK(weights_at(100.0f)[0] == doctest::Approx(1.0 / 3.0).epsilon(0.01));
    float previous = 0;
    for (float t : {4.0f, 2.0f, 1.0f, 0.5f, 0.25f}) {
        CAPTURE(t);
        CHECK(weights_at(t)[0] > previous);
        previous = weights_at(t)[0];
    }
}

TEST_CASE("attend keeps the additive hidden rows in the step record") {
    core::Rng rng(3);
    const ScoreParams params = ScoreParams::init(ScoreKind::additive, 2, 3, 5, rng);
    const Mat keys = test::random_mat(4, 3, rng);
    const AttentionStep step = attend(params, test::random_vec(2, rng), keys, keys);
    REQUIRE(step.score.hidden.rows() == 4);
    REQUIRE(step.score.hidden.cols() == 5);
    // score_j = v · hidden_j
    for (Eigen::Index j = 0; j < 4; ++j)
        CHECK(step.score.scores[j] == doctest::Approx(step.score.hidden.row(j).dot(params.v)).epsilon(1e-5));
    CHECK(step.context.size() == 3);
}

TEST_CASE("attend_backward matches central differences with a mask and a temperature for every score function") {
    // n = 5 keys (key 1 masked), τ = 0.7, dq = 3, dk = 3 (5 for general/additive), dv = 4, da = 4.
    const std::vector<std::uint8_t> mask{1, 0, 1, 1, 1};
    const StepOptions options{.mask = mask, .temperature = 0.7f};
    for (ScoreKind kind : all_score_kinds) {
        SUBCASE(std::string(name(kind)).c_str()) {
            core::Rng rng(11);
            const bool same = kind != ScoreKind::general && kind != ScoreKind::additive;
            const Eigen::Index n = 5, dq = 3, dk = same ? 3 : 5, dv = 4, da = 4;
            ScoreParams params = ScoreParams::init(kind, dq, dk, da, rng);
            for (Mat *m : {&params.w, &params.w_q, &params.w_k}) *m = test::random_mat(m->rows(), m->cols(), rng);
            params.v = test::random_vec(params.v.size(), rng);
            if (kind == ScoreKind::scaled_cosine) params.scale[0] = 2.3f; // g ≠ √dk and ≠ 1
            Vec query = test::random_vec(dq, rng);
            Mat keys = test::random_mat(n, dk, rng);
            Mat values = test::random_mat(n, dv, rng);
            const Vec coeffs = test::random_vec(dv, rng);

            auto loss = [&] {
                AttentionStep step = attend(params, query, keys, values, options);
                return test::weighted_sum(span_of(step.context), span_of(coeffs));
            };

            const KeyCache cache = prepare_keys(params, keys);
            AttentionStep fwd;
            attend(params, query, keys, cache, values, options, fwd);
            Vec d_query = Vec::Zero(dq);
            Mat d_keys = Mat::Zero(n, dk), d_values = Mat::Zero(n, dv);
            ScoreParams d_params = params.zeros_like();
            attend_backward(params, query, keys, cache, values, options, fwd, coeffs, d_query, d_keys, d_values,
                            d_params);

            CHECK(gradient_error(span_of(query), span_of(d_query), loss) <= 1.0);
            CHECK(gradient_error(span_of(keys), span_of(d_keys), loss) <= 1.0);
            CHECK(gradient_error(span_of(values), span_of(d_values), loss) <= 1.0);
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
            // The masked key and its value take no part, so they get no gradient at all.
            CHECK(d_values.row(1).isZero());
            CHECK(d_keys.row(1).isZero());
            CHECK(d_query.norm() > 0.0f);
        }
    }
}

TEST_CASE("attend rejects bad shapes, a fully masked row and a non-positive temperature by name") {
    const Mat keys = Mat::Ones(3, 2);
    const Vec query = Vec::Ones(2);

    SUBCASE("values with a different number of rows than keys") {
        const std::string message =
            test::invalid_argument_message([&] { attend(ScoreParams{}, query, keys, Mat::Ones(4, 5)); });
        CHECK(contains(message, "values are 4×5"));
        CHECK(contains(message, "keys are 3×2"));
    }
    SUBCASE("no keys") {
        const std::string message =
            test::invalid_argument_message([&] { attend(ScoreParams{}, query, Mat(0, 2), Mat(0, 2)); });
        CHECK(contains(message, "no keys"));
        CHECK(contains(message, "0×2"));
    }
    SUBCASE("query and keys of different sizes") {
        const std::string message =
            test::invalid_argument_message([&] { attend(ScoreParams{}, Vec::Ones(5), keys, keys); });
        CHECK(contains(message, "query of 5"));
        CHECK(contains(message, "keys of 2 columns"));
    }
    SUBCASE("a mask of the wrong size") {
        const std::vector<std::uint8_t> mask{1, 1};
        const std::string message =
            test::invalid_argument_message([&] { attend(ScoreParams{}, query, keys, keys, {.mask = mask}); });
        CHECK(contains(message, "mask has 2 bytes"));
        CHECK(contains(message, "3×2"));
    }
    SUBCASE("every key masked") {
        const std::vector<std::uint8_t> mask{0, 0, 0};
        const std::string message =
            test::invalid_argument_message([&] { attend(ScoreParams{}, query, keys, keys, {.mask = mask}); });
        CHECK(contains(message, "every one of the 3 keys is masked"));
    }
    SUBCASE("temperature zero") {
        const std::string message = test::invalid_argument_message(
            [&] { attend(ScoreParams{}, query, keys, keys, {.mask = {}, .temperature = 0.0f}); });
        CHECK(contains(message, "temperature"));
    }
    SUBCASE("backward with gradients of the wrong shape") {
        const KeyCache cache = prepare_keys(ScoreParams{}, keys);
        AttentionStep fwd;
        attend(ScoreParams{}, query, keys, cache, keys, {}, fwd);
        Vec d_query = Vec::Zero(2);
        Mat d_keys = Mat::Zero(3, 2), d_values = Mat::Zero(2, 2);
        ScoreParams d_params;
        const std::string message = test::invalid_argument_message([&] {
            attend_backward(ScoreParams{}, query, keys, cache, keys, {}, fwd, Vec::Ones(2), d_query, d_keys, d_values,
                            d_params);
        });
        CHECK(contains(message, "d_values is 2×2 but values are 3×2"));
    }
}

TEST_CASE("deferring the key-cache gradient to once per input gives the same gradients as every step") {
    // Three decoder steps over one input: the plain attend_backward each step must equal the d_cache
    // overload each step followed by one prepare_keys_backward.
    for (ScoreKind kind : all_score_kinds) {
        SUBCASE(std::string(name(kind)).c_str()) {
            core::Rng rng(17);
            const bool same = kind != ScoreKind::general && kind != ScoreKind::additive;
            const Eigen::Index n = 6, dq = 4, dk = same ? 4 : 5, da = 3, steps = 3;
            const ScoreParams params = ScoreParams::init(kind, dq, dk, da, rng);
            const Mat keys = test::random_mat(n, dk, rng);
            const KeyCache cache = prepare_keys(params, keys);

            Vec d_query_plain = Vec::Zero(dq), d_query_deferred = Vec::Zero(dq);
            Mat d_keys_plain = Mat::Zero(n, dk), d_keys_deferred = Mat::Zero(n, dk);
            Mat d_values_plain = Mat::Zero(n, dk), d_values_deferred = Mat::Zero(n, dk);
            ScoreParams d_params_plain = params.zeros_like(), d_params_deferred = params.zeros_like();
            KeyCache d_cache = zeros_like(cache);
            for (Eigen::Index step = 0; step < steps; ++step) {
                const Vec query = test::random_vec(dq, rng);
                const Vec d_context = test::random_vec(dk, rng);
                AttentionStep fwd;
                attend(params, query, keys, cache, keys, {}, fwd);
                attend_backward(params, query, keys, cache, keys, {}, fwd, d_context, d_query_plain, d_keys_plain,
                                d_values_plain, d_params_plain);
                attend_backward(params, query, keys, cache, keys, {}, fwd, d_context, d_query_deferred, d_keys_deferred,
                                d_cache, d_values_deferred, d_params_deferred);
            }
            prepare_keys_backward(params, keys, cache, d_cache, d_keys_deferred, d_params_deferred);

            auto close = [](const auto &a, const auto &b) { return (a - b).norm() <= 1e-5f * (1.0f + a.norm()); };
            CHECK(close(d_query_plain, d_query_deferred));
            CHECK(close(d_keys_plain, d_keys_deferred));
            CHECK(close(d_values_plain, d_values_deferred));
            CHECK(close(d_params_plain.w, d_params_deferred.w));
            CHECK(close(d_params_plain.w_q, d_params_deferred.w_q));
            CHECK(close(d_params_plain.w_k, d_params_deferred.w_k));
            CHECK(close(d_params_plain.v, d_params_deferred.v));
            CHECK(close(d_params_plain.scale, d_params_deferred.scale));
            CHECK(d_keys_plain.norm() > 0.0f);
        }
    }
}

TEST_CASE("a temperature where the softmax would give NaN or infinite weights is refused") {
    const Mat keys{{1, 0}, {0, 1}, {3, 3}};
    Vec query(2);
    query << 1, 2;
    // At 1e-45, 1/τ is infinite and the weight of the largest score would be exp(0·∞) = NaN.
    for (float t : {1e-45f, 0.0f, -1.0f, 1e9f, std::nanf("")}) {
        CAPTURE(t);
        try {
            attend(ScoreParams{}, query, keys, keys, {.mask = {}, .temperature = t});
            FAIL("accepted");
        } catch (const InputError &e) {
            CHECK(e.code() == ErrorCode::bad_argument);
            CHECK(std::string(e.what()).find("temperature must be from 0.001 to 1000") != std::string::npos);
        }
    }
    // The bounds themselves are taken, and the weights stay finite there: at τ = 1e-3 the largest
    // score (3·1 + 3·2 = 9 against 1 and 2) takes all the weight.
    const AttentionStep sharp = attend(ScoreParams{}, query, keys, keys, {.mask = {}, .temperature = 1e-3f});
    CHECK(sharp.weights[2] == 1.0f);
    CHECK(sharp.weights[0] == 0.0f);
    const AttentionStep flat = attend(ScoreParams{}, query, keys, keys, {.mask = {}, .temperature = 1e3f});
    for (int j = 0; j < 3; ++j) CHECK(std::isfinite(flat.weights[j]));
}
