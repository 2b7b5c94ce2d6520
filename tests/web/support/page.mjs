// The page's state modules under node, as main.js starts them in the browser: a stand-in for the
// browser (the platform), the link read from a hash, and the real engine (the wasm build, the
// same the browser tests load) answering as its Worker would.
import './svelte.mjs';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const web = (path) => new URL(`../../../web/${path}`, import.meta.url).href;

/** Imports a module of web/ (after the hooks are registered). */
export const load = (path) => import(web(path));

/** A browser to the page's modules: these languages, no media query matches, a storage in memory. */
export async function installBrowser({ languages = ['en-GB'] } = {}) {
  const { installPlatform } = await load('shared/platform.js');
  const stored = new Map();
  installPlatform({
    languages,
    storage: {
      getItem: (key) => stored.get(key) ?? null,
      setItem: (key, value) => void stored.set(key, String(value)),
      removeItem: (key) => void stored.delete(key),
    },
    // the checkpoints' file: URLs (tests/web/support/hooks.mjs) read from the disk
    fetch: async (url) => new Response(readFileSync(fileURLToPath(url))),
    href: () => 'http://localhost/',
  });
  return stored;
}

/**
 * Starts the page's engine state on the wasm build in node (the engine's Worker, without the
 * Worker), with the trainer module for the Transformer decoder's checkpoints as in the Worker.
 */
export async function startEngine() {
  const { loadEngine: loadWasm } = await import('../../js/load-engine.mjs');
  const { loadTrainer } = await import('../../js/trainer-fixture.mjs');
  const { createEngineApi } = await load('shared/engine/engine-api.js');
  const { loadEngine, engine } = await load('shared/engine/engine.svelte.js');
  const api = createEngineApi(loadWasm, loadTrainer);
  await loadEngine(() => ({ api, failed: new Promise(() => {}) }));
  return { api, engine };
}

/**
 * The states the page loads with it (App.svelte's), each having declared its link fields: the
 * view, the text views' choice and decode, the what-ifs, the self-attention view's layer, the
 * sandbox, the language, the beam switch, the kept models, the tour and the length chart's width.
 */
export async function loadPageStates() {
  const modules = {
    view: await load('shared/view.svelte.js'),
    choice: await load('shared/text/choice.svelte.js'),
    decode: await load('shared/text/decode.svelte.js'),
    whatif: await load('shared/text/whatif.svelte.js'),
    self: await load('features/self/self-attention.svelte.js'),
    sandbox: await load('features/sandbox/sandbox.svelte.js'),
    locale: await load('shared/i18n/locale.svelte.js'),
    beam: await load('features/beam/beam.svelte.js'),
    trained: await load('shared/models/trained.svelte.js'),
    tour: await load('features/tour/tour.svelte.js'),
    length: await load('features/length/length-link.svelte.js'),
    link: await load('shared/link/link.svelte.js'),
    notes: await load('shared/link/notes.svelte.js'),
  };
  return modules;
}

/** The channels of the Workers made under node, closed when the tests are done. */
const channels = [];

/**
 * The views' module Workers in node: `new Worker(…/worker.js)` of Caption or Listen answers with
 * that view's API (caption-api.js, listen-api.js) over its wasm build, through a MessageChannel as
 * the Worker's messages would go; `more` adds others (a Worker's path under web/ → its API).
 * Returns what closes them (the test's after()).
 * @param {Record<string, () => Promise<object> | object>} [more]
 */
export async function installWorkers(more = {}) {
  const Comlink = await import('comlink');
  const { carryErrorCodes } = await load('shared/engine/errors.js');
  carryErrorCodes();
  const apis = {
    'features/caption/worker.js': async () => {
      const { loadImaging } = await import('../../js/load-imaging.mjs');
      return (await load('features/caption/caption-api.js')).createCaptionApi(loadImaging);
    },
    'features/listen/worker.js': async () => {
      const { loadAudio } = await import('../../js/load-audio.mjs');
      return (await load('features/listen/listen-api.js')).createListenApi(loadAudio);
    },
    ...more,
  };
  globalThis.Worker = /** @type {any} */ (
    class {
      constructor(/** @type {URL} */ url) {
        const { port1, port2 } = new MessageChannel();
        const [, api] = Object.entries(apis).find(([path]) => String(url).endsWith(path)) ?? [];
        if (!api) throw new Error(`no Worker for ${url} under node`);
        void Promise.resolve(api()).then((answers) => Comlink.expose(answers, port2));
        channels.push(port1, port2);
        return port1;
      }
    }
  );
  return () => channels.splice(0).forEach((port) => port.close());
}
