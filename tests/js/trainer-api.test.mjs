// The trainer module's surface: wasm/trainer.d.ts names every binding (and nothing else),
// trainLimits() states src/core/limits.hpp's numbers, and hostile arguments (strings for numbers,
// NaN, huge, negative, missing or unknown fields, throwing getters) are coded errors that leave
// the module working.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';

import { loadEngine } from './load-engine.mjs';
import { errorOf, reversePairs, useTrainer } from './trainer-fixture.mjs';

let T;
const { keep } = useTrainer((loaded) => (T = loaded));
let page;
before(async () => {
  page = await loadEngine();
});

const declarations = readFileSync(new URL('../../wasm/trainer.d.ts', import.meta.url), 'utf8');
const limitsText = readFileSync(new URL('../../src/core/limits.hpp', import.meta.url), 'utf8');

/** The member names of `export interface name … { … }` in trainer.d.ts. */
function members(name) {
  const start = declarations.indexOf(`export interface ${name} `);
  assert.ok(start >= 0, `interface ${name}`);
  const body = declarations.slice(declarations.indexOf('{', start) + 1, declarations.indexOf('\n}', start));
  return [...body.matchAll(/^ {2}(?:new )?([A-Za-z]\w*)?\??[(:]/gm)].map((m) => m[1] ?? 'new').sort();
}

/** A constant of limits.hpp, its expression evaluated (1e-6, 2000000, (1ull << 53) - 1). */
function limit(name) {
  const m = limitsText.match(new RegExp(`constexpr [\\w:]+ ${name} = ([^;]+);`));
  assert.ok(m, name);
  return Function(`return ${m[1].replace(/(\d+)u?ll << (\d+)/g, '$1 * 2 ** $2')}`)();
}

const smallPairs = { pairs: reversePairs(), embed: 8, hidden: 8, batch: 8, steps: 5 };

test('trainer.d.ts declares every binding the module adds to the page module’s, and its methods', () => {
  const added = Object.keys(T)
    .filter((k) => !(k in page) && (typeof T[k] === 'function' || typeof T[k] === 'object'))
    // internals of the runtime (dynCall_*: Emscripten's callers of a function pointer with a
    // 64-bit argument), and TrainRunHandle: the embind class behind TrainRun
    .filter(
      (k) =>
        !k.startsWith('apg') && !k.startsWith('_') && !k.startsWith('dynCall_') && k !== 'TrainRunHandle',
    );
  assert.deepEqual(added.sort(), members('Trainer'));
  const embind = ['constructor', 'clone', 'delete', 'deleteLater', 'isAliasOf', 'isDeleted'];
  const methods = Object.getOwnPropertyNames(T.TrainRunHandle.prototype).filter((m) => !embind.includes(m));
  assert.deepEqual([...methods, 'delete', 'isDeleted'].sort(), members('TrainRun'));
  // the page module's API is all there too
  for (const key of ['Model', 'attend', 'limits', 'scoreKinds', 'recordSchema', 'weightDifference'])
    assert.equal(typeof T[key], typeof page[key], key);
  assert.ok(new T.TrainRun({ ...smallPairs }) instanceof T.TrainRun);
  keep(new T.TrainRun({ ...smallPairs }));
});

test('trainLimits() states the limits of src/core/limits.hpp', () => {
  const l = T.trainLimits();
  assert.deepEqual(Object.keys(l).sort(), members('TrainLimits'));
  const expected = {
    maxPairs: 'max_pairs',
    maxBytes: 'max_pairs_bytes',
    maxSourceTokens: 'max_pair_tokens',
    maxTargetTokens: 'max_pair_tokens',
    maxTokenBytes: 'max_token_bytes',
    maxVocabTokens: 'max_vocab_tokens',
    maxSteps: 'max_train_steps',
    maxStepsPerCall: 'max_steps_per_call',
    maxBatch: 'max_train_batch',
    minLearningRate: 'min_learning_rate',
    maxLearningRate: 'max_learning_rate',
    maxEmbed: 'max_train_dim',
    maxHidden: 'max_train_dim',
    maxEvalExamples: 'max_eval_examples',
    maxSeed: 'max_seed',
    maxProbeChars: 'max_input_chars',
  };
  for (const [key, name] of Object.entries(expected)) assert.equal(l[key], limit(name), key);
  assert.equal(l.maxPairs, 50000);
  assert.equal(l.maxBytes, 2000000);
});

test('trainTasks() and pairsRecipe() give the recipes apg train uses', () => {
  const tasks = T.trainTasks();
  assert.deepEqual(
    tasks.map((t) => t.name),
    ['dates', 'zh', 'reverse', 'scenes', 'speech'],
  );
  const dates = tasks[0];
  assert.equal(dates.defaultSteps, 500);
  assert.equal(dates.batch, 32);
  assert.equal(dates.embed, 32);
  assert.equal(dates.hidden, 64);
  assert.equal(dates.probe, '29 november 2026');
  assert.equal(T.trainTasks('transformer')[0].defaultSteps, 3000);
  assert.equal(T.pairsRecipe().name, 'pairs');
  // the defaults are what a run without those fields gets
  const run = keep(new T.TrainRun({ task: 'dates', steps: 1 }));
  const s = run.settings();
  assert.equal(s.embed, dates.embed);
  assert.equal(s.hidden, dates.hidden);
  assert.equal(s.batch, dates.batch);
  assert.equal(s.learningRate, dates.learningRate);
  assert.equal(s.trainCount, 20000);
});

test('hostile configurations are bad_argument naming the field, before anything is built', () => {
  const l = T.trainLimits();
  const cases = [
    [undefined, 'config'],
    [null, 'config'],
    [[], 'config'],
    ['dates', 'config'],
    [{}, 'config.task'],
    [{ task: 'dates', pairs: 'a\tb' }, 'config.task'],
    [{ task: 7 }, 'config.task'],
    [{ task: 'nope' }, 'task'],
    [{ task: 'dates', foo: 1 }, 'config.foo'],
    [{ task: 'dates', tokenization: 'char' }, 'config.tokenization'],
    [{ pairs: 'a\tb', tokenization: 'chars' }, 'tokenization'],
    [{ task: 'dates', score: 'nope' }, 'config.score'],
    [{ task: 'dates', score: 3 }, 'config.score'],
    [{ task: 'dates', style: 'x' }, 'config.style'],
    [{ task: 'dates', encoder: 'lstm' }, 'config.encoder'],
    [{ task: 'dates', activation: 'tanh' }, 'config.activation'],
    [{ task: 'dates', steps: '30' }, 'config.steps'],
    [{ task: 'dates', steps: NaN }, 'config.steps'],
    [{ task: 'dates', steps: -1 }, 'config.steps'],
    [{ task: 'dates', steps: 0 }, 'config.steps'],
    [{ task: 'dates', steps: 2.5 }, 'config.steps'],
    [{ task: 'dates', steps: l.maxSteps + 1 }, 'config.steps'],
    [{ task: 'dates', steps: 1e300 }, 'config.steps'],
    [{ task: 'dates', steps: Infinity }, 'config.steps'],
    [{ task: 'dates', batch: l.maxBatch + 1 }, 'config.batch'],
    [{ task: 'dates', embed: 0 }, 'config.embed'],
    [{ task: 'dates', hidden: l.maxHidden + 1 }, 'config.hidden'],
    [{ task: 'dates', encoder: 'transformer', embed: 30 }, 'embed'],
    [{ task: 'dates', learningRate: NaN }, 'config.learningRate'],
    [{ task: 'dates', learningRate: '0.1' }, 'config.learningRate'],
    [{ task: 'dates', learningRate: 0 }, 'config.learningRate'],
    [{ task: 'dates', learningRate: -1 }, 'config.learningRate'],
    [{ task: 'dates', learningRate: Infinity }, 'config.learningRate'],
    [{ task: 'dates', seed: -1 }, 'config.seed'],
    [{ task: 'dates', seed: 2 ** 53 }, 'config.seed'],
    [{ task: 'dates', seed: '1' }, 'config.seed'],
    [{ task: 'dates', evalExamples: 0 }, 'config.evalExamples'],
    [{ task: 'dates', evalExamples: l.maxEvalExamples + 1 }, 'config.evalExamples'],
    [{ task: 'dates', evalEvery: -1 }, 'config.evalEvery'],
    [{ task: 'dates', probe: 42 }, 'config.probe'],
    [{ task: 'dates', probe: '' }, 'probe'],
    [{ task: 'dates', probe: 'q' }, 'probe'],
    [{ task: 'dates', probe: 'x'.repeat(1e5) }, 'probe'],
    [{ pairs: 42 }, 'config.pairs'],
  ];
  for (const [config, name] of cases) {
    const error = errorOf(() => new T.TrainRun(config));
    assert.equal(error.details?.name, name, `${JSON.stringify(config)?.slice(0, 80)}: ${error.message}`);
    assert.ok(['bad_argument', 'unknown_token', 'empty_input', 'too_long'].includes(error.code), error.code);
    assert.ok(error.message.startsWith(name), error.message);
  }
  // a getter that throws, a proxy: refused while the arguments are copied
  const getter = {
    task: 'dates',
    get steps() {
      throw new Error('boom');
    },
  };
  assert.equal(errorOf(() => new T.TrainRun(getter)).code, 'bad_argument');
  const proxy = new Proxy(
    {},
    {
      ownKeys: () => {
        throw new Error('trap');
      },
    },
  );
  assert.equal(errorOf(() => new T.TrainRun(proxy)).code, 'bad_argument');
  assert.equal(errorOf(() => T.TrainRun({ task: 'dates' })).code, 'bad_argument'); // without new
  assert.equal(errorOf(() => new T.TrainRun()).code, 'bad_argument');
  // still working
  keep(new T.TrainRun({ ...smallPairs })).step(1);
});

test('hostile calls on a run and on parsePairs are coded errors', () => {
  const run = keep(new T.TrainRun({ ...smallPairs }));
  const l = T.trainLimits();
  for (const n of ['1', NaN, 0, -1, 1.5, l.maxStepsPerCall + 1, Infinity, null, {}]) {
    const error = errorOf(() => run.step(n));
    assert.equal(error.code, 'bad_argument', String(n));
    assert.equal(error.details.name, 'step');
  }
  assert.equal(errorOf(() => run.step()).code, 'bad_argument');
  for (const limit of ['5', -1, NaN, l.maxEvalExamples + 1])
    assert.equal(errorOf(() => run.evaluate(limit)).code, 'bad_argument');
  assert.equal(run.progress().step, 0); // nothing was trained by the refused calls
  for (const args of [
    [42],
    [null],
    ['a\tb', 'chars'],
    ['a\tb', 1],
    ['a\tb', 'auto', -1],
    ['a\tb', 'auto', '1'],
  ])
    assert.equal(errorOf(() => T.parsePairs(...args)).code, 'bad_argument', JSON.stringify(args));
  assert.equal(errorOf(() => T.trainTasks('lstm')).code, 'bad_argument');
  assert.equal(run.step(1).step, 1);
});
