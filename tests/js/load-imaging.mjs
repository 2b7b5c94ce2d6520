// Loads the image module (build/wasm/imaging.js) in node for its binding tests and benchmark.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const wasmDir = fileURLToPath(new URL('../../build/wasm/', import.meta.url));

// Emscripten 3.1.6 ES module builds still reach for the CommonJS globals under node.
globalThis.__dirname ??= wasmDir;
globalThis.require ??= createRequire(import.meta.url);

export async function loadImaging() {
  const { default: createImaging } = await import(new URL('imaging.js', `file://${wasmDir}`).href);
  return createImaging({ wasmBinary: readFileSync(`${wasmDir}imaging.wasm`) });
}

export function readModel(name) {
  return new Uint8Array(readFileSync(fileURLToPath(new URL(`../../web/models/${name}`, import.meta.url))));
}
