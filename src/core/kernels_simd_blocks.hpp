// The register blocks shared by the SIMD kernels (kernels_simd.cpp, the packed GEMM and the fused
// attention). Each is a small function that is not inlined: V8 switches to a function's optimised
// code only between calls (there is no on-stack replacement for wasm), and these are where the
// time goes, so they must be functions called often.
//
// multiply(): a 4 × 8 block of C held in 8 vector registers while the whole k loop runs, fed from two packed
// panels read front to back:
//   a panel  k × 4   column p of 4 rows of A, at a + 4p (read one number at a time, broadcast)
//   b panel  k × 8   row p of 8 columns of B, at b + 8p (read as two vectors)
// Each step of p is 2 loads, 4 broadcast loads, 8 multiplies and 8 adds, with 8 independent sums:
// enough to cover the latency of the adds; measured under V8 (node 20) at ~55 GFLOP/s on this
// machine, above bench_peak's chained multiply–add loop. Packed panels make every load a constant offset from
// two pointers; reading A in place with a row stride (four address streams) measured ~15% slower
// under V8, and taller or wider tiles (6 × 8, 4 × 12) run out of V8's 15 vector registers and
// spill (half the speed). Every sum runs over p in order, one product at a time, so the result is
// that of the scalar reference's plain loop: sum = 0; for p: sum += a·b.
#pragma once

#include "core/simd_mappings.hpp"

#include <cstddef>

#if APG_SIMD_WIDTH

