// The Caption view's module Worker: the image module runs here (caption-api.js answers the
// page), so encoding a scene never blocks the page's thread. The page creates this Worker only
// when the Caption view opens; the module's code and .wasm are fetched then (a lazy glob: a chunk
// of its own), not on the first page load, and a build without the module says so instead of
// failing the page's build.
import * as Comlink from 'comlink';
import { carryErrorCodes } from '../../shared/engine/errors.js';
import { moduleLoader } from '../../shared/engine/module-worker.js';
import { createCaptionApi } from './caption-api.js';

carryErrorCodes();
// Synchronously, before anything awaits, so no early message is missed.
Comlink.expose(createCaptionApi(moduleLoader(import.meta.glob('@engine/imaging.js'))));
