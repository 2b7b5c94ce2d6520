// The trainer module (build/wasm/trainer.js) for the trainer tests, the native run they compare it
// with, and a reader of .safetensors bytes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const wasmDir = `${root}build/wasm/`;

globalThis.__dirname ??= wasmDir;
globalThis.require ??= createRequire(import.meta.url);

/** @returns {Promise<import('../../wasm/trainer.js').Trainer>} */
export async function loadTrainer() {
  const { default: createTrainer } = await import(new URL('trainer.js', `file://${wasmDir}`).href);
  return createTrainer({ wasmBinary: readFileSync(`${wasmDir}trainer.wasm`) });
}

/** Tensors by name as Float32Array, and the metadata strings, of a .safetensors file. */
export function readSafetensors(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
  const tensors = {};
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    const [begin, end] = entry.data_offsets;
    const start = bytes.byteOffset + 8 + headerLength + begin;
    tensors[name] = new Float32Array(bytes.buffer.slice(start, start + end - begin));
  }
  return { tensors, metadata: header.__metadata__ ?? {} };
}

/**
 * The native half of the determinism test: the doctest case "Run: 30 steps of dates…" of the
 * native build's train suite, which writes its per-step progress and its save() when
 * APG_RUN_RECORD is set.
 * @returns {{ loss: number[], gradNorm: number[], learningRate: number[], file: Uint8Array }}
 */
export function nativeRun() {
  const binary = `${root}build/native/apg_tests_train`;
  if (!existsSync(binary)) throw new Error(`${binary} is missing: run bash scripts/build.sh native first`);
  const dir = mkdtempSync(join(tmpdir(), 'apg-run-'));
  try {
    const record = join(dir, 'run');
    const result = spawnSync(binary, ['-tc=Run: 30 steps of dates*'], {
      env: { ...process.env, APG_RUN_RECORD: record },
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`native run failed:\n${result.stdout}${result.stderr}`);
    const progress = JSON.parse(readFileSync(`${record}.json`, 'utf8'));
    return { ...progress, file: new Uint8Array(readFileSync(`${record}.safetensors`)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One trainer module per test file with the leak check of engine-fixture.mjs: objects made through
 * keep() are deleted after each test, and the live emval handle count must be back where it was.
 * @returns {{ keep: <T>(object: T) => T, ready: Promise<any> }}
 */
export function useTrainer(onLoad) {
  let T;
  let handlesAtStart;
  const live = [];
  // A file's own before() may need the module: it awaits `ready` rather than trusting hook order,
  // which node's runner does not keep for top-level hooks that await.
  const ready = loadTrainer();
  before(async () => {
    T = await ready;
    onLoad(T);
  });
  beforeEach(() => {
    handlesAtStart = T.count_emval_handles();
  });
  afterEach(() => {
    while (live.length) {
      const object = live.pop();
      if (!object.isDeleted()) object.delete();
    }
    assert.equal(T.count_emval_handles(), handlesAtStart, 'emval handles leaked');
  });
  after(() => assert.equal(T.count_emval_handles(), 0, 'emval handles left at the end'));
  return { keep: (object) => (live.push(object), object), ready };
}

export { errorOf } from './engine-fixture.mjs';

/** Reversal of 2–6 letters a–f as own pairs (200 lines: 180 train, 20 held out). */
export function reversePairs() {
  let state = 3;
  const next = (n) => ((state = (state * 1103515245 + 12345) % 2147483648), Math.floor(state / 65536) % n);
  const lines = [];
  for (let k = 0; k < 200; k++) {
    const s = Array.from({ length: 2 + next(5) }, () => 'abcdef'[next(6)]).join('');
    lines.push(`${s}\t${[...s].reverse().join('')}`);
  }
  return lines.join('\n') + '\n';
}
