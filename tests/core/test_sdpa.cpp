// sdpa_forward: scalar and SIMD against a naive double-precision reference, with padding and
// causal masks, at shapes that hit every edge of the register blocks and of the query blocks.
#include "core/sdpa.hpp"
#include "reference.hpp"

#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <limits>
#include <vector>

using namespace apg;
using apg::test::gamma_n;
using apg::test::u;

namespace {

struct Reference {
    std::vector<double> scores, weights, context;
    std::vector<double> score_magnitude; // scale · Σ_p |q_ip k_jp|, for the error bound of each score
};

// The definition, written out with no blocking: three plain loops in double.
Reference sdpa_ref(const core::SdpaShape &s, const std::vector<float> &q, const std::vector<float> &k,
                   const std::vector<float> &v, const core::SdpaOptions &o) {
    Reference r;
    r.scores.assign(s.nq * s.nk, 0);
    r.score_magnitude.assign(s.nq * s.nk, 0);
    r.weights.assign(s.nq * s.nk, 0);
    r.context.assign(s.nq * s.dv, 0);
    for (std::size_t i = 0; i < s.nq; ++i) {
        double mx = -std::numeric_limits<double>::infinity();
        auto visible = [&](std::size_t j) {
            return (o.key_mask.empty() || o.key_mask[j]) && (!o.causal || j <= i + s.nk - s.nq);
        };
        for (std::size_t j = 0; j < s.nk; ++j) {
            double dot = 0, mag = 0;
            for (std::size_t p = 0; p < s.d; ++p) {
                dot += static_cast<double>(q[i * s.d + p]) * k[j * s.d + p];
                mag += std::fabs(static_cast<double>(q[i * s.d + p]) * k[j * s.d + p]);
            }
            r.scores[i * s.nk + j] = o.scale * dot;
            r.score_magnitude[i * s.nk + j] = std::fabs(o.scale) * mag;
            if (visible(j)) mx = std::max(mx, r.scores[i * s.nk + j]);
        }
        double sum = 0;
        for (std::size_t j = 0; j < s.nk; ++j)
            if (visible(j)) sum += r.weights[i * s.nk + j] = std::exp(r.scores[i * s.nk + j] - mx);
        for (std::size_t j = 0; j < s.nk; ++j) r.weights[i * s.nk + j] /= sum;
        for (std::size_t j = 0; j < s.nk; ++j)
            for (std::size_t c = 0; c < s.dv; ++c) r.context[i * s.dv + c] += r.weights[i * s.nk + j] * v[j * s.dv + c];
    }
    return r;
}

void run(bool simd, const core::SdpaShape &s, const std::vector<float> &q, const std::vector<float> &k,
         const std::vector<float> &v, const core::SdpaOptions &o, std::vector<float> &scores,
         std::vector<float> &weights, std::vector<float> &context) {
    if (simd)
        core::simd::sdpa_forward(s, q, k, v, o, scores, weights, context);
    else
        core::scalar::sdpa_forward(s, q, k, v, o, scores, weights, context);
}

// Error bounds, each from the stage before it:
//   score:   a dot product of d float products times the scale: d + 1 roundings, γ_{d+1} · Σ|terms|;
//   weight:  a score error δ moves e^{s_j − max} by a factor e^{±2δ}; it counts in the numerator and
//            in the sum, so 4δ in all, plus the softmax's own float error, which test_softmax.cpp
//            bounds by 2·(2u·|s − max| + 2u) + γ_nk + 2u per weight (here 4u for the scaled score);
//   context: Σ_j p_j v_jc with weights off by Δp_j and nk float products:
//            Σ_j Δp_j |v_jc| + γ_nk · Σ_j p_j |v_jc|.
void check_against(const Reference &ref, const core::SdpaShape &s, const std::vector<float> &v,
                   const std::vector<float> &scores, const std::vector<float> &weights,
                   const std::vector<float> &context) {
    for (std::size_t i = 0; i < s.nq; ++i) {
        CAPTURE(i);
        double worst_score_error = 0, mx = -std::numeric_limits<double>::infinity();
        for (std::size_t j = 0; j < s.nk; ++j) {
            const double bound = gamma_n(s.d + 1) * ref.score_magnitude[i * s.nk + j];
            CHECK(std::fabs(scores[i * s.nk + j] - ref.scores[i * s.nk + j]) <= bound);
            if (ref.weights[i * s.nk + j] > 0) {
                worst_score_error = std::max(worst_score_error, bound);
                mx = std::max(mx, ref.scores[i * s.nk + j]);
            }
        }
        double worst_arg = 0;
        for (std::size_t j = 0; j < s.nk; ++j)
            if (ref.weights[i * s.nk + j] > 0) worst_arg = std::max(worst_arg, mx - ref.scores[i * s.nk + j]);
        const double rel = std::expm1(4 * worst_score_error) + 2 * (4 * u * worst_arg + 4 * u) + gamma_n(s.nk) + 2 * u;
        std::vector<double> weight_error(s.nk);
        for (std::size_t j = 0; j < s.nk; ++j) {
            CAPTURE(j);
            const double w = ref.weights[i * s.nk + j];
            weight_error[j] = rel * w + FLT_MIN; // weights below FLT_MIN may be flushed to 0
            if (w == 0)
                CHECK(weights[i * s.nk + j] == 0.0f); // masked: exactly 0
            else
                CHECK(std::fabs(weights[i * s.nk + j] - w) <= weight_error[j]);
        }
        for (std::size_t c = 0; c < s.dv; ++c) {
            double bound = 0;
            for (std::size_t j = 0; j < s.nk; ++j) {
                const double vj = std::fabs(v[j * s.dv + c]);
                bound += weight_error[j] * vj + gamma_n(s.nk) * ref.weights[i * s.nk + j] * vj;
            }
            CHECK(std::fabs(context[i * s.dv + c] - ref.context[i * s.dv + c]) <= bound);
        }
    }
}

struct Case {
    core::SdpaShape shape;
    bool padded, causal;
};

} // namespace

