// A model trained in the Train view handed to the view that reads its kind of input (a scenes
// model to Caption, a speech model to Listen). That view's code may not have loaded yet: the
// model waits here, and the view takes it when it shows.

/** @typedef {{ name: string, score: string, bytes: Uint8Array }} HandedModel */

/** @type {Record<string, HandedModel | null>} task → the model waiting for its view */
export const handedOver = $state({});

/** @param {string} task @param {HandedModel} model */
export function handOver(task, model) {
  handedOver[task] = model;
}

/**
 * The model waiting for `task`'s view, taken (null when none waits).
 * @param {string} task
 */
export function takeHandedOver(task) {
  const model = handedOver[task] ?? null;
  handedOver[task] = null;
  return model;
}
