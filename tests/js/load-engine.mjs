// Loads the Emscripten ES module (build/wasm/playground.js) in node for the binding tests and as
// the reference the browser tests compare the page with.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const wasmDir = fileURLToPath(new URL('../../build/wasm/', import.meta.url));

// Emscripten 3.1.6 ES module builds still reach for the CommonJS globals under node.
globalThis.__dirname ??= wasmDir;
globalThis.require ??= createRequire(import.meta.url);

export async function loadEngine() {
  const { default: createPlayground } = await import(new URL('playground.js', `file://${wasmDir}`).href);
  // Handing over the bytes keeps the module from fetching a file path, which node's fetch cannot.
  return createPlayground({ wasmBinary: readFileSync(`${wasmDir}playground.wasm`) });
}
