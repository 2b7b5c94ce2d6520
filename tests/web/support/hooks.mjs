// Node's module hooks for the page's state modules (registered by ./svelte.mjs): a .svelte.js
// module is compiled by the Svelte compiler as Vite compiles it for the page (its runes become
// Svelte's client runtime), and an eager import.meta.glob of files (the shipped checkpoints) is
// answered with their file: URLs, as Vite answers it with their built URLs.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compileModule } from 'svelte/compiler';

// import.meta.glob('../models/*.safetensors', { query: '?url', import: 'default', eager: true })
const GLOB = /import\.meta\.glob\(\s*'([^'*]+)\/\*(\.[\w.]+)'\s*,\s*\{[^}]*eager:\s*true[^}]*\}\s*\)/g;

function expandGlobs(source, file) {
  return source.replace(GLOB, (_, folder, ext) => {
    const dir = join(dirname(file), folder);
    const entries = readdirSync(dir)
      .filter((name) => name.endsWith(ext))
      .map((name) => [`${folder}/${name}`, pathToFileURL(join(dir, name)).href]);
    return JSON.stringify(Object.fromEntries(entries));
  });
}

export async function resolve(specifier, context, next) {
  // the page takes Svelte's browser build; under node its default is the server's
  if (specifier === 'svelte' || specifier.startsWith('svelte/'))
    return next(specifier, { ...context, conditions: ['browser', ...context.conditions] });
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !/\/web\/.*\.js$/.test(url)) return next(url, context);
  const file = fileURLToPath(url);
  let source = expandGlobs(readFileSync(file, 'utf8'), file);
  if (file.endsWith('.svelte.js'))
    source = compileModule(source, { filename: file, generate: 'client', dev: false }).js.code;
  return { format: 'module', source, shortCircuit: true };
}
