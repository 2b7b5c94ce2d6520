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

export default defineConfig({
  root: here('./web'),
  publicDir: here('./web/public'),
  base: './',
  plugins: [svelte({ configFile: false })],
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
  preview: { host: '127.0.0.1', port: 8080, strictPort: true },
});
