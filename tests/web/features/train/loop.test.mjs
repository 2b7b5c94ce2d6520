// The training loop of a run (web/features/train/loop.js) with a scripted run and clock: evaluations at
// step 0, every evalEvery steps and at the end; chunks sized to the measured time per step; every
// evaluation with its snapshot's bytes, the last with the scored model's bytes and figure; a
// diverged run stops with how it diverged and no bytes to keep; pause holds the loop and resume
// goes on; an error from the engine ends it with its code.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { trainingLoop } from '../../../../web/features/train/loop.js';

// A run whose step takes `msPerStep` of the fake clock.
function scriptedRun({ total = 100, msPerStep = 2, divergeAt = Infinity, failAt = Infinity } = {}) {
  const clock = { t: 0 };
  let step = 0;
  const calls = [];
  const run = {
    step(n) {
      calls.push(n);
      if (step + 1 >= failAt)
        throw Object.assign(new Error('bad state'), { code: 'bad_state', details: { step } });
      const to = Math.min(total, step + n);
      clock.t += (to - step) * msPerStep;
      if (to >= divergeAt)
        return {
          step: divergeAt - 1,
          totalSteps: total,
          loss: 3,
          learningRate: 1000,
          diverged: true,
          done: false,
          message: 'the loss grew',
          firstLoss: 2.5,
          divergence: 'loss_grew',
          divergedLoss: 1.2e6,
          divergedStep: divergeAt,
        };
      step = to;
      return { step, totalSteps: total, loss: 1 / (1 + step), diverged: false, done: step >= total };
    },
    evaluate(limit) {
      return {
        step,
        heldoutExactMatch: step / total,
        examples: limit,
        // right from half-way on
        predictions: [
          {
            source: 'a b',
            target: 'b a',
            output: step * 2 >= total ? 'b a' : 'b',
            correct: step * 2 >= total,
          },
        ],
        probe: { text: 'a', source: ['a'], output: ['b'], rows: 1, cols: 1, weights: [1] },
      };
    },
    snapshotBytes() {
      return new Uint8Array([step & 255, 7]);
    },
    saveScored() {
      return { bytes: new Uint8Array([step & 255, 9]), heldoutExactMatch: 0.993, examples: 1000 };
    },
  };
  return { run, clock, calls };
}

const options = { evalEvery: 10, evalExamples: 50, chunkMs: 20, maxChunk: 1000 };

async function train(script, opts = options, during = undefined) {
  const { run, clock, calls } = scriptedRun(script);
  const messages = [];
  const loop = trainingLoop(run, (m, transfer) => messages.push({ ...m, transfer }), {
    now: () => clock.t,
    yieldToMessages: async () => during?.(loop, messages),
  });
  await loop.start(opts);
  return { messages, calls, phase: loop.phase };
}

test('evaluations at step 0, every evalEvery steps and at the end; chunks never cross one', async () => {
  const { messages, calls, phase } = await train({ total: 95 });
  assert.equal(phase, 'done');
  const evals = messages.filter((m) => m.type === 'evaluation').map((m) => m.evaluation.step);
  assert.deepEqual(evals, [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95]);
  assert.equal(messages.at(-1).type, 'done');
  assert.equal(messages.at(-1).step, 95);
  assert.ok(
    calls.every((n) => n >= 1 && n <= 10),
    `chunks ${calls}`,
  );
  // The reports are the run's own objects' numbers, in order.
  const steps = messages.filter((m) => m.type === 'progress').map((m) => m.progress.step);
  assert.deepEqual(
    steps,
    [...steps].sort((a, b) => a - b),
  );
  assert.equal(steps.at(-1), 95);
});

test('chunk size follows the time per step toward chunkMs', async () => {
  // 2 ms a step, chunks of 20 ms: 10 steps a call once measured (the first call is 1 step).
  const { calls } = await train({ total: 200, msPerStep: 2 }, { ...options, evalEvery: 1000 });
  assert.equal(calls[0], 1);
  assert.ok(
    calls.slice(1, -1).every((n) => n === 10),
    `chunks ${calls}`,
  );
  const slow = await train({ total: 20, msPerStep: 50 }, { ...options, evalEvery: 1000 });
  assert.ok(
    slow.calls.every((n) => n === 1),
    'a step slower than a chunk: one step a call',
  );
});

