// The image and audio modules read a session's options and a checkpoint's bytes with the same
// code (wasm/lazy_bindings.hpp): the same refusals (code, details.name, the message naming the
// call and its options), the same defaults, and topK, maxSteps and temperature acting alike on
// the steps. Each case runs against a caption session and a listening session.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAudio, readModel } from './load-audio.mjs';
import { loadImaging } from './load-imaging.mjs';

const im = await loadImaging();
const au = await loadAudio();

const image = im.ImageModel.load(readModel('scenes-additive-bahdanau.safetensors'));
const speech = au.AudioModel.load(readModel('speech-additive-bahdanau.safetensors'));
const scene = im.scene(3);
const utterance = au.synthesize({ phrase: 'how much wood', seed: 3 });

/** The two modules' sessions, each made with `options` (undefined: left out). */
const MODULES = [
  {
    call: 'caption',
    vocab: image.info().tgtVocab.length,
    open: (options) => image.caption(scene.pixels, scene.width, scene.height, 3, options),
  },
  {
    call: 'listen',
    vocab: speech.info().tgtVocab.length,
    open: (options) => speech.listen(utterance.frames, options),
  },
];

function errorOf(f) {
  try {
    const s = f();
    s.delete();
  } catch (e) {
    return { code: e.code, message: e.message, details: e.details };
  }
  assert.fail('expected a coded error');
}

/** The steps of a greedy session with `options`, as plain records. */
function steps(m, options) {
  const s = m.open(options);
  try {
    return s.run();
  } finally {
    s.delete();
  }
}

const entropy = (w) => -Array.from(w).reduce((h, p) => (p > 0 ? h + p * Math.log(p) : h), 0);

for (const m of MODULES) {
  test(`${m.call}: an unknown option, or options that are not a plain object, are refused by name`, () => {
    const beam = errorOf(() => m.open({ beam: 2 }));
    assert.equal(beam.code, 'bad_argument');
    assert.equal(beam.details.name, 'options.beam');
    assert.match(
      beam.message,
      new RegExp(`^options\\.beam is not an option of ${m.call} \\(topK, maxSteps, temperature\\)`),
    );
    for (const bad of [[], [5], 'fast', 3, null, new Float32Array(2)]) {
      const e = errorOf(() => m.open(/** @type {any} */ (bad)));
      assert.equal(e.code, 'bad_argument', String(bad));
      assert.equal(e.details.name, 'options', String(bad));
      assert.match(e.message, /^options: expected an object/);
    }
  });

  test(`${m.call}: topK from 1 to the target vocabulary, 5 by default`, () => {
    assert.equal(steps(m, undefined)[0].top.length, 5);
    assert.equal(steps(m, {})[0].top.length, 5);
    assert.equal(steps(m, { topK: undefined })[0].top.length, 5);
    assert.equal(steps(m, { topK: 1 })[0].top.length, 1);
    assert.equal(steps(m, { topK: m.vocab })[0].top.length, m.vocab);
    for (const k of [0, m.vocab + 1, 2.5, NaN, '3']) {
      const e = errorOf(() => m.open({ topK: k }));
      assert.equal(e.code, 'bad_argument', String(k));
      assert.equal(e.details.name, 'options.topK', String(k));
    }
    assert.equal(errorOf(() => m.open({ topK: 0 })).details.limit, m.vocab);
  });

  test(`${m.call}: maxSteps stops the session after that many steps`, () => {
    const all = steps(m, {}).length;
    assert.ok(all > 2, `${all} steps`);
    assert.equal(steps(m, { maxSteps: 2 }).length, 2);
    assert.equal(steps(m, { maxSteps: 1 }).length, 1);
    assert.equal(steps(m, { maxSteps: 0 }).length, all); // 0: the model's own limit
    assert.equal(errorOf(() => m.open({ maxSteps: -1 })).details.name, 'options.maxSteps');
  });

  test(`${m.call}: the attention temperature flattens the first step's weights`, () => {
    const cold = steps(m, { temperature: 0.5 })[0].weights;
    const plain = steps(m, {})[0].weights;
    const hot = steps(m, { temperature: 4 })[0].weights;
    for (const w of [cold, plain, hot])
      assert.ok(Math.abs(w.reduce((s, x) => s + x, 0) - 1) < 1e-4, 'weights sum to 1');
    assert.ok(entropy(cold) < entropy(plain), `${entropy(cold)} < ${entropy(plain)}`);
    assert.ok(entropy(plain) < entropy(hot), `${entropy(plain)} < ${entropy(hot)}`);
    const nan = errorOf(() => m.open({ temperature: NaN }));
    assert.equal(nan.details.name, 'options.temperature');
  });
}

test('both modules load a checkpoint from a Uint8Array or a Uint8ClampedArray, and refuse other bytes by name', () => {
  const loads = [
    ['ImageModel.load', (b) => im.ImageModel.load(b), 'scenes-additive-bahdanau.safetensors'],
    ['AudioModel.load', (b) => au.AudioModel.load(b), 'speech-additive-bahdanau.safetensors'],
  ];
  for (const [who, load, file] of loads) {
    const bytes = readModel(file);
    const clamped = load(new Uint8ClampedArray(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    assert.equal(clamped.info().task, file.split('-')[0]);
    clamped.delete();
    const e = errorOf(() => load([1, 2, 3]));
    assert.equal(e.code, 'bad_argument');
    assert.equal(e.details.name, who);
    assert.match(
      e.message,
      new RegExp(`^${who.replace('.', '\\.')}: expected a Uint8Array or Uint8ClampedArray`),
    );
  }
});
