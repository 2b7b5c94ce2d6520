// What the Caption and Listen views' Workers share: their engine module, fetched and started once
// on the first call that needs it, and the models loaded into it by name.

/**
 * The loader of an Emscripten module found by a lazy import.meta.glob (the module's file is a
 * chunk of its own, fetched when first asked for), or null when the build has none.
 * @param {Record<string, () => Promise<unknown>>} found
 * @returns {(() => Promise<any>) | null}
 */
export function moduleLoader(found) {
  const load = Object.values(found)[0];
  if (!load) return null;
  return async () => {
    const module = /** @type {any} */ (await load());
    return module.default();
  };
}

const stateError = (message) => Object.assign(new Error(message), { code: 'bad_state' });

/**
 * A Worker's module and its models.
 * @template M the module
 * @template {{ info(): any }} Model
 * @param {(() => Promise<M>) | null} loader
 * @param {string} missing the message when the build has no module
 * @param {(module: M, bytes: Uint8Array) => Model} open loads a checkpoint's bytes as a model
 */
export function moduleModels(loader, missing, open) {
  /** @type {Promise<M> | undefined} */
  let loading;
  /** @type {Map<string, Model>} name → model */
  const models = new Map();
  /** The module, started on the first call. */
  function module() {
    if (!loader) throw stateError(missing);
    return (loading ??= loader());
  }
  return {
    module,
    /** A model loaded by name; bad_state when it is not. */
    model(name) {
      const m = models.get(name);
      if (!m) throw stateError(`the model ${name} is not loaded`);
      return m;
    },
    /** Loads a checkpoint's bytes (the page transfers them) as `name`, once; its info. */
    async load(name, buffer) {
      const mod = await module();
      const m = models.get(name) ?? open(mod, new Uint8Array(buffer));
      models.set(name, m);
      return m.info();
    },
  };
}

/**
 * Step `step` (from 0) of a new session as the engine's Python file (session.reproduce): the
 * session decodes greedily up to that step, as the page's answer did, and is deleted.
 * @param {import('../../../wasm/playground').DecodingSession & { delete(): void }} session
 * @param {number} step
 * @param {string} name the model's, for the file's header
 * @param {string} input what the page calls the input
 */
export function reproduceStep(session, step, name, input) {
  try {
    for (let i = 0; i <= step && !session.done(); i++) session.step();
    return session.reproduce(step, name, input);
  } finally {
    session.delete();
  }
}
