// Each build's multiply–add peak, measured in the same run as the rest of the table: the report's
// "% peak" columns divide each kernel's GFLOP/s by the peak of its own build. A loop of
// acc = acc·b + c steps, a multiply then an add (neither SSE4.1 nor wasm SIMD128 has a fused
// multiply-add, so the kernels' madd is the same two instructions), over independent accumulators,
// so the loop is bound by how many multiplies and adds the core issues per cycle and not by their
// latency. 128-bit vectors as in the kernels (SSE natively, wasm SIMD128 under Emscripten), plain
// floats where the build has no vector ISA (wasm-scalar). Several accumulator counts are timed,
// because the one that covers the latency without running out of registers differs between
// compilers and engines (V8 gives wasm 15 of x86's 16 vector registers, so 14 accumulators plus b
// and c spill there); the fastest is the peak. flops: 2 per lane per step.
#include "bench.hpp"
#include "core/simd_mappings.hpp"

#include <cstddef>
#include <string>
#include <utility>

namespace {

#if APG_SIMD_WIDTH
using Lane = apg::core::vec::f32x4;
constexpr int lanes = 4;
const std::string kind = "128-bit";
inline Lane splat(float x) { return apg::core::vec::splat(x); }
inline Lane madd(Lane a, Lane b, Lane c) { return apg::core::vec::madd(a, b, c); }
inline float first(Lane a) { return apg::core::vec::first(a); }
#else
using Lane = float;
constexpr int lanes = 1;
const std::string kind = "scalar";
inline Lane splat(float x) { return x; }
inline Lane madd(Lane a, Lane b, Lane c) { return a * b + c; }
inline float first(Lane a) { return a; }
#endif

// Read at run time so the compiler cannot fold the loop into a closed form.
volatile float b_in = 0.9999f, c_in = 0.0001f;
volatile float sink = 0.0f;

constexpr int steps = 1000; // per call: steps × accumulators multiply–adds, a few microseconds

// Not inlined: V8 swaps in a function's optimised code only at its next call (there is no on-stack
// replacement for wasm), so a timed loop inlined into one long call would run unoptimised throughout.
template <std::size_t... I> [[gnu::noinline]] void run(Lane (&acc)[sizeof...(I)], std::index_sequence<I...>) {
    const Lane b = splat(b_in), c = splat(c_in);
    for (int s = 0; s < steps; ++s) ((acc[I] = madd(acc[I], b, c)), ...);
}

template <std::size_t N> void bench_accumulators(const std::string &impl) {
    Lane acc[N]; // a plain array: std::array would drop the vector type's alignment attributes
    // Start near the fixed point c / (1 - b) = 1, so the values stay normal floats.
    for (std::size_t i = 0; i < N; ++i) acc[i] = splat(1.0f + 0.001f * static_cast<float>(i));
    const double ns = apg::bench::time_ns([&] { run(acc, std::make_index_sequence<N>{}); });
    float total = 0.0f;
    for (const Lane &a : acc) total += first(a);
    sink = total;
    apg::bench::emit("peak: multiply-add, " + kind, std::to_string(N) + " accumulators", impl, ns,
                     2.0 * lanes * steps * N);
}

} // namespace

int main(int argc, char **argv) {
    const std::string impl = argc > 1 ? argv[1] : "native";
    bench_accumulators<8>(impl);
    bench_accumulators<10>(impl);
    bench_accumulators<12>(impl);
    bench_accumulators<14>(impl);
    return 0;
}
