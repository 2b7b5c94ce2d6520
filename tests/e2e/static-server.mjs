// A tiny static file server for build/web on a free port of 127.0.0.1, started and stopped by
// the browser tests in their own process (no child process to leave behind). It sends the page's
// Content-Security-Policy with every file, as `vite preview` does.
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { headerPolicy } from '../../web/csp.js';

const root = fileURLToPath(new URL('../../build/web/', import.meta.url));
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.safetensors': 'application/octet-stream',
};

/** @returns {Promise<{url: string, close: () => Promise<void>}>} */
export async function serveBuild() {
  statSync(join(root, 'index.html')); // fails early with a clear ENOENT when the page was not built
  const server = createServer((request, response) => {
    // an empty page of this origin: the fixture clears a used context's storage there. It names
    // its icon (none), as the page does: else Chromium asks for /favicon.ico, and the 404's console
    // message can arrive after the page is handed to the next test, and be charged to it.
    if (request.url === '/__empty') {
      response.writeHead(200, { 'content-type': types['.html'], 'content-security-policy': headerPolicy });
      response.end('<!doctype html><title>empty</title><link rel="icon" href="data:," />');
      return;
    }
    const path = normalize(decodeURIComponent(new URL(request.url, 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    let file = join(root, path);
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      statSync(file);
    } catch {
      response.writeHead(404).end('not found');
      return;
    }
    // The policy `vite preview` sends too: it is what governs the engine's Worker. Vite names each
    // asset by its content's hash, so a host may let browsers keep them for good, and this one does:
    // a test's next page load then takes the scripts, the fonts, the .wasm (and the code compiled
    // from it) from the browser's cache instead of the network, as a returning learner's would.
    response.writeHead(200, {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      'content-security-policy': headerPolicy,
      ...(path.startsWith('/assets/') ? { 'cache-control': 'public, max-age=31536000, immutable' } : {}),
    });
    createReadStream(file).pipe(response);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