namespace apg::core::simd::blocks {

using namespace apg::core::vec;
using std::size_t;

// ---- the 4 × 8 tile on packed panels ----------------------------------------------------------

// Rows r0, r1, r2, r3 (four vectors) → columns: the 4 × 4 transpose, in place.
inline void transpose(f32x4 &r0, f32x4 &r1, f32x4 &r2, f32x4 &r3) {
    const f32x4 t0 = interleave_lo(r0, r1), t1 = interleave_lo(r2, r3); // a0 b0 a1 b1 | c0 d0 c1 d1
    const f32x4 t2 = interleave_hi(r0, r1), t3 = interleave_hi(r2, r3); // a2 b2 a3 b3 | c2 d2 c3 d3
    r0 = low_halves(t0, t1), r1 = high_halves(t0, t1), r2 = low_halves(t2, t3), r3 = high_halves(t2, t3);
}

// out (4 × 8, row-major, contiguous) = a panel · b panel, or += when accumulate.
[[gnu::noinline]] inline void multiply(const float *a, const float *b, size_t k, float *out, bool accumulate) {
    f32x4 acc[4][2];
    for (int r = 0; r < 4; ++r)
        for (int j = 0; j < 2; ++j) acc[r][j] = accumulate ? load(out + 8 * r + 4 * j) : zero();
    // Indexed from the panels' starts rather than by advancing pointers, and not unrolled: both
    // measured ~15% and ~40% slower under V8 (unrolled twice, the loop's live vectors no longer fit
    // in registers).
    for (size_t p = 0; p < k; ++p) {
        const f32x4 b0 = load(b + 8 * p), b1 = load(b + 8 * p + 4);
        for (int r = 0; r < 4; ++r) {
            const f32x4 ar = load_splat(a + 4 * p + r);
            acc[r][0] = madd(ar, b0, acc[r][0]);
            acc[r][1] = madd(ar, b1, acc[r][1]);
        }
    }
    for (int r = 0; r < 4; ++r)
        for (int j = 0; j < 2; ++j) store(out + 8 * r + 4 * j, acc[r][j]);
}

// The same product, stored transposed (8 × 4: column j of the tile, row j of out, at out + 4j)
// and without accumulating: a tile of attention scores, key-major as the online softmax reads them.
// Returns the largest of each of the 4 rows' 8 numbers, which the softmax needs next.
[[gnu::noinline]] inline f32x4 multiply_transposed(const float *a, const float *b, size_t k, float *out) {
    f32x4 acc[4][2];
    for (int r = 0; r < 4; ++r) acc[r][0] = acc[r][1] = zero();
    for (size_t p = 0; p < k; ++p) {
        const f32x4 b0 = load(b + 8 * p), b1 = load(b + 8 * p + 4);
        for (int r = 0; r < 4; ++r) {
            const f32x4 ar = load_splat(a + 4 * p + r);
            acc[r][0] = madd(ar, b0, acc[r][0]);
            acc[r][1] = madd(ar, b1, acc[r][1]);
        }
    }
    for (int j = 0; j < 2; ++j) {
        transpose(acc[0][j], acc[1][j], acc[2][j], acc[3][j]);
        for (int t = 0; t < 4; ++t) store(out + 16 * j + 4 * t, acc[t][j]);
    }
    return max(max(max(acc[0][0], acc[1][0]), max(acc[2][0], acc[3][0])),
               max(max(acc[0][1], acc[1][1]), max(acc[2][1], acc[3][1])));
}

// Packs `count` ≤ 4 rows of A (row i at src + i·stride, k numbers each) into a k × 4 a panel;
// missing rows are zeros. Four numbers of each row are moved at a time through a 4 × 4 transpose.
inline void pack_rows(const float *src, size_t stride, size_t count, size_t k, float *panel, float factor = 1.0f) {
    const float *row[4];
    for (size_t i = 0; i < 4; ++i) row[i] = src + (i < count ? i : 0) * stride;
    const f32x4 f = splat(factor);
    size_t p = 0;
    if (count == 4)
        for (; p + 4 <= k; p += 4) {
            f32x4 r0 = mul(load(row[0] + p), f), r1 = mul(load(row[1] + p), f);
            f32x4 r2 = mul(load(row[2] + p), f), r3 = mul(load(row[3] + p), f);
            transpose(r0, r1, r2, r3);
            store(panel + 4 * p, r0), store(panel + 4 * p + 4, r1), store(panel + 4 * p + 8, r2);
            store(panel + 4 * p + 12, r3);
        }
    for (; p < k; ++p)
        for (size_t i = 0; i < 4; ++i) panel[4 * p + i] = i < count ? row[i][p] * factor : 0.0f;
}

// Packs `count` ≤ 4 columns of a stored array (row p at src + p·stride, the block's first column
// at src) into a k × 4 a panel: 4 rows of op(A) = Aᵀ; missing rows are zeros.
inline void pack_transposed_rows(const float *src, size_t stride, size_t count, size_t k, float *panel) {
    for (size_t p = 0; p < k; ++p, src += stride, panel += 4) {
        if (count == 4) {
            store(panel, load(src));
        } else {
            for (size_t i = 0; i < 4; ++i) panel[i] = i < count ? src[i] : 0.0f;
        }
    }
}

// Packs `count` ≤ 8 rows of B's transpose (row j at src + j·stride, k numbers each: B stored
// n × k) into a k × 8 b panel; missing columns are zeros.
inline void pack_transposed_cols(const float *src, size_t stride, size_t count, size_t k, float *panel) {
    for (size_t half = 0; half < 2; ++half) {
        const size_t first = 4 * half, here = count > first ? (count - first < 4 ? count - first : 4) : 0;
        const float *row[4];
        for (size_t i = 0; i < 4; ++i) row[i] = here == 0 ? src : src + (first + (i < here ? i : 0)) * stride;
        size_t p = 0;
        if (here == 4)
            for (; p + 4 <= k; p += 4) {
                f32x4 r0 = load(row[0] + p), r1 = load(row[1] + p), r2 = load(row[2] + p), r3 = load(row[3] + p);
                transpose(r0, r1, r2, r3);
                float *dst = panel + 8 * p + first;
                store(dst, r0), store(dst + 8, r1), store(dst + 16, r2), store(dst + 24, r3);
            }
        for (; p < k; ++p)
            for (size_t i = 0; i < 4; ++i) panel[8 * p + first + i] = i < here ? row[i][p] : 0.0f;
    }
}

// Packs `count` ≤ 8 columns of B (B stored k × n, row p at src + p·stride, the block's first
// column at src) into a k × 8 b panel; missing columns are zeros.
inline void pack_cols(const float *src, size_t stride, size_t count, size_t k, float *panel) {
    for (size_t p = 0; p < k; ++p, src += stride, panel += 8) {
        if (count == 8) {
            store(panel, load(src)), store(panel + 4, load(src + 4));
        } else {
            for (size_t j = 0; j < 8; ++j) panel[j] = j < count ? src[j] : 0.0f;
        }
    }
}

// ---- row blocks on rows read in place ----------------------------------------------------------

// Σ a_i b_i over n floats; four accumulators hide the latency of the additions.
inline float dot_n(const float *a, const float *b, size_t n) {
    f32x4 s0 = zero(), s1 = zero(), s2 = zero(), s3 = zero();
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        s0 = madd(load(a + i), load(b + i), s0);
        s1 = madd(load(a + i + 4), load(b + i + 4), s1);
        s2 = madd(load(a + i + 8), load(b + i + 8), s2);
        s3 = madd(load(a + i + 12), load(b + i + 12), s3);
    }
    for (; i + 4 <= n; i += 4) s0 = madd(load(a + i), load(b + i), s0);
    float sum = hsum(add(add(s0, s1), add(s2, s3)));
    for (; i < n; ++i) sum += a[i] * b[i];
    return sum;
}

