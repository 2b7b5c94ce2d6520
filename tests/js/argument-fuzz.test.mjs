// A fuzzer for the argument guard every binding goes through (wasm/js_error.cpp): random values —
// nested, shared, cyclic, huge, hostile (getters that throw, proxies, detached buffers, typed
// arrays of every kind, texts of hundreds of millions of characters) — into every binding of every
// module (the page's, the trainer's, the image and the audio module's): their functions, class
// functions and the methods of a live handle of each class. After every call the answer is a
// value or an Error with a code of the engine, no emval handle is left behind, the stack pointer
// is where it was, and every so often a real decode, run or caption still gives its known answer.
// Bounded in time (FUZZ_SECONDS, default 12 s over the four modules); the seed (FUZZ_SEED) and
// the failing call are in the message.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { loadAudio } from './load-audio.mjs';
import { loadEngine } from './load-engine.mjs';
import { loadImaging } from './load-imaging.mjs';
import { loadTrainer } from './trainer-fixture.mjs';

const seconds = Number(process.env.FUZZ_SECONDS ?? 12);
const seed = Number(process.env.FUZZ_SEED ?? 20260427);
const codes = new Set([
  'empty_input',
  'unknown_token',
  'too_long',
  'bad_checkpoint',
  'bad_argument',
  'bad_state',
  'limit_exceeded',
]);

const model = (name) =>
  new Uint8Array(readFileSync(new URL(`../../web/models/${name}.safetensors`, import.meta.url)));

