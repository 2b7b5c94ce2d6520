// fused_attention: scalar and SIMD against a double-precision softmax(scale·QKᵀ)V computed from the
// same float inputs, at the awkward sizes (below, at and above the 4-row blocks, the 8-key register
// tiles and the 64-key tiles), with masks, causal offsets, strided views, cross-attention shapes and
// scores that would overflow a naive exp.
#include "core/kernels_attention.hpp"
#include "reference.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <vector>

using namespace apg;
using apg::test::gamma_n;
using apg::test::u;

namespace {

// A matrix stored with a row stride (wider than its rows, as one head's columns of Q are).
struct Strided {
    std::vector<float> data;
    std::size_t rows, cols, stride;
    core::ConstRows view() const { return {data, rows, cols, stride}; }
    float at(std::size_t r, std::size_t c) const { return data[r * stride + c]; }
};
Strided random_rows(std::size_t rows, std::size_t cols, std::size_t pad, core::Rng &rng, float range) {
    Strided m{{}, rows, cols, cols + pad};
    m.data = test::random_vector(rows == 0 ? 0 : (rows - 1) * m.stride + cols, rng, -range, range);
    return m;
}

struct Case {
    Strided q, k, v;
    float scale;
    core::AttentionMask mask;
};

bool visible(const Case &t, std::size_t r, std::size_t c) {
    const auto &m = t.mask;
    return (m.keys.empty() || m.keys[c]) && (m.allowed.empty() || m.allowed[r * t.k.rows + c]) &&
           (!m.causal || c <= m.first_query + r);
}

std::vector<float> run_attention(bool simd, const Case &t, std::size_t out_stride) {
    std::vector<float> out(t.q.rows * out_stride, 7.0f);
    const core::Rows view{out, t.q.rows, t.v.cols, out_stride};
    if (simd)
        core::simd::fused_attention(t.q.view(), t.k.view(), t.v.view(), view, t.scale, t.mask);
    else
        core::scalar::fused_attention(t.q.view(), t.k.view(), t.v.view(), view, t.scale, t.mask);
    return out;
}

// Checks every output against the double-precision reference within the bound below.
//
// Error budget for one output o_rj = Σ_c w_c v_cj, w_c = e^{s_c − m} / Σ e^{s − m}, in float:
//   the scores: each s_c = scale·(q·k_c) is off by at most E = γ_{dk+1}·scale·Σ_p|q_p k_cp| (the
//     scaling is one more rounding, of q or of the dot product), so s_c − m is off by ≤ 2E;
//   forming s_c − m: u·A with A the largest |s_c − m|; the exp: 2u (one ulp, test_elementwise.cpp);
//   the online rescalings: each multiplies the running sum and outputs by e^{m_old − m_new}, with
//     2u for the exp, u for the product and u·|m_old − m_new| for forming the argument; at most T of
//     them (T ≤ nk for the scalar version, which rescales at every new maximum) and the |Δm| add
//     up to at most A, so ≤ 3u·T + u·A in all;
//   so each weight's numerator is off by a relative ε = 2E + 2u·A + 2u + 3u·T;
//   the sums Σ e^{s − m} and Σ w v: γ_{nk+T} each (T rescaled partial sums join them); the final
//     division (or reciprocal and product): 2u; the ratio of numerator and denominator doubles ε.
// Relative to Σ_c w_c |v_cj|, that is 2ε + 2γ_{nk+T} + 2u. Weights below FLT_MIN are flushed to 0
// by the SIMD exp, an absolute error of FLT_MIN·Σ_c|v_cj| at most.
void check_case(const Case &t, const char *what) {
    const std::size_t nq = t.q.rows, nk = t.k.rows, dk = t.q.cols, dv = t.v.cols;
    for (const auto &impl : test::implementations) {
        CAPTURE(what);
        CAPTURE(impl.name);
        CAPTURE(nq);
        CAPTURE(nk);
        CAPTURE(dk);
        CAPTURE(dv);
        const std::size_t out_stride = dv + 3;
        const std::vector<float> got = run_attention(impl.simd, t, out_stride);
        for (std::size_t r = 0; r < nq; ++r) {
            std::vector<double> s(nk, 0.0);
            double mx = -std::numeric_limits<double>::infinity(), e_max = 0;
            for (std::size_t c = 0; c < nk; ++c) {
                if (!visible(t, r, c)) continue;
                double dot = 0, mag = 0;
                for (std::size_t p = 0; p < dk; ++p) {
                    dot += static_cast<double>(t.q.at(r, p)) * t.k.at(c, p);
                    mag += std::fabs(static_cast<double>(t.q.at(r, p)) * t.k.at(c, p));
                }
                s[c] = t.scale * dot;
                mx = std::max(mx, s[c]);
                e_max = std::max(e_max, gamma_n(dk + 1) * t.scale * mag);
            }
            double sum = 0, spread = 0;
            std::vector<double> w(nk, 0.0);
            for (std::size_t c = 0; c < nk; ++c)
                if (visible(t, r, c)) {
                    sum += w[c] = std::exp(s[c] - mx);
                    spread = std::max(spread, mx - s[c]);
                }
            const double tiles = impl.simd ? (nk + 63) / 64 : nk;
            const double eps = 2 * e_max + 2 * u * spread + 2 * u + 3 * u * tiles;
            const double rel = 2 * eps + 2 * gamma_n(nk + static_cast<std::size_t>(tiles)) + 2 * u;
            for (std::size_t j = 0; j < dv; ++j) {
                double want = 0, mag = 0, vmag = 0;
                for (std::size_t c = 0; c < nk; ++c) {
                    want += w[c] / sum * t.v.at(c, j);
                    mag += w[c] / sum * std::fabs(t.v.at(c, j));
                    vmag += std::fabs(t.v.at(c, j));
                }
                CAPTURE(r);
                CAPTURE(j);
                const double g = got[r * out_stride + j];
                CHECK(std::fabs(g - want) <= rel * mag + FLT_MIN * vmag);
            }
            for (std::size_t j = dv; j < out_stride && r + 1 < nq; ++j) CHECK(got[r * out_stride + j] == 7.0f);
        }
    }
}

} // namespace

