// The blocked fused attention (shapes and contract in kernels_attention.hpp).
//
// Queries go in blocks of four rows. For each block the keys are taken in tiles of key_tile:
//   1. scores: the block's rows of Q, scaled by `scale` as they are packed (the scaling folded into
//      the product), times the tile's keys, 4 × 8 register tiles at a time (kernels_simd_blocks.hpp),
//      written key-major (one vector per key holding that key's score for the four rows) with the
//      rows' maxima taken on the way;
//   2. the online softmax, four rows per vector and no horizontal step: the tile's maximum m_t,
//      the new running maximum m' = max(m, m_t), the weights e^{s − m'} in place of the scores, the
//      running sum l' = l·e^{m − m'} + Σ e^{s − m'};
//   3. the block's outputs, O' = O·e^{m − m'} + P V_tile, again in 4 × 8 register tiles, with P read
//      as it lies (key-major is the packed layout the tile wants).
// At the end each row is divided by its sum. K and V are packed once per call (K transposed into
// panels of 8 keys, V into panels of 8 columns), so every load in the inner loops is contiguous.
// A tile of scores and the block's outputs (4 × dv) stay in L1 throughout.
//
// Rows left over (nq % 4, and every row of a single-query call such as a decoding step) go one at
// a time: a row's nk scores fit in L1 whole, so it takes its maximum first and needs no rescaling;
// its scores and its output read K and V in place, with no packing, which for one row would cost
// as much as the product.
#include "core/kernels_attention.hpp"
#include "core/kernels_simd_blocks.hpp"
#include "core/kernels_simd_math.hpp"
#include "core/scratch.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#if APG_SIMD_WIDTH == 0

namespace apg::core::simd {
void fused_attention(ConstRows q, ConstRows k, ConstRows v, Rows out, float scale, const AttentionMask &mask) {
    scalar::fused_attention(q, k, v, out, scale, mask);
}
} // namespace apg::core::simd

#else