// mulberry32: a small deterministic generator, so a failure replays from its seed.
function generator(s) {
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Numbers a binding may take for real (small counts, indices, τ) beside hostile ones; none so
// large that a valid call would run for long (a step count of 10,000 would).
const numbers = [
  0,
  1,
  2,
  3,
  5,
  -1,
  -0,
  0.5,
  65,
  NaN,
  Infinity,
  -Infinity,
  1e300,
  2 ** 31,
  2 ** 53,
  5e-324,
  1000.0001,
  1e-3,
];
const words = [
  'tom',
  'chase',
  'jerry',
  '29 november 2026',
  'abcdefj',
  'how much wood',
  'small red circle at 10,12',
];
const keys = [
  'topK',
  'maxSteps',
  'temperature',
  'mask',
  'unmask',
  'pin',
  'task',
  'pairs',
  'steps',
  'batch',
  'score',
  'phrase',
  'seed',
  'rate',
  'noise',
  'data',
  'rows',
  'cols',
  'params',
  'masks',
  'pins',
  'temperatures',
  'bucketWidth',
  'encoder',
  'probe',
  'x'.repeat(100),
  '\u0000',
  '__proto__',
  'constructor',
];
const tasks = ['dates', 'reverse', 'zh', 'scenes', 'speech', 'da\u0000tes'];
const typed = [
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
];

function valueMaker(random) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const string = () => {
    const r = random();
    if (r < 0.3) return pick(words);
    if (r < 0.4) return pick(tasks);
    if (r < 0.5) return '中'.repeat(Math.floor(random() * 2 ** 29)); // up to 536 million: a rope, cheap
    if (r < 0.6) return 'x'.repeat(Math.floor(random() * 5000));
    if (r < 0.7) return '\uD800' + pick(words) + '\uDC00';
    if (r < 0.8) return 'a\tb\nc\td\n\ufeffe\tf';
    return String.fromCharCode(
      ...Array.from({ length: Math.floor(random() * 8) }, () => Math.floor(random() * 0x10000)),
    );
  };
  // The nodes one call's arguments may still have: an array of 1,000 now and then, nested six
  // deep, would otherwise grow to millions of objects (the fuzzer, not the guard, ran out of memory)
  let left = 0;
  const value = (depth, shared) => {
    const r = random();
    if (r < 0.2 || depth > 6 || --left < 0) return pick(numbers);
    if (r < 0.32) return string();
    if (r < 0.36) return pick([true, false, null, undefined, 3n, Symbol('s'), () => 1]);
    if (r < 0.4 && shared.length) return pick(shared); // a value met before: sharing, or a cycle
    if (r < 0.48) {
      const T = pick(typed);
      const out = new T(Math.floor(random() * 64));
      if (random() < 0.1) structuredClone(out.buffer, { transfer: [out.buffer] }); // detached
      return out;
    }
    if (r < 0.52) {
      // a tree of one shared node, 16 wide and up to 7 deep (16⁷ paths)
      let v = value(depth + 1, shared);
      for (let i = Math.floor(random() * 7); i >= 0; i--) v = Array(16).fill(v);
      return v;
    }
    if (r < 0.55) {
      const trap = pick(['get', 'ownKeys', 'getOwnPropertyDescriptor', 'has']);
      return new Proxy(random() < 0.5 ? [] : {}, {
        [trap]: () => {
          throw new Error('trap');
        },
      });
    }
    if (r < 0.58) {
      const { proxy, revoke } = Proxy.revocable([1, 2], {});
      revoke();
      return proxy;
    }
    if (r < 0.6)
      return Object.defineProperty({}, pick(keys), {
        enumerable: true,
        get: () => {
          throw new Error('getter');
        },
      });
    if (r < 0.78) {
      const out = [];
      shared.push(out);
      const n = random() < 0.05 ? 1000 : Math.floor(random() * 6);
      for (let i = 0; i < n; i++) out.push(value(depth + 1, shared));
      return out;
    }
    const out = {};
    shared.push(out);
    // Own data properties, '__proto__' among them (an assignment would set the prototype instead).
    for (let i = Math.floor(random() * 5); i > 0; i--)
      Object.defineProperty(out, pick(keys), {
        value: value(depth + 1, shared),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    if (random() < 0.2) out.task = pick(tasks);
    return out;
  };
  return (count) => {
    const shared = [];
    left = 5000;
    return Array.from({ length: count }, () => value(0, shared));
  };
}

/** Guarded entry points: a module's functions and class functions, and its classes' methods. */
function entryPoints(module, instances) {
  const out = [];
  for (const name of Object.keys(module)) {
    const f = module[name];
    if (typeof f !== 'function') continue;
    if (typeof f.argCount === 'number')
      out.push({ label: name, call: (args) => f(...args), most: f.argCount });
    for (const key of Object.getOwnPropertyNames(f)) {
      const g = f[key];
      if (typeof g === 'function' && typeof g.argCount === 'number')
        out.push({ label: `${name}.${key}`, call: (args) => g.apply(f, args), most: g.argCount });
    }
  }
  for (const [className, make] of Object.entries(instances)) {
    const proto = module[className].prototype;
    for (const key of Object.getOwnPropertyNames(proto)) {
      const m = proto[key];
      // 'constructor' is the class itself (embind gives it an argCount of undefined): not a method.
      if (typeof m !== 'function' || typeof m.argCount !== 'number' || key === 'cancel') continue;
      // The handle is made (when a call deleted it) before the call's handles are counted: a live
      // session holds its vocabulary as a handle of its own.
      out.push({
        label: `${className}#${key}`,
        self: make,
        call: (args, self) => m.apply(self, args),
        most: m.argCount,
      });
    }
  }
  return out;
}

// A live handle of a class, made again when a call deleted or finished it.
function keeper(make) {
  let handle;
  const get = () => {
    if (!handle || handle.isDeleted()) handle = make();
    return handle;
  };
  get.drop = () => {
    if (handle && !handle.isDeleted()) handle.delete();
    handle = undefined;
  };
  return get;
}

function fuzz(name, module, instances, works, budgetMs, random) {
  const points = entryPoints(module, instances);
  assert.ok(points.length > 5, `${name}: ${points.length} entry points`);
  const values = valueMaker(random);
  const handles = module.count_emval_handles();
  const stack = module.stackSave();
  const started = performance.now();
  let calls = 0;
  while (performance.now() - started < budgetMs) {
    const point = points[Math.floor(random() * points.length)];
    const args = values(Math.floor(random() * (point.most + 2)));
    const self = point.self?.();
    const before = module.count_emval_handles();
    let result;
    try {
      result = point.call(args, self);
    } catch (error) {
      const where = `${name} ${point.label} (call ${calls}, seed ${seed})`;
      assert.ok(error instanceof Error, `${where}: threw ${String(error)}`);
      assert.ok(codes.has(error.code), `${where}: uncoded ${error.constructor.name}: ${error.message}`);
    }
    if (result && typeof result.delete === 'function' && !result.isDeleted()) result.delete();
    assert.equal(
      module.count_emval_handles(),
      before,
      `${name} ${point.label}: handles leaked (call ${calls})`,
    );
    assert.equal(module.stackSave(), stack, `${name} ${point.label}: the stack pointer moved`);
    if (++calls % 200 === 0) works();
  }
  works();
  for (const make of Object.values(instances)) make.drop();
  assert.equal(module.count_emval_handles(), handles, `${name}: handles left`);
  return calls;
}

test('random nested, shared, cyclic and huge values into every binding of every module', async () => {
  const random = generator(seed);
  const budgetMs = (seconds * 1000) / 4;
  const report = {};

  const ap = await loadEngine();
  {
    const zh = model('zh-additive-bahdanau-transformer');
    const Model = keeper(() => ap.Model.load(zh));
    const Session = keeper(() => Model().decode('tom chase jerry'));
    const works = () => {
      const m = ap.Model.load(model('dates-additive-bahdanau'));
      const s = m.decode('29 november 2026');
      s.run();
      assert.equal(s.outputText(), '2026-11-29');
      s.delete();
      m.delete();
    };
    report.playground = fuzz('playground', ap, { Model, Session }, works, budgetMs, random);
  }

  const T = await loadTrainer();
  {
    const Model = keeper(() => T.Model.load(model('dates-additive-bahdanau')));
    const TrainRunHandle = keeper(
      () => new T.TrainRun({ task: 'reverse', steps: 3, batch: 4, embed: 4, hidden: 4 }),
    );
    const works = () => {
      const run = new T.TrainRun({ task: 'reverse', steps: 1, batch: 4, embed: 4, hidden: 4 });
      assert.equal(run.step(1).step, 1);
      run.delete();
    };
    report.trainer = fuzz('trainer', T, { Model, TrainRunHandle }, works, budgetMs, random);
  }

  const im = await loadImaging();
  {
    const scenes = model('scenes-additive-bahdanau');
    const ImageModel = keeper(() => im.ImageModel.load(scenes));
    const ImageSession = keeper(() => ImageModel().caption(im.scene(2).pixels, 32, 32, 3));
    const works = () => {
      const m = im.ImageModel.load(scenes);
      const scene = im.scene('small red circle at 10,12; large blue square at 24,20');
      const s = m.caption(scene.pixels, 32, 32, 3);
      s.run();
      assert.equal(s.outputText(), scene.caption);
      s.delete();
      m.delete();
    };
    report.imaging = fuzz('imaging', im, { ImageModel, ImageSession }, works, budgetMs, random);
  }

  const au = await loadAudio();
  {
    const speech = model('speech-additive-bahdanau');
    const AudioModel = keeper(() => au.AudioModel.load(speech));
    const AudioSession = keeper(() => AudioModel().listen(au.synthesize({ phrase: 'wood' }).frames));
    const works = () => {
      const m = au.AudioModel.load(speech);
      const s = m.listen(au.synthesize({ phrase: 'how much wood' }).frames);
      s.run();
      assert.ok(s.outputText().length > 0);
      s.delete();
      m.delete();
    };
    report.audio = fuzz('audio', au, { AudioModel, AudioSession }, works, budgetMs, random);
  }
  // every module took calls in its share of the time
  for (const [name, calls] of Object.entries(report)) assert.ok(calls > 50, `${name}: ${calls} calls`);
  console.log(`argument fuzz (seed ${seed}): ${JSON.stringify(report)} calls`);
});
