// dot, axpy, gemv, gemv_t, gemm_nt, gemm_nn: scalar and SIMD against a double-precision reference,
// at lengths below, at, above and at multiples of the vector width, with odd matrix shapes.
#include "core/kernels.hpp"
#include "reference.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using namespace apg;
using apg::test::gamma_n;

namespace {

struct Shape {
    std::size_t m, n, k;
};
// Odd shapes hit every edge of the register blocks (2×4 and 4×8 blocks, k in steps of 4).
constexpr Shape shapes[] = {{1, 1, 1},   {1, 4, 4},    {2, 4, 3},   {3, 5, 7},    {5, 9, 17},  {4, 8, 64},
                            {7, 13, 33}, {17, 33, 65}, {9, 3, 257}, {64, 64, 64}, {33, 17, 5}, {6, 12, 1}};

// Exact Σ a_i b_i (double is exact enough: the products of floats are exact in double) and Σ|a_i b_i|.
struct DotRef {
    double value = 0, magnitude = 0;
};
DotRef dot_ref(const float *a, std::size_t sa, const float *b, std::size_t sb, std::size_t n) {
    DotRef r;
    for (std::size_t i = 0; i < n; ++i) {
        double t = static_cast<double>(a[i * sa]) * b[i * sb];
        r.value += t;
        r.magnitude += std::fabs(t);
    }
    return r;
}

} // namespace

TEST_CASE("dot matches the double-precision sum within Higham's bound") {
    core::Rng rng(1);
    for (const auto &impl : test::implementations)
        for (std::size_t n : test::vector_lengths) {
            CAPTURE(impl.name);
            CAPTURE(n);
            auto a = test::random_vector(n, rng), b = test::random_vector(n, rng);
            float got = impl.simd ? core::simd::dot(a, b) : core::scalar::dot(a, b);
            DotRef ref = dot_ref(a.data(), 1, b.data(), 1, n);
            CHECK(std::fabs(got - ref.value) <= gamma_n(n) * ref.magnitude);
        }
}

TEST_CASE("dot of hand-made vectors is exact") {
    std::vector<float> a{1, 2, 3, 4, 5}, b{6, 7, 8, 9, 10}; // 6 + 14 + 24 + 36 + 50
    CHECK(core::simd::dot(a, b) == 130.0f);
    CHECK(core::scalar::dot(a, b) == 130.0f);
}

TEST_CASE("axpy adds alpha times x to y with at most two roundings per element") {
    core::Rng rng(2);
    for (const auto &impl : test::implementations)
        for (std::size_t n : test::vector_lengths) {
            CAPTURE(impl.name);
            CAPTURE(n);
            auto x = test::random_vector(n, rng), y = test::random_vector(n, rng);
            const float alpha = -0.75f;
            auto got = y;
            if (impl.simd)
                core::simd::axpy(alpha, x, got);
            else
                core::scalar::axpy(alpha, x, got);
            for (std::size_t i = 0; i < n; ++i) {
                double exact = y[i] + static_cast<double>(alpha) * x[i];
                // one rounding for the product, one for the sum
                CHECK(std::fabs(got[i] - exact) <= gamma_n(2) * (std::fabs(y[i]) + std::fabs(alpha * x[i])));
            }
        }
}

TEST_CASE("gemv and gemv_t match double-precision products at odd shapes") {
    core::Rng rng(3);
    for (const auto &impl : test::implementations)
        for (const Shape &s : shapes) {
            CAPTURE(impl.name);
            CAPTURE(s.m);
            CAPTURE(s.n);
            auto a = test::random_vector(s.m * s.n, rng), x = test::random_vector(s.n, rng);
            auto xt = test::random_vector(s.m, rng);
            std::vector<float> y(s.m, 99.0f), yt(s.n, 99.0f); // 99: the kernels must overwrite, not add
            if (impl.simd) {
                core::simd::gemv(a, x, y, s.m, s.n);
                core::simd::gemv_t(a, xt, yt, s.m, s.n);
            } else {
                core::scalar::gemv(a, x, y, s.m, s.n);
                core::scalar::gemv_t(a, xt, yt, s.m, s.n);
            }
            for (std::size_t i = 0; i < s.m; ++i) {
                DotRef ref = dot_ref(a.data() + i * s.n, 1, x.data(), 1, s.n);
                CHECK(std::fabs(y[i] - ref.value) <= gamma_n(s.n) * ref.magnitude);
            }
            for (std::size_t j = 0; j < s.n; ++j) {
                DotRef ref = dot_ref(a.data() + j, s.n, xt.data(), 1, s.m);
                CHECK(std::fabs(yt[j] - ref.value) <= gamma_n(s.m) * ref.magnitude);
            }
        }
}

