// Vector elementwise math of the SIMD kernels (core/kernels_simd.cpp): exp over the whole float
// range and the cheaper exp for x <= 0 that softmax needs after subtracting the maximum. Only meaningful with a vector
// ISA (APG_SIMD_WIDTH > 0).
#pragma once

#include "core/simd_mappings.hpp"

#include <limits>

#if APG_SIMD_WIDTH

namespace apg::core::vec {

// exp(x) = 2^n · e^r with n = round(x / ln 2) and r = x − n·ln 2 in [−ln2/2, ln2/2] (ln 2 split in a
// part with few bits, so n·ln2_hi is exact, plus a correction). e^r is its Taylor series to degree 7;
// the truncation error is below r^8/8! ≤ 5.2e-9 relative, under a float ulp, so what remains is the
// rounding of the polynomial's evaluation.
//
// n is rounded with the 1.5·2^23 trick: adding it to |v| < 2^22 rounds v to an integer (ties to
// even) that then sits in the low mantissa bits, so n as int32 is bits(t) − bits(1.5·2^23), with no
// float→int conversion (wasm's saturating one costs V8 several instructions).
constexpr float round_magic = 12582912.0f; // 1.5 · 2^23

// Polynomial part shared by both exps: returns e^r and sets n (as int32) for x already clamped.
inline f32x4 exp_reduced(f32x4 x, i32x4 &n_int) {
    const f32x4 t = madd(x, splat(1.44269504088896341f), splat(round_magic));
    const f32x4 n = sub(t, splat(round_magic));
    n_int = sub_int(float_as_bits(t), float_as_bits(splat(round_magic)));
    f32x4 r = sub(x, mul(n, splat(0.693359375f)));
    r = sub(r, mul(n, splat(-2.12194440e-4f)));
    // 1 + r + r²·(a + r²·(b + r²·c)) with a, b, c the pairs (1/2 + r/6), (1/24 + r/120), (1/720 + r/5040):
    // a dependency chain of 9 operations instead of Horner's 14. Softmax is bound by this latency
    // (LLVM emits each exp as one expression tree and V8 does not interleave them), and the sum
    // with the large terms last rounds no worse: 0.73 ulp against Horner's 0.84 on [−87, 0].
    const f32x4 r2 = mul(r, r);
    const f32x4 a = madd(r, splat(1.0f / 6.0f), splat(0.5f));
    const f32x4 b = madd(r, splat(1.0f / 120.0f), splat(1.0f / 24.0f));
    const f32x4 c = madd(r, splat(1.0f / 5040.0f), splat(1.0f / 720.0f));
    return add(splat(1.0f), madd(r2, madd(r2, madd(r2, c, b), a), r));
}

// 2^n as a float, for n in [−126, 127].
inline f32x4 pow2(i32x4 n) { return bits_as_float(shift_left(add_int(n, splat_int(127)), 23)); }

// e^x over the whole float range. 2^n is applied as two factors 2^(n−n/2)·2^(n/2), each a normal
// float, so results that are subnormal still come out right.
// Measured against double-precision std::exp on 400k points of [−110, 88.72]: max relative error
// 8.2e-8 (< 2^-23, i.e. within 1 ulp) for results ≥ FLT_MIN, absolute error ≤ 1.1e-45 below it
// (std::expf itself: 6.0e-8). tests/core/test_elementwise.cpp holds it to 2^-23.
// x > 88.7228317 (where expf overflows) gives +inf, x < −104 gives 0; NaN input is not supported.
inline f32x4 exp4(f32x4 x) {
    const f32x4 overflow = splat(88.7228317f), underflow = splat(-104.0f);
    i32x4 n;
    const f32x4 p = exp_reduced(min(max(x, underflow), overflow), n); // n in [−150, 128]
    const i32x4 n_half = shift_right(n, 1);                           // both halves in [−75, 64]
    f32x4 y = mul(mul(p, pow2(n_half)), pow2(sub_int(n, n_half)));
    y = select(gt(x, overflow), splat(std::numeric_limits<float>::infinity()), y);
    return and_not(y, lt(x, underflow));
}

// e^x for x ≤ 0 (and −inf), the case of softmax after the maximum is subtracted: one scale factor
// and one mask. Results below FLT_MIN (x < −87.34) are flushed to 0 (absolute error < 1.2e-38);
// above it the error is that of exp4.
inline f32x4 exp_nonpositive4(f32x4 x) {
    const f32x4 lowest = splat(-87.3365479f); // ln(FLT_MIN): n ≥ −126
    i32x4 n;
    const f32x4 p = exp_reduced(max(x, lowest), n);
    return and_not(mul(p, pow2(n)), lt(x, lowest));
}

} // namespace apg::core::vec

#endif // APG_SIMD_WIDTH
