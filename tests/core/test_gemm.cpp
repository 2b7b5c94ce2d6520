// gemm: every combination of plain and transposed operands, with and without accumulate, at the
// awkward sizes (rows below, at and above the 4-row panels, columns around the 8-column panels,
// odd k): scalar against double precision within Higham's bound, and the packed SIMD version
// against the scalar one bit for bit when m ≥ 4 (same order of operations, see kernels_gemm.hpp),
// within the bound when m < 4 (its row kernels split the sums across lanes).
#include "core/kernels_gemm.hpp"
#include "reference.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

using namespace apg;
using apg::test::gamma_n;
using apg::test::u;

namespace {

void run_gemm(bool simd, core::Op op_a, core::Op op_b, const std::vector<float> &a, const std::vector<float> &b,
              std::vector<float> &c, std::size_t m, std::size_t n, std::size_t k, bool accumulate) {
    if (simd)
        core::simd::gemm(op_a, op_b, a, b, c, m, n, k, accumulate);
    else
        core::scalar::gemm(op_a, op_b, a, b, c, m, n, k, accumulate);
}

const char *name(core::Op op) { return op == core::Op::plain ? "plain" : "transposed"; }

} // namespace

TEST_CASE("gemm matches double precision within Higham's bound, and the packed SIMD gemm the scalar one exactly") {
    core::Rng rng(28);
    const core::Op ops[] = {core::Op::plain, core::Op::transposed};
    for (core::Op op_a : ops)
        for (core::Op op_b : ops)
            for (std::size_t m : test::block_sizes)
                for (std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{8}, std::size_t{13}, std::size_t{65}})
                    for (std::size_t k : {std::size_t{1}, std::size_t{4}, std::size_t{17}, std::size_t{64}})
                        for (bool accumulate : {false, true}) {
                            CAPTURE(name(op_a));
                            CAPTURE(name(op_b));
                            CAPTURE(m);
                            CAPTURE(n);
                            CAPTURE(k);
                            CAPTURE(accumulate);
                            const auto a = test::random_vector(m * k, rng), b = test::random_vector(k * n, rng);
                            const auto c0 = test::random_vector(m * n, rng);
                            std::vector<float> scalar_c = c0, simd_c = c0;
                            run_gemm(false, op_a, op_b, a, b, scalar_c, m, n, k, accumulate);
                            run_gemm(true, op_a, op_b, a, b, simd_c, m, n, k, accumulate);
                            for (std::size_t i = 0; i < m; ++i)
                                for (std::size_t j = 0; j < n; ++j) {
                                    double exact = 0, magnitude = 0;
                                    for (std::size_t p = 0; p < k; ++p) {
                                        const float x = op_a == core::Op::plain ? a[i * k + p] : a[p * m + i];
                                        const float y = op_b == core::Op::plain ? b[p * n + j] : b[j * k + p];
                                        exact += static_cast<double>(x) * y;
                                        magnitude += std::fabs(static_cast<double>(x) * y);
                                    }
                                    // The sum of k products (γ_k), then one more rounding when added to C.
                                    double bound = gamma_n(k) * magnitude;
                                    if (accumulate) {
                                        exact += c0[i * n + j];
                                        bound += u * (std::fabs(exact) + gamma_n(k) * magnitude);
                                    }
                                    CHECK(std::fabs(scalar_c[i * n + j] - exact) <= bound);
                                    CHECK(std::fabs(simd_c[i * n + j] - exact) <= bound);
                                }
                            if (m >= 4) CHECK(std::memcmp(scalar_c.data(), simd_c.data(), m * n * sizeof(float)) == 0);
                        }
}

TEST_CASE("gemm of hand-made matrices is exact, and k = 0 gives zeros or leaves C") {
    // A = [[1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 0, 1], [0, 1, 0]] (5 × 3), B = [[1, 0], [0, 1], [1, 1]] (3 × 2):
    // A B = [[4, 5], [10, 11], [16, 17], [2, 1], [0, 1]], exact in float.
    const std::vector<float> a{1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 0, 1, 0, 1, 0}, b{1, 0, 0, 1, 1, 1};
    const std::vector<float> want{4, 5, 10, 11, 16, 17, 2, 1, 0, 1};
    std::vector<float> bt{1, 0, 1, 0, 1, 1}; // Bᵀ, 2 × 3
    for (const auto &impl : test::implementations) {
        CAPTURE(impl.name);
        std::vector<float> c(10, -1.0f);
        run_gemm(impl.simd, core::Op::plain, core::Op::plain, a, b, c, 5, 2, 3, false);
        CHECK(c == want);
        run_gemm(impl.simd, core::Op::plain, core::Op::transposed, a, bt, c, 5, 2, 3, true);
        for (std::size_t i = 0; i < 10; ++i) CHECK(c[i] == 2 * want[i]);
        std::vector<float> c2(4, 3.0f);
        run_gemm(impl.simd, core::Op::plain, core::Op::plain, {}, {}, c2, 2, 2, 0, true);
        CHECK(c2 == std::vector<float>(4, 3.0f));
        run_gemm(impl.simd, core::Op::plain, core::Op::plain, {}, {}, c2, 2, 2, 0, false);
        CHECK(c2 == std::vector<float>(4, 0.0f));
    }
}

TEST_CASE("gemm rejects operands whose sizes are not their shapes', naming them") {
    const std::vector<float> six(6), five(5), nine(9);
    std::vector<float> c(4);
    for (const auto &impl : test::implementations) {
        CAPTURE(impl.name);
        test::check_throws_mentioning(
            [&] { run_gemm(impl.simd, core::Op::plain, core::Op::plain, five, six, c, 2, 2, 3, false); },
            {"gemm", "A", "5", "6"});
        test::check_throws_mentioning(
            [&] { run_gemm(impl.simd, core::Op::transposed, core::Op::plain, six, five, c, 2, 2, 3, false); },
            {"gemm", "B", "5", "6"});
        test::check_throws_mentioning(
            [&] { run_gemm(impl.simd, core::Op::plain, core::Op::transposed, six, nine, c, 2, 3, 3, false); },
            {"gemm", "C", "4", "6"});
    }
}
