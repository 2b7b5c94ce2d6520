// Shared by the benchmark programs (tests/bench/bench_*.cpp): a timer that warms up first and a
// line format the runner collects. Every program takes the build's label as argv[1] ("native",
// "wasm", "wasm-scalar") and prints one JSON object per measurement:
//   {"section":"…","case":"…","impl":"…","ns":…,"flops":…}
// scripts/bench.sh runs every bench_* program of every preset and tests/bench/report.mjs turns
// all the lines into one table, so a new benchmark only has to print more lines.
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>
#include <time.h>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
// The bench programs run under node only: the process's CPU time, user + system, in seconds.
EM_JS(double, apg_bench_cpu_seconds, (), {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1e6;
});
#endif

namespace apg::bench {

// CPU time of this process: unlike wall time it does not count the time the scheduler gave to
// other processes, which on a shared 2-core machine is most of the wall time.
inline double cpu_seconds() {
#ifdef __EMSCRIPTEN__
    return apg_bench_cpu_seconds();
#else
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
#endif
}

// Nanoseconds of CPU time per call of f. It warms up first for 0.2 s (V8 compiles the optimised
// tier of hot wasm and JS functions in the background, which on a busy machine takes a while),
// then takes the fastest of 7 or more short batches (about 2 ms, or one call when a call is longer):
// the fastest batch is the one least disturbed by other processes evicting the caches.
template <class F> double time_ns(F &&f) {
    const double w0 = cpu_seconds();
    int calls = 0;
    while (calls < 3 || cpu_seconds() - w0 < 0.2) {
        f();
        ++calls;
    }
    const double per_call = (cpu_seconds() - w0) / calls;
    const int reps = std::max(1, static_cast<int>(0.002 / per_call));
    double best = 1e30;
    const double m0 = cpu_seconds();
    for (int batch = 0; batch < 7 || (batch < 100 && cpu_seconds() - m0 < 0.15); ++batch) {
        const double b0 = cpu_seconds();
        for (int r = 0; r < reps; ++r) f();
        best = std::min(best, (cpu_seconds() - b0) / reps);
    }
    return best * 1e9;
}

inline void emit(const std::string &section, const std::string &name, const std::string &impl, double ns,
                 double flops) {
    std::printf("{\"section\":\"%s\",\"case\":\"%s\",\"impl\":\"%s\",\"ns\":%.1f,\"flops\":%.0f}\n", section.c_str(),
                name.c_str(), impl.c_str(), ns, flops);
    std::fflush(stdout);
}

} // namespace apg::bench
