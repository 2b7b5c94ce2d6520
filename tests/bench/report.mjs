// Reads the JSON lines written by the bench_* programs (C++ for every preset, and JS) and prints
// one table per section: ns per call and GFLOP/s for each implementation, then the ratios.
// usage: node tests/bench/report.mjs build/bench/*.jsonl
import { readFileSync } from 'node:fs';

// The core's 128-bit peak: 4 float lanes × 4 vector pipes (2 multiply, 2 add) × ~3.55 GHz.
// Neither wasm SIMD128 nor x86-64-v2 has a fused multiply-add, so this is the ceiling for both.
const peakGflops = Number(process.env.APG_PEAK_GFLOPS ?? 57);

const impls = [
  ['native', 'native SSE'],
  ['wasm', 'wasm SIMD'],
  ['wasm-scalar', 'wasm scalar'],
  ['js', 'plain JS'],
];
// [label, numerator impl, denominator impl]: a ratio of speeds (time of the second / time of the first).
const ratios = [
  ['simd/scalar', 'wasm', 'wasm-scalar'],
  ['wasm/native', 'wasm', 'native'],
  ['wasm/JS', 'wasm', 'js'],
];

const rows = [];
for (const file of process.argv.slice(2)) {
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim().startsWith('{')) rows.push(JSON.parse(line));
  }
}

const sections = [...new Set(rows.map((r) => r.section))];
const fmtNs = (ns) =>
  ns >= 1e6
    ? `${(ns / 1e6).toFixed(2)} ms`
    : ns >= 1e3
      ? `${(ns / 1e3).toFixed(1)} us`
      : `${ns.toFixed(0)} ns`;
for (const section of sections) {
  const inSection = rows.filter((r) => r.section === section);
  const present = impls.filter(([id]) => inSection.some((r) => r.impl === id));
  const header = ['(n_q,n_k,d)'];
  for (const [, label] of present) header.push(`${label} time`, 'GFLOP/s');
  const usable = ratios.filter(
    ([, a, b]) => present.some(([id]) => id === a) && present.some(([id]) => id === b),
  );
  for (const [label] of usable) header.push(label);
  if (present.some(([id]) => id === 'wasm')) header.push('wasm % peak');
  const table = [header];
  for (const name of [...new Set(inSection.map((r) => r.case))]) {
    const byImpl = Object.fromEntries(inSection.filter((r) => r.case === name).map((r) => [r.impl, r]));
    const cells = [name];
    for (const [id] of present) {
      const r = byImpl[id];
      cells.push(r ? fmtNs(r.ns) : '-', r && r.flops > 0 ? (r.flops / r.ns).toFixed(2) : '-');
    }
    for (const [, a, b] of usable)
      cells.push(byImpl[a] && byImpl[b] ? `${(byImpl[b].ns / byImpl[a].ns).toFixed(2)}x` : '-');
    if (present.some(([id]) => id === 'wasm'))
      cells.push(
        byImpl.wasm?.flops > 0
          ? `${((100 * byImpl.wasm.flops) / byImpl.wasm.ns / peakGflops).toFixed(0)}%`
          : '-',
      );
    table.push(cells);
  }
  const widths = header.map((_, c) => Math.max(...table.map((row) => row[c].length)));
  console.log(`\n== ${section}`);
  for (const row of table)
    console.log(
      row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '),
    );
}
console.log(
  `\npeak = ${peakGflops} GFLOP/s (128-bit, no FMA; set APG_PEAK_GFLOPS to change); ratios are speedups.`,
);
