// The peer for the "sdpa" rows of bench_attention.cpp: the same head (Q Kᵀ scaled, the row softmax,
// P V) in TensorFlow.js's WebAssembly backend, whose matrix products are XNNPACK's, at the same
// sizes, under node, on one thread (its multithreaded build is switched off, as ours has none) and
// with K handed over already transposed, its best case (a plain matMul with no transpose flag).
// Ours and the peer take turns three times (ours: build/wasm/bench_attention.cjs in a child process,
// which prints the same "sdpa" lines; the peer in this process), so both see the same machine
// load; each keeps its best time. The lines go to their own section, "sdpa vs tfjs-wasm", with
// impl "wasm" for ours and "tfjs-wasm" for the peer; report.mjs prints the ratio and % peak.
import * as tf from '@tensorflow/tfjs-core';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { emit, timeNs } from './timer.mjs';

const section = 'sdpa vs tfjs-wasm (XNNPACK, 1 thread, K pre-transposed; best of 3 alternating runs)';
const sizes = [
  [1, 16, 64],
  [1, 128, 256],
  [64, 64, 64],
  [256, 256, 64],
  [512, 512, 128],
];
const rounds = 3;
const ours = 'build/wasm/bench_attention.cjs';
if (!existsSync(ours)) {
  console.error(`bench_attention_peer: ${ours} is missing; build the wasm preset first`);
  process.exit(1);
}

// Under node the backend reads its .wasm files from the folder given here.
const require = createRequire(import.meta.url);
const dist = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm'));
setWasmPaths(dist + path.sep);
tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
await tf.setBackend('wasm');
await tf.ready();
if (!tf.env().get('WASM_HAS_SIMD_SUPPORT'))
  console.error('bench_attention_peer: tfjs-wasm runs without SIMD');

function randomTensor(shape, seed) {
  return tf.randomUniform(shape, -1, 1, 'float32', seed);
}

// One size's inputs, made once. The wasm backend runs each op to its end inside the call, so the
// timed call needs no dataSync (which copies the result out and, under node, costs more than the
// 512 × 512 head itself).
function peerHead(nq, nk, d) {
  const q = randomTensor([nq, d], 1);
  const kt = randomTensor([d, nk], 2);
  const v = randomTensor([nk, d], 3);
  const scale = tf.scalar(1 / Math.sqrt(d));
  return () =>
    tf.tidy(() => {
      const weights = tf.softmax(tf.mul(tf.matMul(q, kt), scale));
      tf.matMul(weights, v);
    });
}

const best = { wasm: new Map(), 'tfjs-wasm': new Map() };
const keep = (impl, name, ns) => best[impl].set(name, Math.min(best[impl].get(name) ?? Infinity, ns));
const heads = sizes.map(([nq, nk, d]) => [`(${nq},${nk},${d})`, peerHead(nq, nk, d)]);
for (let round = 0; round < rounds; round++) {
  const lines = execFileSync('node', [ours, 'wasm'], { encoding: 'utf8' }).split('\n');
  for (const line of lines.filter((l) => l.startsWith('{'))) {
    const row = JSON.parse(line);
    if (row.section === 'sdpa') keep('wasm', row.case, row.ns);
  }
  for (const [name, run] of heads) keep('tfjs-wasm', name, timeNs(run));
}
for (const [nq, nk, d] of sizes) {
  const name = `(${nq},${nk},${d})`;
  for (const impl of ['wasm', 'tfjs-wasm']) emit(section, name, impl, best[impl].get(name), 4 * nq * nk * d);
}
