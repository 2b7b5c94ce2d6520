// Loads the image module (the Emscripten ES module `scripts/build.sh wasm` writes beside the
// page's engine) in node, as the reference the Caption view's browser test compares the page with.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const wasmDir = fileURLToPath(new URL('../../build/wasm/', import.meta.url));

// Emscripten 3.1.6 ES module builds still reach for the CommonJS globals under node.
globalThis.__dirname ??= wasmDir;
globalThis.require ??= createRequire(import.meta.url);

export async function loadImaging() {
  const { default: createImaging } = await import(new URL('imaging.js', `file://${wasmDir}`).href);
  const wasm = `${wasmDir}imaging.wasm`;
  // Handing over the bytes keeps the module from fetching a file path, which node's fetch cannot.
  return createImaging(existsSync(wasm) ? { wasmBinary: readFileSync(wasm) } : {});
}
