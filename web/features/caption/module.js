// Where the image module comes from: the Emscripten ES module `scripts/build.sh wasm` writes
// beside the page's engine. A lazy glob, so its code is a chunk of its own, fetched only when the
// Caption view's Worker first asks for it; a build without the module gives no loader (the view
// says so) instead of failing the page's build.
import { moduleLoader } from '../../shared/engine/module-worker.js';

const found = import.meta.glob('@engine/imaging.js');

export const imagingLoader = () => moduleLoader(found);
