// What the Caption view's module Worker (worker.js) answers: the image module's scenes, and its
// models (the conv encoder and the GRU decoder over its grid; wasm/image/imaging.d.ts) loaded by
// name. Errors reach the page with their code and details (shared/engine/errors.js); the node
// tests call it directly, with the same wasm build.
//
// Every answer is plain data: the pixels the model read (the scene as the engine drew it, or an
// upload after the engine scaled it), the grid, its annotation vectors and one step record per
// caption word, and for a scene the engine's objects (their boxes) and the grammar's caption.
import { moduleModels, reproduceStep } from '../../shared/engine/module-worker.js';

/**
 * The Worker's API over the module `loader` starts (null: the build has none, and every call says so).
 * @param {(() => Promise<import('../../../wasm/image/imaging').ImagingModule>) | null} loader
 */
export function createCaptionApi(loader) {
  const {
    module: imaging,
    model,
    load,
  } = moduleModels(loader, 'the image engine is not part of this build', (im, bytes) =>
    im.ImageModel.load(bytes),
  );

  // A session's whole caption, greedy; the session is deleted, the page keeps the plain data.
  function captionOf(m, pixels, width, height, channels, topK) {
    const s = m.caption(pixels, width, height, channels, { topK });
    try {
      const steps = s.run();
      const grid = s.grid();
      return {
        image: {
          data: s.pixels(),
          width: grid.imageSize,
          height: grid.imageSize,
          channels: /** @type {3} */ (3),
        },
        grid,
        annotations: s.encoderStates(),
        steps,
        output: s.outputTokens(),
        outputText: s.outputText(),
      };
    } finally {
      s.delete();
    }
  }

  // The pixels of an input: the scene the engine draws from a description, or an upload's.
  function pixelsOf(im, input) {
    if (!('description' in input)) return input.image;
    const scene = im.scene(input.description);
    return { data: scene.pixels, width: scene.width, height: scene.height, channels: 3 };
  }

  /** @type {import('./caption').CaptionApi} */
  return {
    async init() {
      const im = await imaging();
      const limits = im.limits();
      // each size's half-width, read off the engine's own boxes
      const radius = Object.fromEntries(
        limits.sizes.map((size) => {
          const { box } = im.scene(`${size} ${limits.colours[0]} ${limits.shapes[0]} at 16,16`).objects[0];
          return [size, (box.x1 - box.x0) / 2];
        }),
      );
      return {
        scene: {
          shapes: limits.shapes,
          colors: limits.colours,
          sizes: limits.sizes,
          radius,
          imageSize: limits.imageSize,
          maxObjects: limits.maxDescribedObjects,
        },
        limits: { maxUploadSide: limits.maxUploadSide, maxUploadBytes: limits.maxUploadBytes },
      };
    },

    // The page fetches the checkpoint and hands its bytes over (transferred, not copied).
    loadModel: load,

    // One picture through each named model: a scene description the engine draws, or an upload's
    // pixels (any size up to the engine's limit; the engine scales them to its input).
    async caption(names, input, { topK = 5 } = {}) {
      const im = await imaging();
      /** @type {import('./caption').Captions} */
      const out = { scene: null, models: {} };
      let pixels, width, height, channels;
      if ('description' in input) {
        const scene = im.scene(input.description);
        out.scene = {
          description: scene.description,
          caption: scene.caption,
          boxes: scene.objects.map((o) => o.box),
        };
        [pixels, width, height, channels] = [scene.pixels, scene.width, scene.height, 3];
      } else ({ data: pixels, width, height, channels } = input.image);
      for (const name of names)
        out.models[name] = captionOf(model(name), pixels, width, height, channels, topK);
      return out;
    },

    async reproduce(name, input, step) {
      const { data, width, height, channels } = pixelsOf(await imaging(), input);
      const text = 'description' in input ? input.description : 'an uploaded picture';
      return reproduceStep(model(name).caption(data, width, height, channels, {}), step, name, text);
    },
  };
}
