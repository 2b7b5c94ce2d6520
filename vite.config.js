import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('./web'),
  publicDir: here('./web/public'),
  base: './',
  plugins: [svelte({ configFile: false })],
  resolve: {
    // The Emscripten ES module built by `scripts/build.sh wasm`.
    alias: { '@engine': here('./build/wasm') },
  },
  build: { outDir: here('./build/web'), emptyOutDir: true, target: 'es2022' },
  worker: { format: 'es' },
  preview: { host: '127.0.0.1', port: 8080, strictPort: true },
});
