// One training run in its own module Worker (the page starts one per run, so several runs train
// on several cores at once, and cancelling a run terminates its Worker and frees its memory). The
// trainer module is imported with this file, and this file only loads when the page starts a
// Worker: the page's first load fetches neither trainer.js nor trainer.wasm.
//
// The run trains in chunks of step(n) calls, n chosen so a chunk takes about `chunkMs`; between
// chunks the Worker yields, so pause, resume and the page's other messages are answered at once.
// Every `evalEvery` steps (and at step 0 and at the end) it evaluates held-out exact match and the
// probe's alignment. The model's .safetensors bytes go with an evaluation when saving them costs
// at most `saveShare` of the training time since the last ones (save() decodes every held-out
// pair for the file's record: about 330 ms for dates, five evaluations' worth), and always with
// the last: the page keeps them to open that model in the other views. Every number is the engine's.
import * as Comlink from 'comlink';
import createTrainer from '@engine/trainer.js';
import { carryErrorCodes } from '../engine/errors.js';

carryErrorCodes();

/** @type {Promise<import('@engine/trainer.js').Trainer> | undefined} */
let loading;
const trainer = () => (loading ??= createTrainer());

/** @type {import('@engine/trainer.js').TrainRun | null} */
let run = null;
/** @type {'idle' | 'running' | 'paused' | 'done' | 'cancelled' | 'diverged' | 'failed'} */
let phase = 'idle';
/** @type {(() => void) | null} wakes the loop when paused */
let wake = null;

// A zero-delay yield (a nested setTimeout(0) is clamped to 4 ms): lets the Worker read its messages.
const channel = new MessageChannel();
const yieldToMessages = () =>
  new Promise((resolve) => {
    channel.port1.onmessage = () => resolve(undefined);
    channel.port2.postMessage(0);
  });

/** An engine error as plain fields (code, message, details) for the page. */
function failure(error) {
  return {
    code: typeof error?.code === 'string' ? error.code : '',
    message: String(error?.message ?? error),
    details: error?.details && typeof error.details === 'object' ? structuredClone(error.details) : {},
  };
}

// The wasm binding may hand out views on its memory: posting one would clone the whole heap, and
// transferring it would detach the heap. Copies are posted instead.
const copyBytes = (bytes) => new Uint8Array(bytes);
function copyEvaluation(e) {
  const p = e.probe;
  return {
    step: e.step,
    heldoutExactMatch: e.heldoutExactMatch,
    examples: e.examples,
    probe: {
      source: [...p.source],
      output: [...p.output],
      rows: p.rows,
      cols: p.cols,
      weights: new Float32Array(p.weights),
    },
  };
}

/**
 * @typedef {{ evalEvery: number, evalExamples: number, chunkMs: number, maxChunk: number, saveShare: number }} LoopOptions
 * @typedef {(message: any) => void} Report
 */

// The cost of save() as last measured (a first guess until then), and the training time since
// the last bytes were sent.
let saveMs = 300;
let trainedMs = 0;

/** Evaluates now and reports the evaluation, with the model's bytes (transferred) when they are due. */
function evaluateAndReport(report, evalExamples, saveShare, last = false) {
  const evaluation = copyEvaluation(/** @type {any} */ (run).evaluate(evalExamples));
  if (!last && trainedMs * saveShare < saveMs) {
    report({ type: 'evaluation', evaluation, bytes: null });
    return;
  }
  const started = performance.now();
  const bytes = copyBytes(/** @type {any} */ (run).save());
  saveMs = performance.now() - started;
  trainedMs = 0;
  report(Comlink.transfer({ type: 'evaluation', evaluation, bytes }, [bytes.buffer]));
}

/** @param {Report} report @param {LoopOptions} options */
async function loop(report, { evalEvery, evalExamples, chunkMs, maxChunk, saveShare }) {
  let n = 1;
  let step = 0;
  let nextEval = evalEvery;
  try {
    // Step 0: the untrained model's alignment (the blur the training sharpens).
    evaluateAndReport(report, evalExamples, saveShare);
    for (;;) {
      await yieldToMessages();
      if (phase === 'paused') {
        await new Promise((resolve) => (wake = () => resolve(undefined)));
        wake = null;
        continue;
      }
      if (phase !== 'running' || !run) return;
      const started = performance.now();
      const progress = run.step(Math.max(1, Math.min(n, nextEval - step, maxChunk)));
      const ms = performance.now() - started;
      trainedMs += ms;
      // Steps per chunk follow the measured time per step, so a chunk stays near chunkMs.
      const perStep = ms / Math.max(1, progress.step - step);
      n = Math.max(1, Math.min(maxChunk, Math.round(chunkMs / Math.max(perStep, 0.01))));
      step = progress.step;
      report({ type: 'progress', progress: { ...progress } });
      if (progress.diverged) {
        phase = 'diverged';
        // The run restored the last good parameters: their bytes are the snapshot kept.
        const bytes = copyBytes(run.save());
        report(
          Comlink.transfer(
            { type: 'diverged', message: progress.message ?? 'the loss is not finite', step, bytes },
            [bytes.buffer],
          ),
        );
        return;
      }
      if (step >= nextEval || progress.done) {
        evaluateAndReport(report, evalExamples, saveShare, progress.done);
        while (nextEval <= step) nextEval += evalEvery;
      }
      if (progress.done) {
        phase = 'done';
        report({ type: 'done', step });
        return;
      }
    }
  } catch (error) {
    phase = 'failed';
    report({ type: 'failed', error: failure(error) });
  }
}

const api = {
  /** The trainer's limits, and each encoder's recipes for the tasks and for own pairs (loads the trainer module). */
  async info() {
    const t = await trainer();
    const encoders = /** @type {const} */ (['gru', 'transformer']);
    return {
      limits: t.trainLimits(),
      tasks: Object.fromEntries(encoders.map((e) => [e, t.trainTasks(e)])),
      pairs: Object.fromEntries(encoders.map((e) => [e, t.pairsRecipe(e)])),
    };
  },

  /** The engine's reading of own pairs (counts, vocabularies, lengths, the seed's held-out split) or its coded error. */
  async parsePairs(text, tokenization, seed) {
    return (await trainer()).parsePairs(text, tokenization, seed);
  },

  /**
   * Creates the run (a bad value throws the engine's bad_argument) and starts training; the
   * progress, evaluations and the end arrive through `report`.
   * @param {import('@engine/trainer.js').TrainConfig} config
   * @param {LoopOptions} options
   * @param {Report} report
   */
  async start(config, options, report) {
    if (run) throw new Error('this Worker already trains a run');
    const t = await trainer();
    run = new t.TrainRun(config);
    phase = 'running';
    void loop(report, options);
  },

  pause() {
    if (phase === 'running') phase = 'paused';
    return phase;
  },
  resume() {
    if (phase === 'paused') {
      phase = 'running';
      wake?.();
    }
    return phase;
  },
  /** Stops the run and frees its workspace (the page terminates the Worker right after). */
  cancel() {
    if (phase === 'running' || phase === 'paused') phase = 'cancelled';
    wake?.();
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
