import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

// The Emscripten module also runs under node (the tests), so it mentions require('fs') and
// require('path') on a branch browsers never take; Vite's notice about stubbing them is noise.
// Rolldown's note on slow plugins (PLUGIN_TIMINGS) depends on how busy the machine is: noise too.
function onLog(level, log, handler) {
  if (log.code === 'PLUGIN_TIMINGS') return;
  if (/externalized for browser compatibility, imported by .*playground\.js/.test(log.message)) return;
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

export default defineConfig({
  root: here('./web'),
  publicDir: here('./web/public'),
  base: './',
  plugins: [svelte({ configFile: false }), reloadOnEngineBuild()],
  resolve: {
    // The Emscripten ES module built by `scripts/build.sh wasm`.
    alias: { '@engine': here('./build/wasm') },
  },
  build: {
    outDir: here('./build/web'),
    emptyOutDir: true,
    target: 'es2022',
    // The checkpoints (web/models/*.safetensors, found by web/state/checkpoints.js) are always
    // separate files, fetched only when their model is chosen; never inlined into the bundle.
    assetsInlineLimit: (file) => (file.endsWith('.safetensors') ? false : undefined),
    rollupOptions: { onLog },
  },
  worker: { format: 'es', rollupOptions: { onLog } },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 8080, strictPort: true },
});
