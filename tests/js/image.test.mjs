// The image module's bindings: scenes (the same as the native build's), uploads scaled to the
// model's input, captioning sessions with the page module's step records over the grid cells, and
// coded errors for bad input that leave the module working.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadImaging, readModel } from './load-imaging.mjs';

const im = await loadImaging();
const model = im.ImageModel.load(readModel('scenes-additive-bahdanau.safetensors'));

function fnv1a(h, bytes) {
  for (const b of bytes) h = BigInt.asUintN(64, (h ^ BigInt(b)) * 1099511628211n);
  return h;
}

function codeOf(f) {
  try {
    f();
  } catch (e) {
    return { code: e.code, message: e.message, details: e.details };
  }
  return null;
}

test('random scenes by seed equal the native build (the constant of tests/train/test_scenes.cpp)', () => {
  let h = 1469598103934665603n;
  const text = new TextEncoder();
  for (let seed = 1; seed <= 20; seed++) {
    const s = im.scene(seed);
    h = fnv1a(h, text.encode(`${s.description}|${s.caption}|`));
    h = fnv1a(h, s.pixels);
  }
  assert.equal(h, 16108461145929030641n);
});

test('a described scene: objects with boxes, the grammar caption, pixels in the objects colours', () => {
  const s = im.scene('small red circle at 10,12; large blue square at 24,20');
  assert.equal(s.description, 'small red circle at 10,12; large blue square at 24,20');
  assert.equal(s.caption, 'a small red circle to the left of a large blue square');
  assert.deepEqual(s.captionObjects, [0, 0, 0, 0, -1, -1, -1, -1, 1, 1, 1, 1]);
  assert.deepEqual(s.objects[1].box, { x0: 18, y0: 14, x1: 30, y1: 26 });
  assert.equal(s.pixels.length, 32 * 32 * 3);
  const px = (x, y) => Array.from(s.pixels.subarray((y * 32 + x) * 3, (y * 32 + x) * 3 + 3));
  const [r, g, b] = px(10, 12); // red: 215, 45, 40 ± 10
  assert.ok(Math.abs(r - 215) <= 10 && Math.abs(g - 45) <= 10 && Math.abs(b - 40) <= 10, `${r} ${g} ${b}`);
  assert.ok(Math.abs(px(18, 14)[2] - 225) <= 10); // the square's corner is blue
  assert.ok(px(1, 1)[0] < 90); // background
});

test('captioning a scene: the model reads it right and every step record spans the 64 cells', () => {
  const s = im.scene('small red circle at 10,12; large blue square at 24,20');
  const run = model.caption(s.pixels, 32, 32, 3);
  const steps = run.run();
  assert.equal(run.outputText(), s.caption);
  assert.equal(steps.length, s.captionTokens.length + 1); // and the end token
  assert.deepEqual(run.grid(), { rows: 8, cols: 8, cellSize: 4, imageSize: 32 });
  for (const step of steps) {
    assert.equal(step.weights.length, 64);
    assert.equal(step.scores.length, 64);
    assert.equal(step.context.length, 64);
    const sum = step.weights.reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-5);
    // stage 2 spelled out: weights_j = exps_j / expSum
    assert.ok(Math.abs(step.exps[5] / step.expSum - step.weights[5]) < 1e-6);
  }
  // stage 3: the context is the weighted sum of the encoder states, position columns included
  const H = run.encoderStates();
  assert.equal(H.rows, 64);
  assert.equal(H.cols, 64);
  const w = steps[2].weights;
  for (const col of [0, 62, 63]) {
    let c = 0;
    for (let j = 0; j < 64; j++) c += w[j] * H.data[j * 64 + col];
    assert.ok(Math.abs(c - steps[2].context[col]) < 1e-4, `column ${col}`);
  }
  assert.equal(H.data[63 * 64 + 62], 1); // cell (7, 7): row +1, column +1
  assert.equal(H.data[0 * 64 + 63], -1);
  // The steps naming the blue square look inside its box (cells of 4 pixels, centre inside).
  const box = s.objects[1].box;
  for (const i of [10, 11]) {
    const peak = steps[i].weights.indexOf(Math.max(...steps[i].weights));
    const cx = (peak % 8) * 4 + 1.5,
      cy = Math.floor(peak / 8) * 4 + 1.5;
    assert.ok(
      cx >= box.x0 && cx <= box.x1 && cy >= box.y0 && cy <= box.y1,
      `${steps[i].token}: cell ${peak}`,
    );
  }
  // the same session again: records are reproducible, back / force act like the page module's
  assert.deepEqual(Array.from(run.record(3).weights), Array.from(steps[3].weights));
  run.reset();
  const first = run.step();
  assert.equal(first.token, 'a');
  const forced = run.force(model.info().tgtVocab.indexOf('large'));
  assert.equal(forced.choice, 'forced');
  assert.equal(run.back(), true);
  assert.equal(run.length(), 1);
  run.delete();
});

