import { mount } from 'svelte';
import 'katex/dist/katex.min.css';
import './fonts/fonts.css';
import './shared/styles.css';
import App from './App.svelte';

mount(App, { target: /** @type {HTMLElement} */ (document.getElementById('app')) });

// The page writes its state into the hash with replaceState (no event); a hashchange is the person
// editing the address or following a link to another state: start from it.
window.addEventListener('hashchange', () => location.reload());