test('every evaluation sends its snapshot’s bytes; the last the scored model’s, with the figure its record holds', async () => {
  const { messages } = await train({ total: 95 });
  const evals = messages.filter((m) => m.type === 'evaluation');
  assert.equal(evals.length, 11);
  for (const m of evals) assert.deepEqual(m.transfer, [m.bytes.buffer], 'transferred');
  assert.deepEqual(
    evals.slice(0, -1).map((m) => [...m.bytes]),
    [0, 10, 20, 30, 40, 50, 60, 70, 80, 90].map((step) => [step, 7]),
  );
  assert.ok(evals.slice(0, -1).every((m) => m.model === undefined));
  assert.deepEqual([...evals.at(-1).bytes], [95, 9]);
  assert.deepEqual(evals.at(-1).model, { heldoutExactMatch: 0.993, examples: 1000 });
});

test('every evaluation carries its held-out predictions as the engine gave them', async () => {
  const { messages } = await train({ total: 40 });
  const evals = messages.filter((m) => m.type === 'evaluation').map((m) => m.evaluation);
  assert.deepEqual(
    evals.map((e) => [e.step, e.predictions[0].output, e.predictions[0].correct]),
    [
      [0, 'b', false],
      [10, 'b', false],
      [20, 'b a', true],
      [30, 'b a', true],
      [40, 'b a', true],
    ],
  );
  assert.equal(evals[0].predictions[0].source, 'a b');
  assert.equal(evals[0].predictions[0].target, 'b a');
  assert.equal(evals[0].probe.text, 'a');
});

test('a diverged run stops with how it diverged, and no bytes to keep or open as its model', async () => {
  const { messages, phase } = await train({ total: 100, divergeAt: 23 });
  assert.equal(phase, 'diverged');
  const last = messages.at(-1);
  assert.equal(last.type, 'diverged');
  assert.equal(last.message, 'the loss grew');
  assert.equal(last.step, 22);
  assert.deepEqual(last.divergence, {
    kind: 'loss_grew',
    step: 23,
    firstLoss: 2.5,
    loss: 1.2e6,
    learningRate: 1000,
  });
  assert.equal(last.bytes, undefined);
  assert.ok(!messages.some((m) => m.type === 'done'));
});

test('pause holds the loop until resume; cancel ends it', async () => {
  let paused = 0;
  const { messages, phase } = await train({ total: 60 }, options, (loop, seen) => {
    const steps = seen.filter((m) => m.type === 'progress').length;
    if (steps === 3 && paused === 0) {
      assert.equal(loop.pause(), 'paused');
      paused++;
      // Resumed later, from outside the loop (the page's message).
      setTimeout(() => assert.equal(loop.resume(), 'running'), 20);
    }
  });
  assert.equal(paused, 1);
  assert.equal(phase, 'done');
  assert.equal(messages.filter((m) => m.type === 'progress').at(-1).progress.step, 60);

  const cancelled = await train({ total: 1000 }, options, (loop, seen) => {
    if (seen.filter((m) => m.type === 'progress').length === 2) loop.cancel();
  });
  assert.equal(cancelled.phase, 'cancelled');
  assert.equal(cancelled.messages.filter((m) => m.type === 'progress').length, 2);
  assert.ok(!cancelled.messages.some((m) => m.type === 'done'));
});

test('an engine error ends the loop with its code and details', async () => {
  const { messages, phase } = await train({ total: 100, failAt: 5 });
  assert.equal(phase, 'failed');
  assert.deepEqual(messages.at(-1), {
    type: 'failed',
    error: { code: 'bad_state', message: 'bad state', details: { step: 10 } },
    transfer: undefined,
  });
});