TEST_CASE("fused attention matches the double-precision reference at every awkward size") {
    core::Rng rng(28);
    for (std::size_t n : test::block_sizes)
        for (std::size_t d : {std::size_t{3}, std::size_t{8}, std::size_t{17}}) {
            Case t{random_rows(n, d, 0, rng, 1.0f),
                   random_rows(n, d, 0, rng, 1.0f),
                   random_rows(n, d, 0, rng, 1.0f),
                   1.0f / std::sqrt(static_cast<float>(d)),
                   {}};
            check_case(t, "self-attention");
        }
}

TEST_CASE("fused attention reads strided views and takes keys and values from another sequence") {
    // Cross-attention: nq queries from one sequence, nk keys and values from another, dv ≠ dk, every
    // operand one head's columns of a wider matrix (stride > cols).
    core::Rng rng(29);
    for (std::size_t nq : test::block_sizes)
        for (std::size_t nk : {std::size_t{1}, std::size_t{5}, std::size_t{65}, std::size_t{130}}) {
            Case t{random_rows(nq, 16, 48, rng, 1.0f),
                   random_rows(nk, 16, 5, rng, 1.0f),
                   random_rows(nk, 12, 3, rng, 1.0f),
                   0.25f,
                   {}};
            check_case(t, "cross-attention");
        }
}

