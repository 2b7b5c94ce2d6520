// The length chart's Worker: loads the trainer module (the only module with accuracyByLength and
// the tasks' held-out pairs; the page's first load fetches neither trainer.js nor trainer.wasm) and
// evaluates the chosen task's models one after the other, never on the page's thread.
import * as Comlink from 'comlink';
import createTrainer from '@engine/trainer.js';
import { carryErrorCodes } from '../../shared/engine/errors.js';
import { lengthAccuracy } from './evaluate.js';

carryErrorCodes();

/** @type {Promise<any> | undefined} */
let loading;
const trainer = () => (loading ??= createTrainer());

// Each run() gets a number; a cancel or a newer run() ends the older one at its next slice.
let current = 0;

// A zero-delay yield (a nested setTimeout(0) is clamped to 4 ms): lets the Worker read a cancel.
const pause = () =>
  new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve(undefined);
    };
    port2.postMessage(0);
  });

const api = {
  /**
   * Fetches each checkpoint and evaluates it over the task's held-out pairs; the sources, the
   * progress and each model's result arrive through `report`. Resolves to 'done' or 'cancelled'.
   * @param {{ task: string, bucketWidth: number, models: { name: string, url: string }[] }} job
   * @param {(r: import('./evaluate.js').LengthReport) => unknown} report the page's function (a Comlink proxy)
   */
  async run(job, report) {
    const mine = ++current;
    const cancelled = () => mine !== current;
    const t = await trainer();
    const models = [];
    for (const { name, url } of job.models) {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${name}: the checkpoint did not load (HTTP ${response.status})`);
      models.push({ name, bytes: new Uint8Array(await response.arrayBuffer()) });
      if (cancelled()) return 'cancelled';
    }
    return lengthAccuracy(
      t,
      { task: job.task, bucketWidth: job.bucketWidth, models },
      {
        report,
        cancelled,
        pause,
      },
    );
  },
  /** Stops the running evaluation after its current slice of pairs (a new run() does too). */
  cancel() {
    current++;
  },
};

/** @typedef {typeof api} LengthWorkerApi */

// Synchronously, before anything awaits, so no early message is missed.
Comlink.expose(api);
