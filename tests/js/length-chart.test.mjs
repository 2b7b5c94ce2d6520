// What the "Why attention" chart evaluates: the engine's held-out pairs (heldoutPairs) and
// accuracyByLength's per-pair results, added up slice by slice by web/length/evaluate.js (the
// Worker's loop). Its numbers must equal a native `apg eval --by-length` run on the same models.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { lengthAccuracy, SLICE } from '../../web/features/length/evaluate.js';
import { errorOf, useTrainer } from './trainer-fixture.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const modelFile = (name) => `${root}web/models/${name}.safetensors`;
const checkpoint = (name) => new Uint8Array(readFileSync(modelFile(name)));

let T;
const { keep } = useTrainer((loaded) => (T = loaded));

/** `apg eval FILE --by-length W`'s buckets: [minLength, maxLength, pairs, "exact match %"]. */
function nativeByLength(name, width) {
  const apg = `${root}build/native/apg`;
  if (!existsSync(apg)) throw new Error(`${apg} is missing: run bash scripts/build.sh native first`);
  const run = spawnSync(apg, ['eval', modelFile(name), '--by-length', String(width)], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const rows = [...run.stdout.matchAll(/source +(\d+)-(\d+) +(\d+) pairs +exact match +([\d.]+)%/g)];
  assert.ok(rows.length > 0, run.stdout);
  return rows.map((m) => [Number(m[1]), Number(m[2]), Number(m[3]), m[4]]);
}

/** Runs the Worker's loop over `names` and collects every report. */
async function evaluate(task, names, bucketWidth, cancelAfter = Infinity) {
  const reports = [];
  let slices = 0;
  const end = await lengthAccuracy(
    T,
    { task, bucketWidth, models: names.map((name) => ({ name, bytes: checkpoint(name) })) },
    {
      report: (r) => reports.push(r),
      pause: async () => void slices++,
      cancelled: () => slices >= cancelAfter,
    },
  );
  return { end, reports, results: reports.filter((r) => r.kind === 'model').map((r) => r.result) };
}

describe('the length chart’s numbers', () => {
  test('equal a native apg eval --by-length run on the same models', async () => {
    const cases = [
      ['reverse', ['reverse-none-bahdanau', 'reverse-additive-bahdanau', 'reverse-dot-bahdanau'], 4],
      ['reverse', ['reverse-none-bahdanau'], 2],
      ['zh', ['zh-none-bahdanau', 'zh-general-bahdanau'], 4],
      ['dates', ['dates-none-bahdanau'], 4],
    ];
    for (const [task, names, width] of cases) {
      const { end, results } = await evaluate(task, names, width);
      assert.equal(end, 'done');
      assert.deepEqual(
        results.map((r) => r.name),
        names,
      );
      for (const r of results) {
        const native = nativeByLength(r.name, width);
        assert.deepEqual(
          r.buckets.map((b) => [b.minLength, b.maxLength, b.pairs, ((100 * b.hits) / b.pairs).toFixed(2)]),
          native,
          `${r.name} by ${width}`,
        );
        assert.equal(r.pairs, 1000);
        assert.equal(
          r.hits,
          r.buckets.reduce((s, b) => s + b.hits, 0),
        );
      }
    }
  });

  test('the slices add up to one call over every pair, and matches say which pairs hit', () => {
    const model = keep(T.Model.load(checkpoint('reverse-none-bahdanau')));
    const pairs = T.heldoutPairs('reverse', 1);
    const whole = model.accuracyByLength(pairs, { bucketWidth: 4 });
    assert.equal(whole.matches.length, 1000);
    assert.equal(whole.sourceLengths.length, 1000);
    assert.ok(whole.matches instanceof Uint8Array && whole.sourceLengths instanceof Int32Array);
    assert.equal(
      whole.matches.reduce((s, m) => s + m, 0),
      whole.hits,
    );
    // per bucket, from the per-pair results
    for (const b of whole.buckets) {
      let n = 0;
      let hits = 0;
      for (let k = 0; k < 1000; k++)
        if (whole.sourceLengths[k] >= b.minLength && whole.sourceLengths[k] <= b.maxLength) {
          n++;
          hits += whole.matches[k];
        }
      assert.deepEqual([n, hits], [b.pairs, b.hits], `${b.minLength}-${b.maxLength}`);
    }
    // each of the first 80 against a decoding session of its own (what Decode shows)
    for (let k = 0; k < 80; k++) {
      const [source, target] = pairs[k];
      const session = keep(model.decode(source));
      const steps = session.run();
      const hit = steps.at(-1).token === '</s>' && session.outputText() === target;
      assert.equal(whole.matches[k], hit ? 1 : 0, source);
      assert.equal(whole.sourceLengths[k], session.sourceTokens().length, source);
    }
    // no pairs: no buckets and empty per-pair arrays (a slice past the end)
    const none = model.accuracyByLength([]);
    assert.deepEqual(
      [none.pairs, none.buckets.length, none.matches.length, none.sourceLengths.length],
      [0, 0, 0, 0],
    );
    // 1000 pairs of a model both ways: some miss (the baseline), so the test can tell them apart
    assert.ok(whole.hits > 100 && whole.hits < 900, `baseline hits ${whole.hits}`);
  });

  test('progress after every slice, the sources once per data seed, and a cancel between slices', async () => {
    const names = ['reverse-none-bahdanau', 'reverse-additive-bahdanau'];
    const { end, reports, results } = await evaluate('reverse', names, 4);
    assert.equal(end, 'done');
    const pairs = reports.filter((r) => r.kind === 'pairs');
    assert.equal(pairs.length, 1, 'both models have data seed 1: the pairs are made once');
    assert.equal(pairs[0].seed, 1);
    assert.deepEqual(
      pairs[0].sources,
      T.heldoutPairs('reverse', 1).map((p) => p[0]),
    );
    // and their reference answers, for a wrong one in Decode
    assert.deepEqual(
      pairs[0].targets,
      T.heldoutPairs('reverse', 1).map((p) => p[1]),
    );
    for (const name of names) {
      const steps = reports.filter((r) => r.kind === 'progress' && r.name === name);
      assert.deepEqual(
        steps.map((r) => r.done),
        Array.from({ length: 1000 / SLICE }, (_, k) => (k + 1) * SLICE),
      );
      assert.ok(steps.every((r) => r.total === 1000));
    }
    // the baseline falls with length and attention stays up (the chart's point), from these results
    const [none, additive] = results;
    assert.ok(none.buckets[0].hits / none.buckets[0].pairs > 0.9);
    assert.ok(none.buckets.at(-1).hits / none.buckets.at(-1).pairs < 0.2);
    assert.ok(additive.buckets.every((b) => b.hits / b.pairs > 0.95));

    const stopped = await evaluate('reverse', names, 4, 3);
    assert.equal(stopped.end, 'cancelled');
    assert.equal(stopped.results.length, 0);
    assert.deepEqual(
      stopped.reports.filter((r) => r.kind === 'progress').map((r) => r.done),
      [50, 100, 150],
    );
  });

  test('a model of another task is refused, and the checkpoints are freed either way', async () => {
    const live = T.count_emval_handles();
    await assert.rejects(evaluate('zh', ['reverse-none-bahdanau'], 4), /reverse task, not zh/);
    assert.equal(T.count_emval_handles(), live);
  });
});

describe('heldoutPairs', () => {
  test('gives the 1,000 held-out pairs of a task and seed, the same each time, others for another seed', () => {
    for (const task of ['dates', 'zh', 'reverse']) {
      const pairs = T.heldoutPairs(task);
      assert.equal(pairs.length, 1000, task);
      assert.ok(pairs.every((p) => p.length === 2 && p[0].length > 0 && p[1].length > 0));
      assert.equal(new Set(pairs.map((p) => p[0])).size, 1000, `${task}: distinct sources`);
      assert.deepEqual(T.heldoutPairs(task, 1), pairs);
      assert.notDeepEqual(T.heldoutPairs(task, 2).slice(0, 20), pairs.slice(0, 20));
    }
    const reverse = T.heldoutPairs('reverse');
    assert.ok(reverse.every(([s, t]) => /^[a-j]+$/.test(s) && [...s].reverse().join('') === t));
  });

  test('refuses a bad task or seed with a coded error and keeps working', () => {
    const bad = [
      [['scenes'], 'task'],
      [['nope'], 'task'],
      [[3], 'task'],
      [[undefined], 'task'],
      [['reverse', -1], 'seed'],
      [['reverse', 1.5], 'seed'],
      [['reverse', NaN], 'seed'],
      [['reverse', '1'], 'seed'],
      [['reverse', 2 ** 60], 'seed'],
      [['reverse', { valueOf: () => 1 }], 'seed'],
    ];
    for (const [args, name] of bad) {
      const error = errorOf(() => T.heldoutPairs(...args));
      assert.equal(error.code, 'bad_argument', String(args));
      assert.equal(error.details.name, name, String(args));
    }
    assert.match(errorOf(() => T.heldoutPairs('nope')).message, /dates, zh, reverse/);
    assert.equal(T.heldoutPairs('reverse').length, 1000);
  });
});
