// One 128-bit vector vocabulary over two instruction sets, so every SIMD kernel is written once:
// wasm_simd128 under Emscripten (-msimd128) and SSE up to 4.1 natively (-march=x86-64-v2).
// Neither has a fused multiply-add, so madd() is a multiply then an add (two roundings) on both,
// and the two builds compute bit-identical results for the same operation order.
//
// APG_SIMD_WIDTH is 4 when a vector ISA is available and 0 otherwise (the wasm-scalar build);
// the kernels then fall back to the scalar reference.
#pragma once

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define APG_SIMD_WIDTH 4
#define APG_SIMD_ISA "wasm_simd128"
#elif defined(__SSE4_1__)
#include <smmintrin.h>
#define APG_SIMD_WIDTH 4
#define APG_SIMD_ISA "sse4.1"
#else
#define APG_SIMD_WIDTH 0
#define APG_SIMD_ISA "scalar"
#endif

#if APG_SIMD_WIDTH

namespace apg::core::vec {

#if defined(__wasm_simd128__)

using f32x4 = v128_t; // four floats
using i32x4 = v128_t; // four int32 (same register type in wasm)

inline f32x4 load(const float *p) { return wasm_v128_load(p); }
inline void store(float *p, f32x4 v) { wasm_v128_store(p, v); }
inline f32x4 splat(float x) { return wasm_f32x4_splat(x); }
// Four copies of *p, loaded straight into every lane.
inline f32x4 load_splat(const float *p) { return wasm_v128_load32_splat(p); }
inline f32x4 add(f32x4 a, f32x4 b) { return wasm_f32x4_add(a, b); }
inline f32x4 sub(f32x4 a, f32x4 b) { return wasm_f32x4_sub(a, b); }
inline f32x4 mul(f32x4 a, f32x4 b) { return wasm_f32x4_mul(a, b); }
inline f32x4 div(f32x4 a, f32x4 b) { return wasm_f32x4_div(a, b); }
// min/max of numbers. With a NaN operand the result is unspecified: wasm's pmin/pmax (unlike
// f32x4.min/max, whose NaN and ±0 rules V8 emulates with several instructions) map to one minps/maxps.
inline f32x4 max(f32x4 a, f32x4 b) { return wasm_f32x4_pmax(a, b); }
inline f32x4 min(f32x4 a, f32x4 b) { return wasm_f32x4_pmin(a, b); }
inline f32x4 abs(f32x4 a) { return wasm_f32x4_abs(a); }
// Lane masks (all ones where true) and a lane-wise choice: where mask then a else b.
inline f32x4 gt(f32x4 a, f32x4 b) { return wasm_f32x4_gt(a, b); }
inline f32x4 lt(f32x4 a, f32x4 b) { return wasm_f32x4_lt(a, b); }
inline f32x4 select(f32x4 mask, f32x4 a, f32x4 b) { return wasm_v128_bitselect(a, b, mask); }
// a where mask is all zeros, 0 where it is all ones (one instruction, a select costs three in V8).
inline f32x4 and_not(f32x4 a, f32x4 mask) { return wasm_v128_andnot(a, mask); }
// Copies the sign bit of `sign` onto the (non-negative) `magnitude`.
inline f32x4 copysign(f32x4 magnitude, f32x4 sign) {
    return wasm_v128_or(magnitude, wasm_v128_and(sign, wasm_i32x4_splat(static_cast<int>(0x80000000u))));
}
// Round to the nearest integer (ties to even), still as floats.
inline f32x4 round(f32x4 a) { return wasm_f32x4_nearest(a); }
// Float lanes holding integers -> int32 lanes.
inline i32x4 to_int(f32x4 a) { return wasm_i32x4_trunc_sat_f32x4(a); }
inline i32x4 add_int(i32x4 a, i32x4 b) { return wasm_i32x4_add(a, b); }
inline i32x4 sub_int(i32x4 a, i32x4 b) { return wasm_i32x4_sub(a, b); }
inline i32x4 splat_int(int x) { return wasm_i32x4_splat(x); }
inline i32x4 shift_left(i32x4 a, int bits) { return wasm_i32x4_shl(a, bits); }
inline i32x4 shift_right(i32x4 a, int bits) { return wasm_i32x4_shr(a, bits); } // arithmetic
inline f32x4 bits_as_float(i32x4 a) { return a; }
inline i32x4 float_as_bits(f32x4 a) { return a; }
inline float first(f32x4 a) { return wasm_f32x4_extract_lane(a, 0); }
// {a0, b0, a1, b1}, {a2, b2, a3, b3}, {a0, a1, b0, b1}, {a2, a3, b2, b3}, {a1, a0, a3, a2}
inline f32x4 interleave_lo(f32x4 a, f32x4 b) { return wasm_i32x4_shuffle(a, b, 0, 4, 1, 5); }
inline f32x4 interleave_hi(f32x4 a, f32x4 b) { return wasm_i32x4_shuffle(a, b, 2, 6, 3, 7); }
inline f32x4 low_halves(f32x4 a, f32x4 b) { return wasm_i32x4_shuffle(a, b, 0, 1, 4, 5); }
inline f32x4 high_halves(f32x4 a, f32x4 b) { return wasm_i32x4_shuffle(a, b, 2, 3, 6, 7); }
inline f32x4 swap_pairs(f32x4 a) { return wasm_i32x4_shuffle(a, a, 1, 0, 3, 2); }

#else // SSE4.1

using f32x4 = __m128;
using i32x4 = __m128i;

inline f32x4 load(const float *p) { return _mm_loadu_ps(p); }
inline void store(float *p, f32x4 v) { _mm_storeu_ps(p, v); }
inline f32x4 splat(float x) { return _mm_set1_ps(x); }
inline f32x4 load_splat(const float *p) { return _mm_set1_ps(*p); }
inline f32x4 add(f32x4 a, f32x4 b) { return _mm_add_ps(a, b); }
inline f32x4 sub(f32x4 a, f32x4 b) { return _mm_sub_ps(a, b); }
inline f32x4 mul(f32x4 a, f32x4 b) { return _mm_mul_ps(a, b); }
inline f32x4 div(f32x4 a, f32x4 b) { return _mm_div_ps(a, b); }
inline f32x4 max(f32x4 a, f32x4 b) { return _mm_max_ps(a, b); }
inline f32x4 min(f32x4 a, f32x4 b) { return _mm_min_ps(a, b); }
inline f32x4 abs(f32x4 a) { return _mm_andnot_ps(_mm_set1_ps(-0.0f), a); }
inline f32x4 gt(f32x4 a, f32x4 b) { return _mm_cmpgt_ps(a, b); }
inline f32x4 lt(f32x4 a, f32x4 b) { return _mm_cmplt_ps(a, b); }
inline f32x4 select(f32x4 mask, f32x4 a, f32x4 b) { return _mm_blendv_ps(b, a, mask); }
inline f32x4 and_not(f32x4 a, f32x4 mask) { return _mm_andnot_ps(mask, a); }
inline f32x4 copysign(f32x4 magnitude, f32x4 sign) {
    return _mm_or_ps(magnitude, _mm_and_ps(sign, _mm_set1_ps(-0.0f)));
}
inline f32x4 round(f32x4 a) { return _mm_round_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
inline i32x4 to_int(f32x4 a) { return _mm_cvttps_epi32(a); }
inline i32x4 add_int(i32x4 a, i32x4 b) { return _mm_add_epi32(a, b); }
inline i32x4 sub_int(i32x4 a, i32x4 b) { return _mm_sub_epi32(a, b); }
inline i32x4 splat_int(int x) { return _mm_set1_epi32(x); }
inline i32x4 shift_left(i32x4 a, int bits) { return _mm_slli_epi32(a, bits); }
inline i32x4 shift_right(i32x4 a, int bits) { return _mm_srai_epi32(a, bits); }
inline f32x4 bits_as_float(i32x4 a) { return _mm_castsi128_ps(a); }
inline i32x4 float_as_bits(f32x4 a) { return _mm_castps_si128(a); }
inline float first(f32x4 a) { return _mm_cvtss_f32(a); }
inline f32x4 interleave_lo(f32x4 a, f32x4 b) { return _mm_unpacklo_ps(a, b); }
inline f32x4 interleave_hi(f32x4 a, f32x4 b) { return _mm_unpackhi_ps(a, b); }
inline f32x4 low_halves(f32x4 a, f32x4 b) { return _mm_movelh_ps(a, b); }
inline f32x4 high_halves(f32x4 a, f32x4 b) { return _mm_movehl_ps(b, a); }
inline f32x4 swap_pairs(f32x4 a) { return _mm_shuffle_ps(a, a, _MM_SHUFFLE(2, 3, 0, 1)); }

#endif

// Built from the primitives above, identical on both ISAs.

inline f32x4 zero() { return splat(0.0f); }
// a * b + c
inline f32x4 madd(f32x4 a, f32x4 b, f32x4 c) { return add(mul(a, b), c); }
// a0 + a1 + a2 + a3
inline float hsum(f32x4 a) {
    f32x4 pairs = add(a, high_halves(a, a)); // {a0+a2, a1+a3, ..}
    return first(add(pairs, swap_pairs(pairs)));
}
// max(a0, a1, a2, a3)
inline float hmax(f32x4 a) {
    f32x4 pairs = max(a, high_halves(a, a));
    return first(max(pairs, swap_pairs(pairs)));
}
// {Σa, Σb, Σc, Σd}: the lane sums of four accumulators in one vector (a 4×4 transpose-add).
inline f32x4 hsum4(f32x4 a, f32x4 b, f32x4 c, f32x4 d) {
    f32x4 ab = add(interleave_lo(a, b), interleave_hi(a, b)); // {a0+a2, b0+b2, a1+a3, b1+b3}
    f32x4 cd = add(interleave_lo(c, d), interleave_hi(c, d));
    return add(low_halves(ab, cd), high_halves(ab, cd));
}

} // namespace apg::core::vec

#endif // APG_SIMD_WIDTH