test('an upload is averaged to the model input: a 64x64 RGBA copy of a scene reads as the scene', () => {
  const s = im.scene(5);
  const rgba = new Uint8ClampedArray(64 * 64 * 4);
  for (let y = 0; y < 64; y++)
    for (let x = 0; x < 64; x++)
      for (let c = 0; c < 4; c++)
        rgba[(y * 64 + x) * 4 + c] = c === 3 ? 255 : s.pixels[((y >> 1) * 32 + (x >> 1)) * 3 + c];
  assert.deepEqual(im.toModelImage(rgba, 64, 64), s.pixels);
  const run = model.caption(rgba, 64, 64, 4);
  assert.deepEqual(run.pixels(), s.pixels);
  const direct = model.caption(s.pixels, 32, 32, 3);
  assert.equal(run.run().length, direct.run().length);
  assert.equal(run.outputText(), direct.outputText());
  run.delete();
  direct.delete();
  const encoded = model.encode(s.pixels, 32, 32, 3);
  assert.equal(encoded.states.rows, 64);
  assert.equal(encoded.grid.rows, 8);
});

test('info gives the grid, sizes and the held-out figures', () => {
  const info = model.info();
  assert.equal(info.task, 'scenes');
  assert.equal(info.encoder, 'conv');
  assert.equal(info.score, 'additive');
  assert.equal(info.dims.cells, 64);
  assert.equal(info.dims.encoderState, 64);
  assert.ok(info.heldoutExactMatch >= 0.95);
  assert.ok(info.attentionHits > 0.5);
  assert.equal(im.limits().maxUploadSide, 4096);
});

test('bad input gives coded errors and the module keeps working', () => {
  assert.equal(codeOf(() => im.scene('')).code, 'empty_input');
  const bad = codeOf(() => im.scene('small pink circle at 3,3'));
  assert.equal(bad.code, 'bad_argument');
  assert.equal(bad.details.part, 'small pink circle at 3,3');
  assert.match(bad.message, /unknown colour "pink"/);
  assert.equal(codeOf(() => im.scene({})).code, 'bad_argument');
  assert.equal(codeOf(() => im.scene('small red circle at 5,5;'.repeat(9))).code, 'limit_exceeded');
  // 10,000 x 10,000 pixels: refused by size before any byte is read
  const huge = codeOf(() => model.caption(new Uint8Array(16), 10000, 10000));
  assert.equal(huge.code, 'limit_exceeded');
  assert.equal(huge.details.name, 'width');
  assert.equal(huge.details.limit, 4096);
  const short = codeOf(() => model.caption(new Uint8Array(10), 32, 32, 3));
  assert.equal(short.code, 'bad_argument');
  assert.equal(short.details.name, 'bytes');
  assert.equal(codeOf(() => model.caption([1, 2, 3], 1, 1, 3)).details.name, 'pixels');
  assert.equal(codeOf(() => model.caption(new Uint8Array(3), 1, 1, 5)).details.name, 'channels');
  assert.equal(codeOf(() => model.caption(new Uint8Array(0), 0, 1, 3)).details.name, 'width');
  assert.equal(codeOf(() => model.caption(new Uint8Array(3), 1, 1, 3, { beam: 2 })).code, 'bad_argument');
  assert.equal(codeOf(() => im.ImageModel.load(new Uint8Array([1, 2, 3]))).code, 'bad_checkpoint');
  const text = codeOf(() => im.ImageModel.load(readModel('dates-additive-bahdanau.safetensors')));
  assert.equal(text.code, 'bad_argument');
  assert.equal(text.details.name, 'encoder');
  const run = model.caption(im.scene(3).pixels, 32, 32, 3);
  run.run();
  assert.equal(codeOf(() => run.step()).code, 'bad_state');
  assert.equal(run.outputText(), im.scene(3).caption);
  run.delete();
});
