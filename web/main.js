// The page's one edge to the browser: what the page's modules know of the browser (the person's
// languages, media queries, storage, the address) is handed to them here, and the address's hash
// is read into the states once every feature loaded with the page has declared its link fields.
import { mount } from 'svelte';
import 'katex/dist/katex.min.css';
import './fonts/fonts.css';
import './shared/styles.css';
import App from './App.svelte';
import { readSavedStop, readWelcome } from './features/tour/tour.svelte.js';
import { loadEngine } from './shared/engine/engine.svelte.js';
import { dropPendingLink, flushLink, openLink } from './shared/link/link.svelte.js';
import { readSaved } from './shared/models/trained.svelte.js';
import { installPlatform } from './shared/platform.js';
import { followColorScheme } from './shared/theme.svelte.js';

/** localStorage, or null where the browser refuses it (a private window's policy). */
function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

installPlatform({
  languages: navigator.languages?.length ? navigator.languages : [navigator.language ?? 'en'],
  matchMedia: (query) => window.matchMedia(query),
  storage: storage(),
  baseURI: document.baseURI,
  fetch: (url) => fetch(url),
  href: () => location.href,
  copy: (text) => navigator.clipboard.writeText(text),
});
followColorScheme();
// The engine's Worker starts before the page is built, so that fetching and compiling the wasm
// (and the first model, which the first view asks for as it mounts) overlap with building it.
void loadEngine();
readSavedStop();
readWelcome(location.hash.replace(/^#/, '') === '');
openLink(location.hash, {
  replace: (hash) => history.replaceState(null, '', hash),
  current: () => location.hash,
});
void readSaved();

mount(App, { target: /** @type {HTMLElement} */ (document.getElementById('app')) });

// The page writes its state into the hash with replaceState (no event); a hashchange is the person
// editing the address or following a link to another state: start from it. A write still waiting
// must not put the old state back as the page goes.
window.addEventListener('hashchange', () => {
  dropPendingLink();
  location.reload();
});
window.addEventListener('pagehide', flushLink);
