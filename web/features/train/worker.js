// One training run in its own module Worker (the page starts one per run, so several runs train
// on several cores at once, and cancelling a run terminates its Worker and frees its memory). The
// trainer module is imported with this file, and this file only loads when the page starts a
// Worker: the page's first load fetches neither trainer.js nor trainer.wasm.
//
// The loop itself (chunks of step(n), evaluations, which snapshots keep their bytes) is
// web/features/train/loop.js; this file gives it the trainer module and Comlink's messages.
import * as Comlink from 'comlink';
import createTrainer from '@engine/trainer.js';
import { carryErrorCodes } from '../../shared/engine/errors.js';
import { trainerInfo } from './info.js';
import { trainingLoop } from './loop.js';

carryErrorCodes();

/** @type {Promise<import('@engine/trainer.js').Trainer> | undefined} */
let loading;
const trainer = () => (loading ??= createTrainer());

/** @type {import('@engine/trainer.js').TrainRun | null} */
let run = null;
/** @type {ReturnType<typeof trainingLoop> | null} */
let training = null;

// A zero-delay yield (a nested setTimeout(0) is clamped to 4 ms): lets the Worker read its messages.
const channel = new MessageChannel();
const yieldToMessages = () =>
  new Promise((resolve) => {
    channel.port1.onmessage = () => resolve(undefined);
    channel.port2.postMessage(0);
  });

const api = {
  /** The trainer's limits, and each encoder's recipes for the tasks and for own pairs (loads the trainer module). */
  async info() {
    return trainerInfo(await trainer());
  },

  /** The engine's reading of own pairs (counts, vocabularies, lengths, the seed's held-out split) or its coded error. */
  async parsePairs(text, tokenization, seed) {
    return (await trainer()).parsePairs(text, tokenization, seed);
  },

  /**
   * Creates the run (a bad value throws the engine's bad_argument) and starts training; the
   * progress, evaluations and the end arrive through `report`.
   * @param {import('@engine/trainer.js').TrainConfig} config
   * @param {import('./loop.js').LoopOptions} options
   * @param {(message: any) => void} report the page's function (a Comlink proxy)
   */
  async start(config, options, report) {
    if (run) throw new Error('this Worker already trains a run');
    const t = await trainer();
    run = new t.TrainRun(config);
    training = trainingLoop(run, (message, transfer = []) => report(Comlink.transfer(message, transfer)), {
      yieldToMessages,
    });
    void training.start(options);
  },

  pause() {
    return training?.pause() ?? 'idle';
  },
  resume() {
    return training?.resume() ?? 'idle';
  },
  /** Stops the run and frees its workspace (the page terminates the Worker right after). */
  cancel() {
    const phase = training?.cancel() ?? 'idle';
    try {
      run?.cancel();
    } catch {
      // already done: nothing left to free
    }
    return phase;
  },
};

/** @typedef {typeof api} TrainWorkerApi */

// Synchronously, before anything awaits, so no early message is missed.
Comlink.expose(api);