TEST_CASE("sdpa_forward matches a naive double-precision reference, with and without masks") {
    // Shapes below, at and above the 2-query and 4-key register blocks and the 8-query row blocks,
    // odd d and dv (tails of every SIMD loop), and nq < nk for the causal offset.
    const Case cases[] = {
        {{1, 1, 1, 1}, false, false},    {{1, 16, 64, 64}, false, false}, {{3, 5, 7, 9}, true, false},
        {{4, 4, 4, 4}, false, true},     {{5, 17, 3, 5}, true, true},     {{9, 9, 17, 8}, false, true},
        {{17, 33, 65, 13}, true, false}, {{8, 64, 16, 16}, true, true},   {{64, 64, 64, 64}, true, true},
        {{2, 257, 8, 3}, true, false},
    };
    core::Rng rng(7);
    for (const auto &impl : test::implementations)
        for (const Case &c : cases) {
            const core::SdpaShape &s = c.shape;
            CAPTURE(impl.name);
            CAPTURE(s.nq);
            CAPTURE(s.nk);
            CAPTURE(s.d);
            CAPTURE(s.dv);
            CAPTURE(c.padded);
            CAPTURE(c.causal);
            // Inputs of ±2 with scale 1/√d give scores of a few units: weights far from uniform.
            auto q = test::random_vector(s.nq * s.d, rng, -2, 2), k = test::random_vector(s.nk * s.d, rng, -2, 2);
            auto v = test::random_vector(s.nk * s.dv, rng);
            std::vector<std::uint8_t> mask;
            if (c.padded) {
                mask.assign(s.nk, 1);
                for (std::size_t j = 0; j < s.nk; ++j) mask[j] = rng.below(4) != 0;
                mask[0] = 1; // key 0 is visible to every query, also under the causal mask
            }
            const core::SdpaOptions o{1.0f / std::sqrt(static_cast<float>(s.d)), mask, c.causal};
            std::vector<float> scores(s.nq * s.nk, 99.0f), weights(s.nq * s.nk, 99.0f), context(s.nq * s.dv, 99.0f);
            run(impl.simd, s, q, k, v, o, scores, weights, context);
            check_against(sdpa_ref(s, q, k, v, o), s, v, scores, weights, context);
        }
}

TEST_CASE("sdpa_forward at odd key counts, with huge scores and masked keys, matches the reference") {
    // Key counts below, at and past the 8-key panels and 4-lane vectors of the fused SIMD version
    // (n = 1, 3, 5, 17, 257), queries past its 8-query blocks, and scores of several hundred, whose
    // naive exp overflows float: only a softmax that subtracts the maximum survives them.
    core::Rng rng(11);
    for (const auto &impl : test::implementations)
        for (std::size_t nk : {1, 3, 5, 17, 257})
            for (bool padded : {false, true})
                for (bool causal : {false, true}) {
                    // 17 queries take the fused SIMD version (16 or more) and leave a partial block;
                    // causal needs nq <= nk, and fewer queries take the stages.
                    const core::SdpaShape s{causal ? std::min<std::size_t>(nk, 17) : 17, nk, 6, 5};
                    CAPTURE(impl.name);
                    CAPTURE(nk);
                    CAPTURE(padded);
                    CAPTURE(causal);
                    auto q = test::random_vector(s.nq * s.d, rng, -10, 10);
                    auto k = test::random_vector(s.nk * s.d, rng, -10, 10);
                    auto v = test::random_vector(s.nk * s.dv, rng);
                    std::vector<std::uint8_t> mask;
                    if (padded) {
                        mask.assign(s.nk, 1);
                        for (std::size_t j = 1; j < s.nk; j += 2) mask[j] = 0;
                    }
                    const core::SdpaOptions o{1.0f, mask, causal}; // scores up to 600
                    std::vector<float> scores(s.nq * s.nk), weights(s.nq * s.nk), context(s.nq * s.dv);
                    run(impl.simd, s, q, k, v, o, scores, weights, context);
                    const Reference ref = sdpa_ref(s, q, k, v, o);
                    double biggest = 0;
                    for (double x : ref.scores) biggest = std::max(biggest, std::fabs(x));
                    if (nk > 1) CHECK(biggest > 88.8); // e^biggest overflows float
                    check_against(ref, s, v, scores, weights, context);
                    for (std::size_t i = 0; i < s.nq; ++i) {
                        double sum = 0;
                        for (std::size_t j = 0; j < s.nk; ++j) sum += weights[i * s.nk + j];
                        CHECK(sum == doctest::Approx(1.0).epsilon(1e-5));
                    }
                }
}

