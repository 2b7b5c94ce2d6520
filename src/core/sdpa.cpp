// sdpa_forward. scalar:: is the reference: the three stages one after the other from the scalar
// core kernels. simd:: is a fused version (below, under APG_SIMD_WIDTH) whose two products share
// one register-blocked micro-kernel over packed operands and whose softmax is folded around it,
// used from 16 queries on; with fewer queries simd:: runs the stages from the SIMD kernels, and
// without a vector ISA (the wasm-scalar build) from the scalar ones.
#include "core/sdpa.hpp"
#include "core/kernels_simd_math.hpp"
#include "core/simd_mappings.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace apg::core {
namespace {

std::string describe(const SdpaShape &s) {
    return "(nq=" + std::to_string(s.nq) + ", nk=" + std::to_string(s.nk) + ", d=" + std::to_string(s.d) +
           ", dv=" + std::to_string(s.dv) + ")";
}

// The error paths build their messages out of line: the checks on the hot path then hold no
// std::string, which in an Emscripten build with exceptions would route every call in their scope
// through a JS trampoline.
[[noreturn]] void fail(const SdpaShape &s, const std::string &what) {
    throw std::invalid_argument("sdpa_forward " + describe(s) + ": " + what);
}
[[noreturn]] void fail_size(const SdpaShape &s, const char *name, std::size_t got, std::size_t want) {
    fail(s, std::string(name) + " has " + std::to_string(got) + " elements, expected " + std::to_string(want));
}

void check(const SdpaShape &s, cfspan q, cfspan k, cfspan v, const SdpaOptions &o, cfspan scores, cfspan weights,
           cfspan context) {
    if (s.nq == 0 || s.nk == 0 || s.d == 0 || s.dv == 0) fail(s, "every size must be positive");
    if (o.causal && s.nq > s.nk) fail(s, "causal attention needs nq <= nk");
    if (q.size() != s.nq * s.d) fail_size(s, "Q", q.size(), s.nq * s.d);
    if (k.size() != s.nk * s.d) fail_size(s, "K", k.size(), s.nk * s.d);
    if (v.size() != s.nk * s.dv) fail_size(s, "V", v.size(), s.nk * s.dv);
    if (!o.key_mask.empty() && o.key_mask.size() != s.nk) fail_size(s, "key_mask", o.key_mask.size(), s.nk);
    if (scores.size() != s.nq * s.nk) fail_size(s, "scores", scores.size(), s.nq * s.nk);
    if (weights.size() != s.nq * s.nk) fail_size(s, "weights", weights.size(), s.nq * s.nk);
    if (context.size() != s.nq * s.dv) fail_size(s, "context", context.size(), s.nq * s.dv);
    // A query sees keys [0, visible); it has something to attend to when the first unmasked key
    // is in that range. Checked before anything is written, so the softmax below never throws.
    if (!o.key_mask.empty()) {
        std::size_t first_on = 0;
        while (first_on < s.nk && o.key_mask[first_on] == 0) ++first_on;
        const std::size_t first_visible_end = o.causal ? 1 + (s.nk - s.nq) : s.nk; // query 0 sees the fewest
        if (first_on >= first_visible_end) fail(s, "query 0 has every key masked, so there is nothing to attend to");
    }
}

// ---- the reference: the three stages from the core kernels -------------------------------

// Query rows are processed in blocks of `rows_per_block`: the block's scores, weights and context
// are computed one stage after the other while its rows of S and P are still in the L1 cache.
constexpr std::size_t rows_per_block = 8;

struct Kernels {
    void (*gemm_nt)(cfspan, cfspan, fspan, std::size_t, std::size_t, std::size_t);
    void (*gemm_nn)(cfspan, cfspan, fspan, std::size_t, std::size_t, std::size_t);
    void (*softmax)(cfspan, fspan, mask_span, float);
};
constexpr Kernels scalar_kernels{scalar::gemm_nt, scalar::gemm_nn, scalar::softmax};
constexpr Kernels simd_kernels{simd::gemm_nt, simd::gemm_nn, simd::softmax};

void forward_by_stages(const Kernels &kern, const SdpaShape &s, cfspan q, cfspan k, cfspan v, const SdpaOptions &o,
                       fspan scores, fspan weights, fspan context) {
    for (std::size_t i0 = 0; i0 < s.nq; i0 += rows_per_block) {
        const std::size_t rows = std::min(rows_per_block, s.nq - i0);
        fspan block_scores = scores.subspan(i0 * s.nk, rows * s.nk);
        fspan block_weights = weights.subspan(i0 * s.nk, rows * s.nk);
        // Stage 1: S = scale · Q Kᵀ for this block of queries.
        kern.gemm_nt(q.subspan(i0 * s.d, rows * s.d), k, block_scores, rows, s.nk, s.d);
        if (o.scale != 1.0f)
            for (float &x : block_scores) x *= o.scale;
        // Stage 2: each row's softmax runs only over the keys the query may see (a causal row is a
        // prefix); the weights after that prefix are exactly 0.
        for (std::size_t r = 0; r < rows; ++r) {
            const std::size_t i = i0 + r;
            const std::size_t visible = o.causal ? i + 1 + (s.nk - s.nq) : s.nk;
            fspan row = block_weights.subspan(r * s.nk, s.nk);
            mask_span mask = o.key_mask.empty() ? mask_span{} : o.key_mask.first(visible);
            kern.softmax(block_scores.subspan(r * s.nk, visible), row.first(visible), mask, 1.0f);
            for (std::size_t j = visible; j < s.nk; ++j) row[j] = 0.0f;
        }
        // Stage 3: O = P V for this block.
        kern.gemm_nn(block_weights, v, context.subspan(i0 * s.dv, rows * s.dv), rows, s.dv, s.nk);
    }
}

#if APG_SIMD_WIDTH

// ---- the fused SIMD forward ---------------------------------------------------------------
//
// Both products run through one register-blocked micro-kernel, C[4×8] = A B, over packed operands:
// A as k × 4 (four rows interleaved, so a step's four broadcasts come from one pointer) and B as
// k × 8 panels (two vectors a step). Every address is then a constant offset from two pointers
// that advance once a step, and V8's code for a step is 6 loads, 16 multiplies/adds and 6
// instructions of loop control: ~75% of the 128-bit peak. (With row pointers and strides, address
// arithmetic took twice that, and the products stalled at ~65%.)
//   scores  S = scale · Q Kᵀ:  A = 4 queries (d × 4),    B = Kᵀ in panels of 8 keys (d × 8)
//   context O = P V:           A = 4 rows of P (nk × 4), B = V in panels of 8 columns (nk × 8)
// The k dimension is padded with zeros to a multiple of 4 and the panels to 8 columns; the packing
// costs O(nk·(d + dv)) per call against O(nq·nk·(d + dv)) for the products.
//
// Queries go in blocks of 8 (two register blocks, so each B panel is used twice from L1): scores
// into a tile of 8 × nk, the softmax over the tile's rows, then P V from the tile's weights.

using namespace vec;
using std::size_t;

constexpr size_t panel = 8;  // columns of a B panel: two vectors
constexpr size_t group = 4;  // rows of a register block
constexpr size_t groups = 2; // register blocks per query block
constexpr size_t block_rows = group * groups;
constexpr size_t fused_min_queries = 16; // below it, sdpa_forward takes the stages (see there)

size_t round_up(size_t n, size_t m) { return (n + m - 1) / m * m; }

// c[r][0..8) = Σ_{p<k} a[p][r] · b[p][0..8) for r < 4 (times `scale` for scores), c's rows ldc apart;
// k a multiple of 4. For scores it also folds each row's maximum of score + bias[0..8) into
// row_max (four vectors, one per row), so softmax needs no separate pass for the maximum.
// Non-inlined and called once per output block, so V8 tiers it up early.
template <bool scores>
[[gnu::noinline]] void kernel_4x8(const float *a, const float *b, size_t k, float scale, float *c, size_t ldc,
                                  const float *bias, float *row_max) {
    f32x4 c00 = zero(), c01 = zero(), c10 = zero(), c11 = zero(), c20 = zero(), c21 = zero(), c30 = zero(),
          c31 = zero();
    // One step of p per iteration: unrolled in the source, LLVM's tree-shaped wasm would load every
    // step's operands up front and V8 would spill the accumulators.
    const float *const a_end = a + 4 * k;
#if defined(__clang__)
#pragma clang loop unroll(disable)
#endif
    for (; a != a_end; a += 4, b += 8) {
        const f32x4 b0 = load(b), b1 = load(b + 4);
        const f32x4 a0 = load_splat(a);
        c00 = madd(a0, b0, c00);
        c01 = madd(a0, b1, c01);
        const f32x4 a1 = load_splat(a + 1);
        c10 = madd(a1, b0, c10);
        c11 = madd(a1, b1, c11);
        const f32x4 a2 = load_splat(a + 2);
        c20 = madd(a2, b0, c20);
        c21 = madd(a2, b1, c21);
        const f32x4 a3 = load_splat(a + 3);
        c30 = madd(a3, b0, c30);
        c31 = madd(a3, b1, c31);
    }
    if constexpr (scores) {
        const f32x4 vs = splat(scale), bias0 = load(bias), bias1 = load(bias + 4);
        auto finish = [&](f32x4 x0, f32x4 x1, float *out, float *out_max) {
            x0 = mul(x0, vs);
            x1 = mul(x1, vs);
            store(out, x0);
            store(out + 4, x1);
            store(out_max, max(load(out_max), max(add(x0, bias0), add(x1, bias1))));
        };
        finish(c00, c01, c, row_max);
        finish(c10, c11, c + ldc, row_max + 4);
        finish(c20, c21, c + 2 * ldc, row_max + 8);
        finish(c30, c31, c + 3 * ldc, row_max + 12);
    } else {
        store(c, c00);
        store(c + 4, c01);
        store(c + ldc, c10);
        store(c + ldc + 4, c11);
        store(c + 2 * ldc, c20);
        store(c + 2 * ldc + 4, c21);
        store(c + 3 * ldc, c30);
        store(c + 3 * ldc + 4, c31);
    }
}

// {x0, x1, x2, x3} as the rows of a 4×4 matrix -> its columns.
inline void transpose4(f32x4 &x0, f32x4 &x1, f32x4 &x2, f32x4 &x3) {
    const f32x4 t0 = interleave_lo(x0, x1), t1 = interleave_lo(x2, x3); // {a0 b0 a1 b1}, {c0 d0 c1 d1}
    const f32x4 t2 = interleave_hi(x0, x1), t3 = interleave_hi(x2, x3); // {a2 b2 a3 b3}, {c2 d2 c3 d3}
    x0 = low_halves(t0, t1);
    x1 = high_halves(t0, t1);
    x2 = low_halves(t2, t3);
    x3 = high_halves(t2, t3);
}

// dst[p·ldd + r] = src[r·lds + p] for r < rows, p < cols; the rest of dst is left as it is.
void transpose_into(const float *src, size_t lds, size_t rows, size_t cols, float *dst, size_t ldd) {
    size_t r = 0;
    for (; r + 4 <= rows; r += 4) {
        const float *s0 = src + r * lds;
        size_t p = 0;
        for (; p + 4 <= cols; p += 4) {
            f32x4 x0 = load(s0 + p), x1 = load(s0 + lds + p), x2 = load(s0 + 2 * lds + p), x3 = load(s0 + 3 * lds + p);
            transpose4(x0, x1, x2, x3);
            store(dst + p * ldd + r, x0);
            store(dst + (p + 1) * ldd + r, x1);
            store(dst + (p + 2) * ldd + r, x2);
            store(dst + (p + 3) * ldd + r, x3);
        }
        for (; p < cols; ++p)
            for (size_t t = 0; t < 4; ++t) dst[p * ldd + r + t] = s0[t * lds + p];
    }
    for (; r < rows; ++r)
        for (size_t p = 0; p < cols; ++p) dst[p * ldd + r] = src[r * lds + p];
}

// out[0..n) = the first n lanes of x (n ≤ 4). Out of line: the hot loops only call it at their ends.
[[gnu::noinline]] void store_first(float *out, f32x4 x, size_t n) {
    float lanes[4];
    store(lanes, x);
    for (size_t t = 0; t < n; ++t) out[t] = lanes[t];
}

// The maximum of row[j] + bias[j] over j < limit (a causal row's prefix).
[[gnu::noinline]] float prefix_max(const float *row, const float *bias, size_t limit) {
    f32x4 vmax = splat(-std::numeric_limits<float>::infinity());
    size_t j = 0;
    for (; j + 4 <= limit; j += 4) vmax = max(vmax, add(load(row + j), load(bias + j)));
    float mx = hmax(vmax);
    for (; j < limit; ++j) mx = std::max(mx, row[j] + bias[j]);
    return mx;
}

// One query's softmax numerators. `row` holds nkp scores (nkp a multiple of 4); they are copied to
// scores_out (the first nk) and replaced by e^(s_j + bias[j] − row_max) for j < limit and by 0 from
// limit on. Where bias[j] = −inf (a masked key, the padding) the term is at most FLT_MIN instead of
// 0 (see exp_softmax4): normalise_group zeroes masked weights, and in the sum the at most nk
// such terms are below 1e-33 against a sum ≥ 1 (the maximum's own term). Returns 1 / Σ_j.
// Without a mask and padding (`biased` false) the bias is all 0 and the fast loop skips it.
template <bool biased>
[[gnu::noinline]] float exp_row(float *row, size_t nkp, const float *bias, float row_max, size_t limit,
                                float *scores_out, size_t nk) {
    const f32x4 mx = splat(row_max);
    f32x4 sum = zero();
    const size_t fast_end = std::min(limit, nk) / 4 * 4;
    size_t j = 0;
    for (; j < fast_end; j += 4) {
        const f32x4 x = load(row + j);
        store(scores_out + j, x);
        const f32x4 e = exp_softmax4(biased ? sub(add(x, load(bias + j)), mx) : sub(x, mx));
        store(row + j, e);
        sum = add(sum, e);
    }
    // The rest: the vector holding the causal limit, the zeros after it, and the last partial
    // vector of scores_out and the padding up to nkp.
    const float first_lanes[4] = {0.0f, 1.0f, 2.0f, 3.0f};
    for (; j < nkp; j += 4) {
        const f32x4 x = load(row + j);
        if (j < nk) store_first(scores_out + j, x, std::min<size_t>(4, nk - j));
        f32x4 e = zero();
        if (j < limit) {
            e = exp_softmax4(biased ? sub(add(x, load(bias + j)), mx) : sub(x, mx));
            // lanes at and past the limit get 0
            e = and_not(e, gt(load(first_lanes), splat(static_cast<float>(limit - j) - 0.5f)));
            sum = add(sum, e);
        }
        store(row + j, e);
    }
    return 1.0f / hsum(sum);
}

// The rows of one register block that are not all four real queries, or whose last vector is partial.
[[gnu::noinline]] void store_weights_slow(float *weights_out, size_t nk, size_t rows, size_t j, f32x4 x0, f32x4 x1,
                                          f32x4 x2, f32x4 x3) {
    const size_t n = std::min<size_t>(4, nk - j);
    const f32x4 x[4] = {x0, x1, x2, x3};
    for (size_t r = 0; r < rows; ++r) store_first(weights_out + r * nk + j, x[r], n);
}

// The four tile rows of one register block (nkp apart) times their 1/sum: the weights. Writes the
// first `rows` rows to weights_out (nk apart) and all four, transposed, to packed (nkp × 4): the A
// operand of P V. With a key mask, the weights are also multiplied by keep[j] (1, or 0 for a masked
// key): exp_softmax4 leaves about FLT_MIN there, and a masked weight is exactly 0.
template <bool masked>
[[gnu::noinline]] void normalise_group(const float *tile, size_t nkp, const float *inv_sum, size_t rows,
                                       float *weights_out, size_t nk, float *packed, const float *keep) {
    const f32x4 s0 = splat(inv_sum[0]), s1 = splat(inv_sum[1]), s2 = splat(inv_sum[2]), s3 = splat(inv_sum[3]);
    const size_t fast_end = rows == group ? nk / 4 * 4 : 0;
    float *w0 = weights_out, *w1 = w0 + nk, *w2 = w1 + nk, *w3 = w2 + nk;
    for (size_t j = 0; j < nkp; j += 4) {
        f32x4 x0 = mul(load(tile + j), s0), x1 = mul(load(tile + nkp + j), s1), x2 = mul(load(tile + 2 * nkp + j), s2),
              x3 = mul(load(tile + 3 * nkp + j), s3);
        if constexpr (masked) {
            const f32x4 kj = load(keep + j);
            x0 = mul(x0, kj);
            x1 = mul(x1, kj);
            x2 = mul(x2, kj);
            x3 = mul(x3, kj);
        }
        if (j < fast_end) {
            store(w0 + j, x0);
            store(w1 + j, x1);
            store(w2 + j, x2);
            store(w3 + j, x3);
        } else if (j < nk) {
            store_weights_slow(weights_out, nk, rows, j, x0, x1, x2, x3);
        }
        transpose4(x0, x1, x2, x3);
        store(packed + 4 * j, x0);
        store(packed + 4 * j + 4, x1);
        store(packed + 4 * j + 8, x2);
        store(packed + 4 * j + 12, x3);
    }
}

// exp_row<false> through a pointer the optimisers cannot see through: with its single call site,
// wasm-opt would inline it into fused_forward, where V8 gives its loop worse registers (measured
// 1% of the whole forward at 256×256×64).
float (*volatile exp_row_unbiased)(float *, size_t, const float *, float, size_t, float *, size_t) = exp_row<false>;

// Packed operands and the tile, kept between calls so that a call allocates nothing once warm.
struct Workspace {
    std::vector<float> keys_t, values, queries, tile, weights_t, bias, keep;
};

Workspace &workspace() {
    static thread_local Workspace w;
    return w;
}

void fused_forward(const SdpaShape &s, cfspan q, cfspan k, cfspan v, const SdpaOptions &o, fspan scores, fspan weights,
                   fspan context) {
    const size_t dp = round_up(s.d, 4), nkp = round_up(s.nk, panel), dvp = round_up(s.dv, panel);
    const float minus_inf = -std::numeric_limits<float>::infinity();
    Workspace &w = workspace();
    // Kᵀ in panels of 8 keys: keys_t[j0·dp + p·8 + t] = K[j0 + t][p].
    // The padding must be 0; without padding every element is overwritten below.
    const bool keys_padded = nkp != s.nk || dp != s.d, values_padded = nkp != s.nk || dvp != s.dv;
    if (keys_padded)
        w.keys_t.assign(nkp * dp, 0.0f);
    else
        w.keys_t.resize(nkp * dp);
    for (size_t j0 = 0; j0 < s.nk; j0 += panel)
        transpose_into(k.data() + j0 * s.d, s.d, std::min(panel, s.nk - j0), s.d, w.keys_t.data() + j0 * dp, panel);
    // V in panels of 8 columns: values[c0·nkp + p·8 + t] = V[p][c0 + t].
    if (values_padded)
        w.values.assign(dvp * nkp, 0.0f);
    else
        w.values.resize(dvp * nkp);
    for (size_t c0 = 0; c0 < s.dv; c0 += panel) {
        const size_t cols = std::min(panel, s.dv - c0);
        float *dst = w.values.data() + c0 * nkp;
        if (cols == panel)
            for (size_t p = 0; p < s.nk; ++p) {
                store(dst + p * panel, load(v.data() + p * s.dv + c0));
                store(dst + p * panel + 4, load(v.data() + p * s.dv + c0 + 4));
            }
        else
            for (size_t p = 0; p < s.nk; ++p) std::copy_n(v.data() + p * s.dv + c0, cols, dst + p * panel);
    }
    // bias[j] = 0 where key j may be attended, −inf where it is masked and in the padding; keep[j]
    // is 1 and 0 there. (The padding needs no zeros in the weights: V's padded rows are 0.)
    w.bias.assign(nkp, minus_inf);
    w.keep.assign(nkp, 0.0f);
    for (size_t j = 0; j < s.nk; ++j)
        if (o.key_mask.empty() || o.key_mask[j] != 0) {
            w.bias[j] = 0.0f;
            w.keep[j] = 1.0f;
        }
    const bool unbiased = o.key_mask.empty() && nkp == s.nk;
    w.queries.resize(groups * group * dp);
    w.tile.resize(block_rows * nkp);
    w.weights_t.resize(groups * nkp * group);
    float *tile = w.tile.data();

    for (size_t i0 = 0; i0 < s.nq; i0 += block_rows) {
        const size_t rows = std::min(block_rows, s.nq - i0);
        const size_t used_groups = (rows + group - 1) / group;
        auto group_rows = [&](size_t g) { return std::min(group, rows - g * group); };
        // Queries of each register block, transposed: queries[g·4·dp + p·4 + r] = Q[i0 + 4g + r][p].
        std::fill(w.queries.begin(), w.queries.end(), 0.0f);
        for (size_t g = 0; g < used_groups; ++g)
            transpose_into(q.data() + (i0 + g * group) * s.d, s.d, group_rows(g), s.d,
                           w.queries.data() + g * group * dp, group);
        // Scores of the block, nkp per row (padded queries and keys score exactly 0), and each row's
        // maximum over its unmasked keys, kept as four lanes.
        float row_max[block_rows * 4];
        std::fill(std::begin(row_max), std::end(row_max), minus_inf);
        // Each register block has its own call of the kernels (and not one call in a loop over the
        // blocks): wasm-opt inlines a function with a single call site, and inlined into this large
        // function the kernel's loop gets worse registers from V8 and is tiered up later.
        static_assert(groups == 2);
        for (size_t j0 = 0; j0 < nkp; j0 += panel) {
            kernel_4x8<true>(w.queries.data(), w.keys_t.data() + j0 * dp, dp, o.scale, tile + j0, nkp,
                             w.bias.data() + j0, row_max);
            if (used_groups > 1)
                kernel_4x8<true>(w.queries.data() + group * dp, w.keys_t.data() + j0 * dp, dp, o.scale,
                                 tile + group * nkp + j0, nkp, w.bias.data() + j0, row_max + group * 4);
        }
        // Softmax numerators of each row and 1/sum (0 for padded rows, whose weights are then 0).
        // check() guarantees every real row an unmasked key, so its maximum is finite.
        float inv_sum[block_rows] = {};
        for (size_t r = 0; r < rows; ++r) {
            const size_t i = i0 + r;
            float *row = tile + r * nkp;
            if (o.causal) {
                const size_t limit = i + 1 + (s.nk - s.nq);
                inv_sum[r] = exp_row<true>(row, nkp, w.bias.data(), prefix_max(row, w.bias.data(), limit), limit,
                                           scores.data() + i * s.nk, s.nk);
            } else {
                const float mx = hmax(load(row_max + 4 * r));
                if (unbiased)
                    inv_sum[r] = exp_row_unbiased(row, nkp, nullptr, mx, nkp, scores.data() + i * s.nk, s.nk);
                else
                    inv_sum[r] = exp_row<true>(row, nkp, w.bias.data(), mx, nkp, scores.data() + i * s.nk, s.nk);
            }
        }
        auto normalise = [&](size_t g) {
            float *const tile_g = tile + g * group * nkp, *const packed = w.weights_t.data() + g * nkp * group;
            float *const weights_g = weights.data() + (i0 + g * group) * s.nk;
            if (o.key_mask.empty())
                normalise_group<false>(tile_g, nkp, inv_sum + g * group, group_rows(g), weights_g, s.nk, packed,
                                       nullptr);
            else
                normalise_group<true>(tile_g, nkp, inv_sum + g * group, group_rows(g), weights_g, s.nk, packed,
                                      w.keep.data());
        };
        normalise(0);
        if (used_groups > 1) normalise(1);
        // Context: keys past the last row's causal limit have weight 0 in every row, so P V stops there.
        const size_t last_limit = o.causal ? i0 + rows + (s.nk - s.nq) : s.nk;
        const size_t kv = std::min(nkp, round_up(last_limit, 4));
        for (size_t c0 = 0; c0 < dvp; c0 += panel)
            for (size_t g = 0; g < used_groups; ++g) {
                const size_t gr = group_rows(g), cols = std::min(panel, s.dv - c0);
                float *out = context.data() + (i0 + g * group) * s.dv + c0;
                const float *a = w.weights_t.data() + g * nkp * group, *b = w.values.data() + c0 * nkp;
                if (gr == group && cols == panel) {
                    kernel_4x8<false>(a, b, kv, 1.0f, out, s.dv, nullptr, nullptr);
                } else {
                    float part[group * panel];
                    kernel_4x8<false>(a, b, kv, 1.0f, part, panel, nullptr, nullptr);
                    for (size_t r = 0; r < gr; ++r) std::copy_n(part + r * panel, cols, out + r * s.dv);
                }
            }
    }
}

#endif // APG_SIMD_WIDTH

} // namespace

void scalar::sdpa_forward(const SdpaShape &shape, cfspan q, cfspan k, cfspan v, const SdpaOptions &options,
                          fspan scores, fspan weights, fspan context) {
    check(shape, q, k, v, options, scores, weights, context);
    forward_by_stages(scalar_kernels, shape, q, k, v, options, scores, weights, context);
}

void simd::sdpa_forward(const SdpaShape &shape, cfspan q, cfspan k, cfspan v, const SdpaOptions &options, fspan scores,
                        fspan weights, fspan context) {
    check(shape, q, k, v, options, scores, weights, context);
#if APG_SIMD_WIDTH
    // The fused version packs K and V on every call, O(nk·(d + dv)), and computes queries in blocks
    // of 8: with few queries (a decoder step has one) that overhead outweighs its faster products,
    // and the stages from the SIMD kernels are quicker.
    if (shape.nq >= fused_min_queries) {
        fused_forward(shape, q, k, v, options, scores, weights, context);
        return;
    }
#endif
    forward_by_stages(simd_kernels, shape, q, k, v, options, scores, weights, context);
}

} // namespace apg::core
