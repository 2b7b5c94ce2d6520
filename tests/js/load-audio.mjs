// Loads the audio module (build/wasm/audio.js) in node for its binding tests and benchmark.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const wasmDir = fileURLToPath(new URL('../../build/wasm/', import.meta.url));

// Emscripten 3.1.6 ES module builds still reach for the CommonJS globals under node.
globalThis.__dirname ??= wasmDir;
globalThis.require ??= createRequire(import.meta.url);

/** @returns {Promise<import('../../wasm/audio/audio').AudioModule>} */
export async function loadAudio() {
  const { default: createAudio } = await import(new URL('audio.js', `file://${wasmDir}`).href);
  return createAudio({ wasmBinary: readFileSync(`${wasmDir}audio.wasm`) });
}

export function readModel(name) {
  return new Uint8Array(readFileSync(fileURLToPath(new URL(`../../web/models/${name}`, import.meta.url))));
}

/** FNV-1a (64 bits) over bytes, continuing from h. */
export function fnv1a(h, bytes) {
  for (const b of bytes) h = BigInt.asUintN(64, (h ^ BigInt(b)) * 1099511628211n);
  return h;
}