TEST_CASE("sdpa_forward on a hand-made example gives the weighted sum of the values") {
    // Two keys; the query matches key 1 (score 2·1 = 2, key 0 scores 0), scale 0.5 → scores 0 and 1.
    std::vector<float> q{1, 1}, k{1, -1, 1, 1}, v{10, 0, 0, 10};
    std::vector<float> scores(2), weights(2), context(2);
    const double w1 = std::exp(1.0) / (1.0 + std::exp(1.0));
    for (const auto &impl : test::implementations) {
        CAPTURE(impl.name);
        run(impl.simd, {1, 2, 2, 2}, q, k, v, {0.5f}, scores, weights, context);
        CHECK(scores[0] == 0.0f);
        CHECK(scores[1] == 1.0f);
        CHECK(weights[1] == doctest::Approx(w1).epsilon(1e-6));
        CHECK(context[0] == doctest::Approx(10 * (1 - w1)).epsilon(1e-6));
        CHECK(context[1] == doctest::Approx(10 * w1).epsilon(1e-6));
    }
}

TEST_CASE("causal sdpa_forward lets query i see only keys up to i") {
    // Three equal keys: query i spreads its weight evenly over keys 0..i.
    std::vector<float> q(3 * 2, 1.0f), k(3 * 2, 1.0f), v{1, 2, 3};
    std::vector<float> scores(9), weights(9), context(3);
    for (const auto &impl : test::implementations) {
        CAPTURE(impl.name);
        run(impl.simd, {3, 3, 2, 1}, q, k, v, {1.0f, {}, true}, scores, weights, context);
        const std::vector<float> want{1, 0, 0, 0.5f, 0.5f, 0, 1 / 3.0f, 1 / 3.0f, 1 / 3.0f};
        for (std::size_t j = 0; j < 9; ++j) CHECK(weights[j] == doctest::Approx(want[j]).epsilon(1e-6));
        CHECK(context[0] == doctest::Approx(1.0f));
        CHECK(context[1] == doctest::Approx(1.5f));
        CHECK(context[2] == doctest::Approx(2.0f));
    }
}

TEST_CASE("sdpa_forward rejects bad shapes and fully masked queries naming the shapes") {
    std::vector<float> q(2 * 4), k(3 * 4), v(3 * 5), scores(6), weights(6), context(10);
    const core::SdpaShape good{2, 3, 4, 5};
    for (const auto &impl : test::implementations) {
        CAPTURE(impl.name);
        auto call = [&](const core::SdpaShape &s, const core::SdpaOptions &o, std::vector<float> &kk) {
            return [&, s, o] { run(impl.simd, s, q, kk, v, o, scores, weights, context); };
        };
        std::vector<float> short_k(11);
        test::check_throws_mentioning(call(good, {}, short_k), {"nq=2", "nk=3", "d=4", "dv=5", "K", "11", "12"});
        test::check_throws_mentioning(call({2, 3, 4, 6}, {}, k), {"dv=6", "V", "15", "18"});
        test::check_throws_mentioning(call({0, 3, 4, 5}, {}, k), {"nq=0", "positive"});
        std::vector<std::uint8_t> short_mask(2, 1), no_keys(3, 0);
        test::check_throws_mentioning(call(good, {1.0f, short_mask}, k), {"key_mask", "2", "3"});
        test::check_throws_mentioning(call(good, {1.0f, no_keys}, k), {"nq=2", "query 0", "masked"});
        // Causal with key 0 masked: query 0 of 3 (nq == nk) sees only key 0.
        std::vector<float> q3(3 * 4), s9(9), w9(9), c15(15);
        std::vector<std::uint8_t> first_masked{0, 1, 1};
        test::check_throws_mentioning(
            [&] {
                run(impl.simd, {3, 3, 4, 5}, q3, k, v, {1.0f, first_masked, true}, s9, w9, c15);
            },
            {"query 0", "masked"});
        std::vector<float> k2(2 * 4);
        test::check_throws_mentioning(
            [&] {
                run(impl.simd, {3, 2, 4, 5}, q3, k2, v, {1.0f, {}, true}, s9, w9, c15);
            },
            {"causal", "nq=3"});
    }
}
