import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';
import { headerPolicy, metaPolicy } from './web/csp.js';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

// The Emscripten module also runs under node (the tests), so it mentions require('fs') and
// require('path') on a branch browsers never take; Vite's notice about stubbing them is noise.
// Rolldown's note on slow plugins (PLUGIN_TIMINGS) depends on how busy the machine is: noise too.
function onLog(level, log, handler) {
  if (log.code === 'PLUGIN_TIMINGS') return;
  if (
    /externalized for browser compatibility, imported by .*(playground|trainer|imaging|audio)\.js/.test(
      log.message,
    )
  )
    return;
  handler(level, log);
}

// `npm run dev`: when the engine is rebuilt (`bash scripts/build.sh wasm` in another terminal) the
// page reloads. The .wasm is fetched at run time, not imported, so Vite's module graph does not see
// it; and a change of C++ code alone can leave playground.js byte for byte the same.
function reloadOnEngineBuild() {
  const engineFiles = ['playground.js', 'playground.wasm'].map((f) => here(`./build/wasm/${f}`));
  return {
    name: 'reload-on-engine-build',
    apply: 'serve',
    configureServer(server) {
      server.watcher.add(engineFiles);
      server.watcher.on('change', (file) => {
        if (engineFiles.includes(file)) server.ws.send({ type: 'full-reload' });
      });
    },
  };
}

// The Train view's Worker imports the trainer module (build/wasm/trainer.js, built by the wasm
// preset). Where it was not built, a stand-in whose factory rejects with that message keeps the
// rest of the page building; the Train view shows the message.
function trainerStandIn() {
  const built = here('./build/wasm/trainer.js');
  const id = '\0trainer-not-built';
  return {
    name: 'trainer-stand-in',
    resolveId: (source) =>
      (source === '@engine/trainer.js' || source === built) && !existsSync(built) ? id : null,
    load: (source) =>
      source === id
        ? 'export default () => Promise.reject(new Error("the trainer module was not built (bash scripts/build.sh wasm builds build/wasm/trainer.js)"));'
        : null,
  };
}

// The built page carries its Content-Security-Policy (web/csp.js) as the first element of <head>.
// Only the build: the dev server's hot reload injects styles, which the policy would refuse.
function contentSecurityPolicy() {
  return {
    name: 'content-security-policy',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: metaPolicy },
        injectTo: 'head-prepend',
      },
    ],
  };
}

export default defineConfig({
  root: here('./web'),
  publicDir: here('./web/public'),
  base: './',
  plugins: [svelte({ configFile: false }), reloadOnEngineBuild(), contentSecurityPolicy(), trainerStandIn()],
  resolve: {
    // The Emscripten ES module built by `scripts/build.sh wasm`.
    alias: { '@engine': here('./build/wasm') },
  },
  build: {
    outDir: here('./build/web'),
    emptyOutDir: true,
    target: 'es2022',
    // The checkpoints (web/models/*.safetensors, found by web/shared/engine/checkpoints.js) are always
    // separate files, fetched only when their model is chosen; never inlined into the bundle.
    // Nor are KaTeX's fonts: the Content-Security-Policy loads fonts from the page's origin only.
    assetsInlineLimit: (file) => (/\.(safetensors|woff2?|ttf)$/.test(file) ? false : undefined),
    rollupOptions: { onLog },
  },
  worker: { format: 'es', plugins: () => [trainerStandIn()], rollupOptions: { onLog } },
  server: { host: '127.0.0.1', port: 5173 },
  preview: {
    host: '127.0.0.1',
    port: 8080,
    strictPort: true,
    headers: { 'Content-Security-Policy': headerPolicy },
  },
});
