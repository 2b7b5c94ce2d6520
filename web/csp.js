// The page's Content-Security-Policy: everything from the page's own origin, no inline script,
// no eval, no remote origins. The build writes it into index.html as a meta tag (vite.config.js),
// and `vite preview` and the browser tests' server also send it as a header: a Worker is governed
// by the policy its own script arrives with, not by the page's meta tag, so the header is what
// holds the engine's Worker to it.
//
// script-src: 'wasm-unsafe-eval' lets the Worker compile the engine's WebAssembly; nothing else
// is evaluated (the engine is linked with -sDYNAMIC_EXECUTION=0, so embind builds its glue
// without `new Function`). style-src 'self' alone: no <style> element and no style attribute;
// the page sets its dynamic styles from script (Svelte's style: directives, KaTeX's DOM), which
// a policy does not restrict. img-src: the PNG export draws the heatmap from a blob: URL, and
// the page's empty icon is a data: URL.
// font-src 'self': KaTeX's fonts and the Chinese font (web/fonts), served with the page. An
// exported SVG carries that font as a data: URL; drawn as an image for the PNG, its document
// loads its own data: URLs, which this policy does not govern (the browser test checks it draws).
export const directives = {
  'default-src': ["'self'"],
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  'worker-src': ["'self'"],
  'connect-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
};

const write = (entries) => entries.map(([name, values]) => `${name} ${values.join(' ')}`).join('; ');

/** For the meta tag (a meta tag cannot carry frame-ancestors). */
export const metaPolicy = write(Object.entries(directives));
/** For the HTTP header: the same, and no other site may frame the page. */
export const headerPolicy = write([...Object.entries(directives), ['frame-ancestors', ["'none'"]]]);
