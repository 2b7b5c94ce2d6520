// The training loop of one run, as the Worker drives it (web/features/train/worker.js); here apart from the
// Worker's messaging so it can be tested with a scripted run.
//
// The run trains in chunks of step(n) calls, n chosen so a chunk takes about `chunkMs`; between
// chunks the loop yields, so pause, resume and the page's other messages are answered at once.
// Every `evalEvery` steps (and at step 0 and at the end) it evaluates held-out exact match and the
// probe's alignment, and sends the model's .safetensors bytes at that step with it: a snapshot's
// (its training record holds that evaluation's figure, so saving costs no decoding), and at the
// end the scored model's (its record's figure over every held-out pair, which the page keeps and
// shows as the model's, the same a download loaded back shows). A run that diverged sends how it
// diverged (the engine's kind, first loss, loss and step) and no bytes: its model is not one to
// keep or open as trained, only the earlier evaluations' snapshots are. Every number is the
// engine's.

/**
 * @typedef {{ evalEvery: number, evalExamples: number, chunkMs: number, maxChunk: number }} LoopOptions
 * @typedef {(message: any, transfer?: Transferable[]) => void} Report
 * @typedef {'idle' | 'running' | 'paused' | 'done' | 'cancelled' | 'diverged' | 'failed'} Phase
 */

/** An engine error as plain fields (code, message, details) for the page. */
export function failure(error) {
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
    predictions: e.predictions.map((x) => ({
      source: x.source,
      target: x.target,
      output: x.output,
      correct: x.correct,
    })),
    probe: {
      text: p.text,
      source: [...p.source],
      output: [...p.output],
      rows: p.rows,
      cols: p.cols,
      weights: new Float32Array(p.weights),
    },
  };
}

/**
 * @param {{ step(n: number): any, evaluate(limit: number): any, snapshotBytes(): Uint8Array,
 *   saveScored(): { bytes: Uint8Array, heldoutExactMatch: number | null, examples: number } }} run
 * @param {Report} report
 * @param {{ now?: () => number, yieldToMessages?: () => Promise<unknown> }} [clock]
 */
export function trainingLoop(
  run,
  report,
  { now = () => performance.now(), yieldToMessages = () => Promise.resolve() } = {},
) {
  /** @type {Phase} */
  let phase = 'idle';
  /** @type {(() => void) | null} wakes the loop when paused */
  let wake = null;

  function evaluateAndReport(evalExamples, last = false) {
    const evaluation = copyEvaluation(run.evaluate(evalExamples));
    if (!last) {
      const bytes = copyBytes(run.snapshotBytes());
      report({ type: 'evaluation', evaluation, bytes }, [bytes.buffer]);
      return;
    }
    const scored = run.saveScored();
    const bytes = copyBytes(scored.bytes);
    const model = { heldoutExactMatch: scored.heldoutExactMatch, examples: scored.examples };
    report({ type: 'evaluation', evaluation, bytes, model }, [bytes.buffer]);
  }

  /** @param {LoopOptions} options */
  async function loop({ evalEvery, evalExamples, chunkMs, maxChunk }) {
    let n = 1;
    let step = 0;
    let nextEval = evalEvery;
    try {
      // Step 0: the untrained model's alignment (the blur the training sharpens).
      evaluateAndReport(evalExamples);
      for (;;) {
        await yieldToMessages();
        if (phase === 'paused') {
          await new Promise((resolve) => (wake = () => resolve(undefined)));
          wake = null;
          continue;
        }
        if (phase !== 'running') return;
        const started = now();
        const progress = run.step(Math.max(1, Math.min(n, nextEval - step, maxChunk)));
        const ms = now() - started;
        // Steps per chunk follow the measured time per step, so a chunk stays near chunkMs.
        const perStep = ms / Math.max(1, progress.step - step);
        n = Math.max(1, Math.min(maxChunk, Math.round(chunkMs / Math.max(perStep, 0.01))));
        step = progress.step;
        report({ type: 'progress', progress: { ...progress } });
        if (progress.diverged) {
          phase = 'diverged';
          report({
            type: 'diverged',
            message: progress.message ?? 'the loss is not finite',
            step,
            divergence: {
              kind: progress.divergence ?? 'loss_not_finite',
              step: progress.divergedStep ?? step + 1,
              firstLoss: progress.firstLoss ?? null,
              loss: progress.divergedLoss ?? progress.loss,
              learningRate: progress.learningRate ?? null,
            },
          });
          return;
        }
        if (step >= nextEval || progress.done) {
          evaluateAndReport(evalExamples, progress.done);
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

  return {
    /** Starts training; resolves when the loop ends (done, diverged, failed or cancelled). */
    start(/** @type {LoopOptions} */ options) {
      phase = 'running';
      return loop(options);
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
    cancel() {
      if (phase === 'running' || phase === 'paused') phase = 'cancelled';
      wake?.();
      return phase;
    },
    get phase() {
      return phase;
    },
  };
}
