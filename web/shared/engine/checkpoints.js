// The shipped checkpoints (web/models/*.safetensors), known at build time: Vite copies each file
// into the build and gives its URL; nothing is fetched until a model is chosen.
const found = import.meta.glob('../../models/*.safetensors', {
  query: '?url',
  import: 'default',
  eager: true,
});

/** model name ("dates-additive-bahdanau") → URL of its checkpoint */
export const checkpoints = Object.fromEntries(
  Object.entries(found).map(([path, url]) => [path.replace(/^.*\//, '').replace(/\.safetensors$/, ''), url]),
);
