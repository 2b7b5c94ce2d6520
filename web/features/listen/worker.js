// The Listen view's module Worker: the audio module runs here (listen-api.js answers the page), so
// making and decoding an utterance never blocks the page's thread. The page creates this Worker
// only when the Listen view opens; the module's code and .wasm are fetched then (a lazy glob: a
// chunk of its own), not on the first page load, and a build without the module says so instead
// of failing the page's build.
import * as Comlink from 'comlink';
import { carryErrorCodes } from '../../shared/engine/errors.js';
import { moduleLoader } from '../../shared/engine/module-worker.js';
import { createListenApi } from './listen-api.js';

carryErrorCodes();
// Synchronously, before anything awaits, so no early message is missed.
Comlink.expose(createListenApi(moduleLoader(import.meta.glob('@engine/audio.js'))));