// R rows of C = A Bᵀ: R rows of A (stride lda) against n rows of B (stride ldb), every row of
// length k, times `factor`. Four rows of B at a time reduce into one vector with hsum4; with R = 2
// that keeps 8 accumulators and 6 loaded vectors in registers (16 on x86-64), so 6 loads feed 8
// multiply-adds.
template <int R>
[[gnu::noinline]] void panel_nt(const float *a, size_t lda, const float *b, size_t ldb, float *c, size_t n, size_t k,
                                size_t ldc, float factor = 1.0f) {
    const size_t k4 = k / 4 * 4;
    size_t j = 0;
    for (; j + 4 <= n; j += 4) {
        const float *bj = b + j * ldb;
        // A single row has only 4 accumulators, too few to hide the latency of the additions:
        // it alternates between two sets, one for even and one for odd steps of p.
        constexpr int sets = R == 1 ? 2 : 1;
        f32x4 acc[sets][R][4];
        for (int set = 0; set < sets; ++set)
            for (int r = 0; r < R; ++r)
                for (int t = 0; t < 4; ++t) acc[set][r][t] = zero();
        auto step = [&](f32x4(&sums)[R][4], size_t p) {
            const f32x4 b0 = load(bj + p), b1 = load(bj + ldb + p), b2 = load(bj + 2 * ldb + p),
                        b3 = load(bj + 3 * ldb + p);
            for (int r = 0; r < R; ++r) {
                const f32x4 av = load(a + r * lda + p);
                sums[r][0] = madd(av, b0, sums[r][0]);
                sums[r][1] = madd(av, b1, sums[r][1]);
                sums[r][2] = madd(av, b2, sums[r][2]);
                sums[r][3] = madd(av, b3, sums[r][3]);
            }
        };
        size_t p = 0;
        for (; p + 4 * sets <= k4; p += 4 * sets)
            for (int set = 0; set < sets; ++set) step(acc[set], p + 4 * set);
        for (; p < k4; p += 4) step(acc[0], p);
        if constexpr (sets == 2)
            for (int t = 0; t < 4; ++t) acc[0][0][t] = add(acc[0][0][t], acc[1][0][t]);
        for (int r = 0; r < R; ++r) {
            f32x4 sums = hsum4(acc[0][r][0], acc[0][r][1], acc[0][r][2], acc[0][r][3]);
            if (k4 < k) { // the last k % 4 products of each of the four dot products
                float tail[4] = {0, 0, 0, 0};
                for (int t = 0; t < 4; ++t)
                    for (size_t p = k4; p < k; ++p) tail[t] += a[r * lda + p] * bj[t * ldb + p];
                sums = add(sums, load(tail));
            }
            if (factor != 1.0f) sums = mul(sums, splat(factor));
            store(c + r * ldc + j, sums);
        }
    }
    for (; j < n; ++j)
        for (int r = 0; r < R; ++r) c[r * ldc + j] = factor * dot_n(a + r * lda, b + j * ldb, k);
}

