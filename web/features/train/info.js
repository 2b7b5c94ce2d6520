// What the Train view reads from the trainer module before a run (its helper Worker asks for it
// when the view opens): the trainer's limits, and each encoder's recipes for the tasks and for own
// pairs (their probe, steps, sizes, learning rate and score functions), under the GRU decoder and
// under the Transformer decoder (a race entry of its own).

/** @param {import('@engine/trainer.js').Trainer} t */
export function trainerInfo(t) {
  const encoders = /** @type {const} */ (['gru', 'transformer']);
  return {
    limits: t.trainLimits(),
    tasks: Object.fromEntries(encoders.map((e) => [e, t.trainTasks(e)])),
    pairs: Object.fromEntries(encoders.map((e) => [e, t.pairsRecipe(e)])),
    transformerTasks: Object.fromEntries(encoders.map((e) => [e, t.trainTasks(e, 'transformer')])),
    transformerPairs: Object.fromEntries(encoders.map((e) => [e, t.pairsRecipe(e, 'transformer')])),
  };
}
