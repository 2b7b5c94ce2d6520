// Reads the JSON lines written by the bench_* programs (C++ for every preset, and JS) and prints
// one table per section: ns per call and GFLOP/s for each implementation, the ratios, and each
// implementation's share of its own build's multiply–add peak, measured in the same run
// (bench_peak.cpp: the "peak: …" sections; the fastest accumulator count is the peak).
// usage: node tests/bench/report.mjs build/bench/*.jsonl
import { readFileSync } from 'node:fs';

const impls = [
  ['native', 'native SSE'],
  ['wasm', 'wasm SIMD'],
  ['wasm-scalar', 'wasm scalar'],
  ['js', 'plain JS'],
  ['tfjs-wasm', 'tfjs-wasm'],
];
// [label, numerator impl, denominator impl]: a ratio of speeds (time of the second / time of the first).
const ratios = [
  ['simd/scalar', 'wasm', 'wasm-scalar'],
  ['wasm/native', 'wasm', 'native'],
  ['wasm/JS', 'wasm', 'js'],
  ['ours/tfjs', 'wasm', 'tfjs-wasm'],
];

const rows = [];
for (const file of process.argv.slice(2)) {
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim().startsWith('{')) rows.push(JSON.parse(line));
  }
}

const isPeak = (section) => section.startsWith('peak');
const gflops = (r) => r.flops / r.ns;
const peak = {};
for (const r of rows.filter((r) => isPeak(r.section) && r.flops > 0))
  peak[r.impl] = Math.max(peak[r.impl] ?? 0, gflops(r));
// tfjs-wasm runs WebAssembly SIMD on the same engine, so its ceiling is our wasm build's.
if (peak.wasm) peak['tfjs-wasm'] = peak.wasm;

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
  const header = [isPeak(section) ? 'loop' : '(n_q,n_k,d)'];
  for (const [, label] of present) header.push(`${label} time`, 'GFLOP/s');
  const usable = ratios.filter(
    ([, a, b]) => present.some(([id]) => id === a) && present.some(([id]) => id === b),
  );
  for (const [label] of usable) header.push(label);
  const withPeak = isPeak(section)
    ? []
    : present.filter(([id]) => peak[id] && inSection.some((r) => r.impl === id && r.flops > 0));
  for (const [id] of withPeak) header.push(`${id} % peak`);
  const table = [header];
  for (const name of [...new Set(inSection.map((r) => r.case))]) {
    const byImpl = Object.fromEntries(inSection.filter((r) => r.case === name).map((r) => [r.impl, r]));
    const cells = [name];
    for (const [id] of present) {
      const r = byImpl[id];
      cells.push(r ? fmtNs(r.ns) : '-', r && r.flops > 0 ? gflops(r).toFixed(2) : '-');
    }
    for (const [, a, b] of usable)
      cells.push(byImpl[a] && byImpl[b] ? `${(byImpl[b].ns / byImpl[a].ns).toFixed(2)}x` : '-');
    for (const [id] of withPeak)
      cells.push(byImpl[id]?.flops > 0 ? `${((100 * gflops(byImpl[id])) / peak[id]).toFixed(0)}%` : '-');
    table.push(cells);
  }
  const widths = header.map((_, c) => Math.max(...table.map((row) => row[c].length)));
  console.log(`\n== ${section}`);
  for (const row of table)
    console.log(
      row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '),
    );
}
const peaks = impls
  .filter(([id]) => peak[id] && id !== 'tfjs-wasm')
  .map(([id, label]) => `${label} ${peak[id].toFixed(1)}`);
console.log(
  `\npeak (multiply-add, measured in this run, GFLOP/s): ${peaks.join(', ') || 'not measured'}; ratios are speedups.`,
);