// One row of C = A B: c[0..n) = Σ_p a[p] B[p, :] (B is k × n with stride ldb); also gemv_t.
// Sixteen columns at a time, even and odd p in separate accumulators, so 8 independent additions
// are in flight (a 1-row block would wait on the latency of each addition).
[[gnu::noinline]] inline void row_nn(const float *a, const float *b, size_t ldb, float *c, size_t n, size_t k) {
    size_t j = 0;
    for (; j + 16 <= n; j += 16) {
        f32x4 even[4] = {zero(), zero(), zero(), zero()}, odd[4] = {zero(), zero(), zero(), zero()};
        size_t p = 0;
        for (; p + 2 <= k; p += 2) {
            const f32x4 a0 = load_splat(a + p), a1 = load_splat(a + p + 1);
            const float *b0 = b + p * ldb + j, *b1 = b0 + ldb;
            for (int t = 0; t < 4; ++t) {
                even[t] = madd(a0, load(b0 + 4 * t), even[t]);
                odd[t] = madd(a1, load(b1 + 4 * t), odd[t]);
            }
        }
        if (p < k) {
            const f32x4 a0 = load_splat(a + p);
            for (int t = 0; t < 4; ++t) even[t] = madd(a0, load(b + p * ldb + j + 4 * t), even[t]);
        }
        for (int t = 0; t < 4; ++t) store(c + j + 4 * t, add(even[t], odd[t]));
    }
    for (; j + 4 <= n; j += 4) {
        f32x4 even = zero(), odd = zero();
        size_t p = 0;
        for (; p + 2 <= k; p += 2) {
            even = madd(load_splat(a + p), load(b + p * ldb + j), even);
            odd = madd(load_splat(a + p + 1), load(b + (p + 1) * ldb + j), odd);
        }
        if (p < k) even = madd(load_splat(a + p), load(b + p * ldb + j), even);
        store(c + j, add(even, odd));
    }
    for (; j < n; ++j) {
        float sum = 0.0f;
        for (size_t p = 0; p < k; ++p) sum += a[p] * b[p * ldb + j];
        c[j] = sum;
    }
}

// out[0..n) = Σ_c w[c] V[c, :] over k rows of V (stride ldv), the weighted sum of one attention
// row. Thirty-two columns per pass over the rows, one accumulator each: 8 independent sums cover
// the adds' latency with one broadcast per row (row_nn's 16 columns with even and odd rows apart
// need two), measured ~40% faster under V8 at 128 × 256.
[[gnu::noinline]] inline void weighted_rows(const float *w, const float *v, size_t ldv, float *out, size_t n,
                                            size_t k) {
    size_t j = 0;
    for (; j + 32 <= n; j += 32) {
        f32x4 acc[8];
        for (auto &a : acc) a = zero();
        for (size_t c = 0; c < k; ++c) {
            const f32x4 wc = load_splat(w + c);
            const float *row = v + c * ldv + j;
            for (int t = 0; t < 8; ++t) acc[t] = madd(wc, load(row + 4 * t), acc[t]);
        }
        for (int t = 0; t < 8; ++t) store(out + j + 4 * t, acc[t]);
    }
    if (j < n) row_nn(w, v + j, ldv, out + j, n - j, k);
}

} // namespace apg::core::simd::blocks

#endif // APG_SIMD_WIDTH