TEST_CASE("fused attention honours key padding, an allowed matrix and a causal offset") {
    core::Rng rng(30);
    for (std::size_t n : test::block_sizes) {
        std::vector<std::uint8_t> keys(n), allowed(n * n);
        for (auto &b : keys) b = rng.below(4) != 0;
        keys[0] = 1; // query 0 of a causal mask sees key 0 only
        for (auto &b : allowed) b = rng.below(3) != 0;
        for (std::size_t r = 0; r < n; ++r) allowed[r * n + rng.below(n)] = 1; // never a row with nothing
        const Strided q = random_rows(n, 9, 0, rng, 1.0f), k = random_rows(n, 9, 0, rng, 1.0f),
                      v = random_rows(n, 10, 0, rng, 1.0f);
        check_case({q, k, v, 0.5f, {.keys = keys}}, "key padding");
        check_case({q, k, v, 0.5f, {.allowed = allowed}}, "allowed");
        check_case({q, k, v, 0.5f, {.keys = keys, .causal = true}}, "causal with padding");
    }
    // The last nq of nk positions decoded at once (a decoder with a cache of earlier keys):
    // query r sees keys up to nk − nq + r.
    for (std::size_t nk : test::block_sizes)
        for (std::size_t nq = 1; nq <= nk; nq += 4) {
            const Case t{random_rows(nq, 8, 0, rng, 1.0f),
                         random_rows(nk, 8, 0, rng, 1.0f),
                         random_rows(nk, 8, 0, rng, 1.0f),
                         0.5f,
                         {.causal = true, .first_query = nk - nq}};
            check_case(t, "causal offset");
        }
}

TEST_CASE("fused attention of one decoding step equals the last row of the whole causal pass") {
    // What a decoder with a key/value cache relies on: query n − 1 alone, with first_query = n − 1,
    // gives the same numbers as row n − 1 of the full causal self-attention (same kernel path for one row).
    core::Rng rng(31);
    const std::size_t n = 17, d = 16;
    const Strided q = random_rows(n, d, 0, rng, 1.0f), k = random_rows(n, d, 0, rng, 1.0f),
                  v = random_rows(n, d, 0, rng, 1.0f);
    for (const auto &impl : test::implementations) {
        CAPTURE(impl.name);
        const std::vector<float> whole = run_attention(impl.simd, {q, k, v, 0.25f, {.causal = true}}, d);
        Strided last{{q.data.begin() + (n - 1) * d, q.data.end()}, 1, d, d};
        const std::vector<float> step =
            run_attention(impl.simd, {last, k, v, 0.25f, {.causal = true, .first_query = n - 1}}, d);
        for (std::size_t j = 0; j < d; ++j) CHECK(step[j] == whole[(n - 1) * d + j]);
    }
}

TEST_CASE("fused attention of scores that would overflow a naive exp stays finite and exact") {
    // |scores| up to ~1500: e^{1500} is inf in float and in double, inf/inf is NaN. The running
    // maximum keeps every exponent ≤ 0. Rows 0 … 63 also see their maximum grow tile after tile
    // (keys sorted by increasing score), the case that rescales the most.
    core::Rng rng(32);
    for (std::size_t n : test::block_sizes) {
        Case t{random_rows(n, 24, 0, rng, 8.0f),
               random_rows(n, 24, 0, rng, 8.0f),
               random_rows(n, 5, 0, rng, 1.0f),
               1.0f,
               {}};
        check_case(t, "huge scores");
    }
    const std::size_t n = 130, d = 4;
    Case t{random_rows(n, d, 0, rng, 1.0f),
           Strided{std::vector<float>(n * d, 0.0f), n, d, d},
           random_rows(n, 3, 0, rng, 1.0f),
           1.0f,
           {}};
    for (std::size_t r = 0; r < n; ++r) t.q.data[r * d] = 1.0f;
    for (std::size_t c = 0; c < n; ++c) t.k.data[c * d] = 10.0f * static_cast<float>(c); // scores 0 … 1290
    check_case(t, "growing maximum");
    for (const auto &impl : test::implementations) {
        const std::vector<float> got = run_attention(impl.simd, t, 3);
        for (float x : got) CHECK(std::isfinite(x));
    }
}