namespace apg::core::simd {

namespace {

using namespace apg::core::vec;
using std::size_t;

// Keys per tile: a multiple of the register tile's 8. 64 keys of scores are 1 KB for the four rows.
constexpr size_t key_tile = 64;
constexpr float neg_inf = -std::numeric_limits<float>::infinity();

// Working memory, grown once and reused, so a call allocates nothing after the first.
struct AttentionScratch {
    std::vector<float> k_panels; // ⌈nk/8⌉ panels of dk × 8: K transposed
    std::vector<float> v_panels; // ⌈dv/8⌉ panels of nk × 8
    std::vector<float> q_panel;  // dk × 4: the block's rows of Q, scaled
    std::vector<float> weights;  // key_tile × 4: a tile's scores, then its weights, key-major
    std::vector<float> outputs;  // ⌈dv/8⌉ tiles of 4 × 8: the block's running outputs
    std::vector<float> row;      // nk: one leftover row's scores, then its weights
};
AttentionScratch &attention_scratch() {
    thread_local AttentionScratch s;
    return s;
}

size_t ceil8(size_t n) { return (n + 7) / 8; }

// The last key query r may see, plus one (the end of its range of keys).
size_t key_end(const AttentionMask &mask, size_t nk, size_t r) {
    return mask.causal ? std::min(nk, mask.first_query + r + 1) : nk;
}

// Sets to −∞ the scores (key-major, 4 rows per key) of the tile's keys [t0, t0 + count) that row
// r0 + i may not see.
void mask_tile(const AttentionMask &mask, size_t nk, size_t r0, size_t t0, size_t count, float *scores) {
    if (!mask.keys.empty())
        for (size_t c = 0; c < count; ++c)
            if (mask.keys[t0 + c] == 0) store(scores + 4 * c, splat(neg_inf));
    if (!mask.allowed.empty())
        for (size_t c = 0; c < count; ++c)
            for (size_t i = 0; i < 4; ++i)
                if (mask.allowed[(r0 + i) * nk + t0 + c] == 0) scores[4 * c + i] = neg_inf;
    if (mask.causal && t0 + count > mask.first_query + r0 + 1) // some key lies beyond row r0's last
        for (size_t c = 0; c < count; ++c)
            for (size_t i = 0; i < 4; ++i)
                if (t0 + c > mask.first_query + r0 + i) scores[4 * c + i] = neg_inf;
}

// The shapes every step needs, read once.
struct Shape {
    size_t nq, nk, dk, dv;
};

// Rows r0 … r0 + 3 of the output (see the top of the file).
void query_block(const ConstRows &q, const float *k_panels, const float *v_panels, const Rows &out, const Shape &sh,
                 size_t r0, float scale, const AttentionMask &mask, AttentionScratch &s) {
    const size_t dk = sh.dk, dv = sh.dv, nk = sh.nk, chunks = ceil8(dv);
    float *q_panel = sized(s.q_panel, 4 * dk);
    float *weights = sized(s.weights, 4 * key_tile);
    float *outputs = sized(s.outputs, 32 * chunks);
    blocks::pack_rows(q.data.data() + r0 * q.stride, q.stride, 4, dk, q_panel, scale);
    std::fill(outputs, outputs + 32 * chunks, 0.0f);

    const size_t end = key_end(mask, nk, r0 + 3); // no row of the block sees a key past it
    f32x4 running_max = splat(neg_inf), running_sum = zero();
    for (size_t t0 = 0; t0 < end; t0 += key_tile) {
        const size_t count = std::min(key_tile, end - t0);
        // 1. scores, key-major, and their maximum per row (past `count`, the last group of 8 keys
        // has scores of keys outside the tile or of the zero padding: computed, never read).
        f32x4 tile_max = splat(neg_inf);
        for (size_t j = 0; j < count; j += 8) {
            const f32x4 group_max = blocks::multiply_transposed(q_panel, k_panels + (t0 + j) * dk, dk, weights + 4 * j);
            if (j + 8 <= count)
                tile_max = max(tile_max, group_max);
            else
                for (size_t c = j; c < count; ++c) tile_max = max(tile_max, load(weights + 4 * c));
        }
        if (!mask.keys.empty() || !mask.allowed.empty() || mask.causal) {
            mask_tile(mask, nk, r0, t0, count, weights);
            tile_max = splat(neg_inf);
            for (size_t c = 0; c < count; ++c) tile_max = max(tile_max, load(weights + 4 * c));
        }
        // 2. the online softmax
        const f32x4 new_max = max(running_max, tile_max);
        // A row that has seen no key yet keeps its maximum at −∞; subtracting 0 instead leaves
        // every weight e^{−∞} = 0 without forming −∞ − (−∞).
        const f32x4 base = select(gt(new_max, splat(neg_inf)), new_max, zero());
        const f32x4 rescale = exp_nonpositive4(sub(running_max, base));
        f32x4 sum0 = zero(), sum1 = zero();
        size_t c = 0;
        for (; c + 2 <= count; c += 2) {
            const f32x4 w0 = exp_nonpositive4(sub(load(weights + 4 * c), base));
            const f32x4 w1 = exp_nonpositive4(sub(load(weights + 4 * c + 4), base));
            store(weights + 4 * c, w0), store(weights + 4 * c + 4, w1);
            sum0 = add(sum0, w0), sum1 = add(sum1, w1);
        }
        if (c < count) {
            const f32x4 w0 = exp_nonpositive4(sub(load(weights + 4 * c), base));
            store(weights + 4 * c, w0);
            sum0 = add(sum0, w0);
        }
        running_sum = add(mul(running_sum, rescale), add(sum0, sum1));
        running_max = new_max;
        // 3. the outputs: rescaled where a row's maximum grew (after the first tiles it rarely does).
        alignas(16) float factor[4];
        store(factor, rescale);
        if (t0 > 0 && (factor[0] != 1.0f || factor[1] != 1.0f || factor[2] != 1.0f || factor[3] != 1.0f))
            for (size_t ch = 0; ch < chunks; ++ch)
                for (size_t i = 0; i < 4; ++i) {
                    float *o = outputs + 32 * ch + 8 * i;
                    const f32x4 f = splat(factor[i]);
                    store(o, mul(load(o), f)), store(o + 4, mul(load(o + 4), f));
                }
        for (size_t ch = 0; ch < chunks; ++ch)
            blocks::multiply(weights, v_panels + ch * 8 * nk + 8 * t0, count, outputs + 32 * ch, true);
    }
    alignas(16) float inverse[4];
    store(inverse, div(splat(1.0f), running_sum));
    for (size_t i = 0; i < 4; ++i) {
        float *o = out.data.data() + (r0 + i) * out.stride;
        const f32x4 f = splat(inverse[i]);
        size_t col = 0;
        for (; col + 8 <= dv; col += 8) {
            const float *src = outputs + 32 * (col / 8) + 8 * i;
            store(o + col, mul(load(src), f)), store(o + col + 4, mul(load(src + 4), f));
        }
        for (; col < dv; ++col) o[col] = outputs[32 * (col / 8) + 8 * i + col % 8] * inverse[i];
    }
}

// Row r of the output, reading K and V in place (see the top of the file).
void query_row(const ConstRows &q, const ConstRows &k, const ConstRows &v, const Rows &out, const Shape &sh, size_t r,
               float scale, const AttentionMask &mask, AttentionScratch &s) {
    const size_t nk = sh.nk, end = key_end(mask, nk, r);
    float *w = sized(s.row, nk);
    blocks::panel_nt<1>(q.data.data() + r * q.stride, 0, k.data.data(), k.stride, w, end, sh.dk, 0, scale);
    for (size_t c = 0; c < end; ++c)
        if ((!mask.keys.empty() && mask.keys[c] == 0) || (!mask.allowed.empty() && mask.allowed[r * nk + c] == 0))
            w[c] = neg_inf;
    f32x4 vmax = splat(neg_inf);
    size_t c = 0;
    for (; c + 4 <= end; c += 4) vmax = max(vmax, load(w + c));
    float mx = hmax(vmax);
    for (; c < end; ++c) mx = std::max(mx, w[c]);
    const f32x4 base = splat(mx);
    f32x4 sum0 = zero(), sum1 = zero();
    for (c = 0; c + 8 <= end; c += 8) {
        const f32x4 w0 = exp_nonpositive4(sub(load(w + c), base)), w1 = exp_nonpositive4(sub(load(w + c + 4), base));
        store(w + c, w0), store(w + c + 4, w1);
        sum0 = add(sum0, w0), sum1 = add(sum1, w1);
    }
    for (; c + 4 <= end; c += 4) {
        const f32x4 w0 = exp_nonpositive4(sub(load(w + c), base));
        store(w + c, w0);
        sum0 = add(sum0, w0);
    }
    float sum = hsum(add(sum0, sum1));
    for (; c < end; ++c) sum += w[c] = std::exp(w[c] - mx);
    const f32x4 inverse = splat(1.0f / sum);
    for (c = 0; c + 4 <= end; c += 4) store(w + c, mul(load(w + c), inverse));
    for (; c < end; ++c) w[c] *= first(inverse);
    blocks::weighted_rows(w, v.data.data(), v.stride, out.data.data() + r * out.stride, sh.dv, end);
}

} // namespace

void fused_attention(ConstRows q, ConstRows k, ConstRows v, Rows out, float scale, const AttentionMask &mask) {
    check_attention("fused_attention", q, k, v, out, mask);
    const Shape sh{q.rows, k.rows, q.cols, v.cols};
    AttentionScratch &s = attention_scratch();
    const size_t blocked = sh.nq / 4 * 4;
    if (blocked > 0) {
        // K transposed into panels of 8 keys (dk × 8 each), V into panels of 8 columns (nk × 8).
        float *k_panels = sized(s.k_panels, ceil8(sh.nk) * 8 * sh.dk);
        float *v_panels = sized(s.v_panels, ceil8(sh.dv) * 8 * sh.nk);
        for (size_t j = 0; j < sh.nk; j += 8)
            blocks::pack_transposed_cols(k.data.data() + j * k.stride, k.stride, std::min<size_t>(8, sh.nk - j), sh.dk,
                                         k_panels + j * sh.dk);
        for (size_t col = 0; col < sh.dv; col += 8)
            blocks::pack_cols(v.data.data() + col, v.stride, std::min<size_t>(8, sh.dv - col), sh.nk,
                              v_panels + col * sh.nk);
        for (size_t r0 = 0; r0 < blocked; r0 += 4) query_block(q, k_panels, v_panels, out, sh, r0, scale, mask, s);
    }
    for (size_t r = blocked; r < sh.nq; ++r) query_row(q, k, v, out, sh, r, scale, mask, s);
}

} // namespace apg::core::simd

#endif // APG_SIMD_WIDTH
