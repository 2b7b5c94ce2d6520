// The JS side of tests/bench/bench.hpp: the same warm-up, the same fastest-of-short-batches timing
// and the same JSON line per measurement, so report.mjs reads C++ and JS results alike.

// Nanoseconds of process CPU time per call of f (see time_ns in bench.hpp for why).
export function timeNs(f) {
  const now = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1e6;
  };
  const t0 = now();
  let calls = 0;
  while (calls < 3 || now() - t0 < 0.2) {
    f();
    calls++;
  }
  const perCall = (now() - t0) / calls;
  const reps = Math.max(1, Math.floor(0.002 / perCall));
  let best = Infinity;
  const m0 = now();
  for (let batch = 0; batch < 7 || (batch < 100 && now() - m0 < 0.15); batch++) {
    const b0 = now();
    for (let r = 0; r < reps; r++) f();
    best = Math.min(best, (now() - b0) / reps);
  }
  return best * 1e9;
}

export function emit(section, name, impl, ns, flops) {
  console.log(JSON.stringify({ section, case: name, impl, ns: Math.round(ns * 10) / 10, flops }));
}