TEST_CASE("gemm_nt and gemm_nn match double-precision products at odd shapes") {
    core::Rng rng(4);
    for (const auto &impl : test::implementations)
        for (const Shape &s : shapes) {
            CAPTURE(impl.name);
            CAPTURE(s.m);
            CAPTURE(s.n);
            CAPTURE(s.k);
            auto a = test::random_vector(s.m * s.k, rng);
            auto bt = test::random_vector(s.n * s.k, rng); // n × k for gemm_nt
            auto b = test::random_vector(s.k * s.n, rng);  // k × n for gemm_nn
            std::vector<float> c_nt(s.m * s.n, 99.0f), c_nn(s.m * s.n, 99.0f);
            if (impl.simd) {
                core::simd::gemm_nt(a, bt, c_nt, s.m, s.n, s.k);
                core::simd::gemm_nn(a, b, c_nn, s.m, s.n, s.k);
            } else {
                core::scalar::gemm_nt(a, bt, c_nt, s.m, s.n, s.k);
                core::scalar::gemm_nn(a, b, c_nn, s.m, s.n, s.k);
            }
            for (std::size_t i = 0; i < s.m; ++i)
                for (std::size_t j = 0; j < s.n; ++j) {
                    DotRef nt = dot_ref(a.data() + i * s.k, 1, bt.data() + j * s.k, 1, s.k);
                    DotRef nn = dot_ref(a.data() + i * s.k, 1, b.data() + j, s.n, s.k);
                    CHECK(std::fabs(c_nt[i * s.n + j] - nt.value) <= gamma_n(s.k) * nt.magnitude);
                    CHECK(std::fabs(c_nn[i * s.n + j] - nn.value) <= gamma_n(s.k) * nn.magnitude);
                }
        }
}

TEST_CASE("gemm of a hand-made 2x3 by 3x2 product is exact") {
    std::vector<float> a{1, 2, 3, 4, 5, 6};     // 2 × 3
    std::vector<float> b{7, 8, 9, 10, 11, 12};  // 3 × 2
    std::vector<float> bt{7, 9, 11, 8, 10, 12}; // the same B stored as 2 × 3 (Bᵀ)
    std::vector<float> want{58, 64, 139, 154};  // [1 2 3; 4 5 6] [7 8; 9 10; 11 12]
    std::vector<float> c(4);
    core::simd::gemm_nn(a, b, c, 2, 2, 3);
    CHECK(c == want);
    core::simd::gemm_nt(a, bt, c, 2, 2, 3);
    CHECK(c == want);
    core::scalar::gemm_nn(a, b, c, 2, 2, 3);
    CHECK(c == want);
    core::scalar::gemm_nt(a, bt, c, 2, 2, 3);
    CHECK(c == want);
}

TEST_CASE("linear kernels reject mismatched shapes naming them") {
    std::vector<float> a(6), b(5), c(4);
    for (const auto &impl : test::implementations) {
        CAPTURE(impl.name);
        const bool s = impl.simd;
        test::check_throws_mentioning([&] { s ? (void)core::simd::dot(a, b) : (void)core::scalar::dot(a, b); },
                                      {"dot", "5", "6"});
        test::check_throws_mentioning([&] { s ? core::simd::axpy(1, a, b) : core::scalar::axpy(1, a, b); },
                                      {"axpy", "5", "6"});
        test::check_throws_mentioning([&] { s ? core::simd::gemv(a, b, c, 2, 3) : core::scalar::gemv(a, b, c, 2, 3); },
                                      {"gemv", "x", "5", "3"});
        test::check_throws_mentioning(
            [&] { s ? core::simd::gemv_t(a, c, b, 2, 3) : core::scalar::gemv_t(a, c, b, 2, 3); },
            {"gemv_t", "x", "4", "2"});
        test::check_throws_mentioning(
            [&] { s ? core::simd::gemm_nt(a, b, c, 2, 2, 3) : core::scalar::gemm_nt(a, b, c, 2, 2, 3); },
            {"gemm_nt", "B", "5", "6"});
        test::check_throws_mentioning(
            [&] { s ? core::simd::gemm_nn(a, a, b, 2, 2, 3) : core::scalar::gemm_nn(a, a, b, 2, 2, 3); },
            {"gemm_nn", "C", "5", "4"});
    }
}