TEST_CASE("fused attention with equal scores averages the values exactly") {
    // Every score 0: every weight e^0 = 1 exactly and their sum n is exact, so out = mean of v; with
    // v's rows 0, 1, …, n − 1 the mean is (n − 1)/2. What rounds is 1/n (or the division) and the n
    // products and sums of the weighted sum: γ_{n+2} relative.
    for (std::size_t n : test::block_sizes)
        for (const auto &impl : test::implementations) {
            CAPTURE(n);
            CAPTURE(impl.name);
            Strided q{std::vector<float>(n * 4, 0.0f), n, 4, 4}, k{std::vector<float>(n * 4, 1.0f), n, 4, 4};
            Strided v{std::vector<float>(n * 9), n, 9, 9};
            for (std::size_t c = 0; c < n; ++c)
                for (std::size_t j = 0; j < 9; ++j) v.data[c * 9 + j] = static_cast<float>(c);
            const std::vector<float> got = run_attention(impl.simd, {q, k, v, 1.0f, {}}, 9);
            for (float x : got)
                CHECK(std::fabs(x - (static_cast<double>(n) - 1) / 2) <=
                      gamma_n(n + 2) * (static_cast<double>(n) - 1) / 2);
        }
}

TEST_CASE("fused attention rejects mismatched views and queries with nothing to see, writing nothing") {
    core::Rng rng(33);
    const Strided q = random_rows(5, 4, 0, rng, 1.0f), k = random_rows(6, 4, 0, rng, 1.0f),
                  v = random_rows(6, 3, 0, rng, 1.0f), narrow = random_rows(6, 5, 0, rng, 1.0f);
    for (const auto &impl : test::implementations) {
        CAPTURE(impl.name);
        auto call = [&](core::ConstRows qv, core::ConstRows kv, core::ConstRows vv, std::size_t out_rows,
                        std::size_t out_cols, const core::AttentionMask &mask = {}) {
            std::vector<float> out(out_rows * out_cols, 7.0f);
            auto f = impl.simd ? core::simd::fused_attention : core::scalar::fused_attention;
            try {
                f(qv, kv, vv, {out, out_rows, out_cols, out_cols}, 1.0f, mask);
            } catch (...) {
                for (float x : out) CHECK(x == 7.0f);
                throw;
            }
        };
        test::check_throws_mentioning([&] { call(q.view(), narrow.view(), v.view(), 5, 3); }, {"5×4", "6×5"});
        test::check_throws_mentioning([&] { call(q.view(), k.view(), random_rows(5, 3, 0, rng, 1).view(), 5, 3); },
                                      {"6×4", "5×3"});
        test::check_throws_mentioning([&] { call(q.view(), k.view(), v.view(), 4, 3); }, {"out", "4×3", "5×3"});
        core::ConstRows short_q = q.view();
        short_q.stride = 6; // 5 rows of 4, 6 apart, need 28 floats; it holds 20
        test::check_throws_mentioning([&] { call(short_q, k.view(), v.view(), 5, 3); }, {"q", "28", "20"});
        core::ConstRows overlapping = q.view();
        overlapping.stride = 2;
        test::check_throws_mentioning([&] { call(overlapping, k.view(), v.view(), 5, 3); }, {"q", "overlap"});
        const std::vector<std::uint8_t> five(5, 1), none(6, 0), first_hidden{0, 1, 1, 1, 1, 1};
        test::check_throws_mentioning([&] { call(q.view(), k.view(), v.view(), 5, 3, {.keys = five}); },
                                      {"key mask", "5", "6"});
        test::check_throws_mentioning([&] { call(q.view(), k.view(), v.view(), 5, 3, {.allowed = five}); },
                                      {"allowed", "5", "30"});
        test::check_throws_mentioning([&] { call(q.view(), k.view(), v.view(), 5, 3, {.keys = none}); },
                                      {"query 0", "no key"});
        // Causal: query 0 sees key 0 only, which is padding.
        test::check_throws_mentioning(
            [&] { call(q.view(), k.view(), v.view(), 5, 3, {.keys = first_hidden, .causal = true}); },
            {"query 0", "no key"});
        std::vector<std::uint8_t> allowed(30, 1);
        std::fill(allowed.begin() + 18, allowed.begin() + 24, 0); // row 3
        test::check_throws_mentioning([&] { call(q.view(), k.view(), v.view(), 5, 3, {.allowed = allowed}); },
                                      {"query 3", "no key"});
        test::check_throws_mentioning(
            [&] { call(q.view(), random_rows(0, 4, 0, rng, 1).view(), random_rows(0, 3, 0, rng, 1).view(), 5, 3); },
            {"query 0", "no key"});
    }
}
