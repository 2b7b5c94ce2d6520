// Imported first by a test of the page's state modules: registers ./hooks.mjs, so the state
// modules (.svelte.js, with Svelte's runes) load under node. They must then be imported with
// `await import(…)`: a static import is loaded before this module runs.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
