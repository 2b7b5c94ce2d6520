// sdpa_forward: the three stages over a block of queries, built from the core kernels of each
// set (scalar:: or simd::), so the two versions differ only in the kernels they call.
#include "core/sdpa.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

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

struct Kernels {
    void (*gemm_nt)(cfspan, cfspan, fspan, std::size_t, std::size_t, std::size_t);
    void (*gemm_nn)(cfspan, cfspan, fspan, std::size_t, std::size_t, std::size_t);
    void (*softmax)(cfspan, fspan, mask_span, float);
};

// Query rows are processed in blocks of `rows_per_block`: the block's scores, weights and context
// are computed one stage after the other while its rows of S and P are still in the L1 cache.
constexpr std::size_t rows_per_block = 8;

void forward(const Kernels &kern, const SdpaShape &s, cfspan q, cfspan k, cfspan v, const SdpaOptions &o, fspan scores,
             fspan weights, fspan context) {
    check(s, q, k, v, o, scores, weights, context);
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

} // namespace

void scalar::sdpa_forward(const SdpaShape &shape, cfspan q, cfspan k, cfspan v, const SdpaOptions &options,
                          fspan scores, fspan weights, fspan context) {
    forward({scalar::gemm_nt, scalar::gemm_nn, scalar::softmax}, shape, q, k, v, options, scores, weights, context);
}

void simd::sdpa_forward(const SdpaShape &shape, cfspan q, cfspan k, cfspan v, const SdpaOptions &options, fspan scores,
                        fspan weights, fspan context) {
    forward({simd::gemm_nt, simd::gemm_nn, simd::softmax}, shape, q, k, v, options, scores, weights, context);
}

} // namespace apg::core
