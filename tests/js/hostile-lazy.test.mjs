// The image and audio modules against the hostile inputs of the second hardening round: texts of
// hundreds of millions of characters, shared arguments, handles deleted twice, and conv
// checkpoints that load but could caption no picture. Each gets a coded error, leaks no handle and
// leaves the module working.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';

import { loadAudio } from './load-audio.mjs';
import { loadImaging, readModel } from './load-imaging.mjs';
import { errorOf } from './engine-fixture.mjs';

const im = await loadImaging();
const au = await loadAudio();

let handles;
beforeEach(() => (handles = [im.count_emval_handles(), au.count_emval_handles()]));
afterEach(() =>
  assert.deepEqual([im.count_emval_handles(), au.count_emval_handles()], handles, 'handles leaked'),
);

function captionWorks() {
  const model = im.ImageModel.load(readModel('scenes-additive-bahdanau.safetensors'));
  const scene = im.scene('small red circle at 10,12; large blue square at 24,20');
  const session = model.caption(scene.pixels, 32, 32, 3);
  session.run();
  assert.equal(session.outputText(), scene.caption);
  session.delete();
  model.delete();
}

function listenWorks() {
  const model = au.AudioModel.load(readModel('speech-additive-bahdanau.safetensors'));
  const u = au.synthesize({ phrase: 'how much wood' });
  const session = model.listen(u.frames);
  session.run();
  assert.ok(session.outputText().length > 0);
  session.delete();
  model.delete();
}

/** The scenes model's checkpoint with its config edited. */
function withConfig(edit) {
  const bytes = readModel('scenes-additive-bahdanau.safetensors');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + length)));
  const config = JSON.parse(header.__metadata__.config);
  edit(config);
  header.__metadata__.config = JSON.stringify(config);
  let text = JSON.stringify(header);
  while (text.length % 8) text += ' ';
  const json = new TextEncoder().encode(text);
  const out = new Uint8Array(8 + json.length + bytes.length - 8 - length);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  out.set(bytes.subarray(8 + length), 8 + json.length);
  return out;
}

describe('texts are measured before they are copied', () => {
  test('a scene description or a phrase of hundreds of millions of characters is too_long', () => {
    for (const [call, name] of [
      [() => im.scene('中'.repeat(4e8)), 'scene'],
      [() => au.synthesize({ phrase: '中'.repeat(4e8) }), 'synthesize'],
    ]) {
      const error = errorOf(call);
      assert.equal(error.code, 'too_long', error.message);
      assert.match(error.message, new RegExp(`^${name}: argument 1 holds a text of 400000000 characters`));
    }
    const phrase = errorOf(() => au.synthesize({ phrase: 'wood '.repeat(1000) }));
    assert.equal(phrase.message, 'speech: the text has 5000 bytes, at most 2000 are accepted');
    captionWorks();
    listenWorks();
  });
});

describe('shared arguments', () => {
  test('caption options and synthesize requests of one shared getter are read once', () => {
    const model = im.ImageModel.load(readModel('scenes-additive-bahdanau.safetensors'));
    let reads = 0;
    let v = {
      get x() {
        reads++;
        return 1;
      },
    };
    for (let i = 0; i < 7; i++) v = Array(16).fill(v);
    const scene = im.scene(3);
    assert.equal(errorOf(() => model.caption(scene.pixels, 32, 32, 3, { topK: v })).code, 'bad_argument');
    assert.equal(errorOf(() => au.synthesize({ phrase: 'wood', seed: v })).code, 'bad_argument');
    assert.equal(reads, 2);
    model.delete();
  });
});

describe('handles deleted twice', () => {
  test('ImageModel, ImageSession, AudioModel, AudioSession: a second delete() is bad_state', () => {
    const imageModel = im.ImageModel.load(readModel('scenes-additive-bahdanau.safetensors'));
    const caption = imageModel.caption(im.scene(1).pixels, 32, 32, 3);
    const audioModel = au.AudioModel.load(readModel('speech-additive-bahdanau.safetensors'));
    const listening = audioModel.listen(au.synthesize({ phrase: 'wood' }).frames);
    for (const [object, name] of [
      [caption, 'ImageSession'],
      [imageModel, 'ImageModel'],
      [listening, 'AudioSession'],
      [audioModel, 'AudioModel'],
    ]) {
      object.delete();
      const error = errorOf(() => object.delete());
      assert.equal(error.code, 'bad_state');
      assert.equal(error.message, `${name}.delete: this ${name} was deleted already`);
    }
    captionWorks();
    listenWorks();
  });
});

describe('conv checkpoints that could caption nothing', () => {
  test('an image_size other than the pictures the module makes is refused at load', () => {
    const error = errorOf(() =>
      im.ImageModel.load(
        withConfig((c) => {
          c.image_size = 64;
          c.max_source_len = 256;
        }),
      ),
    );
    assert.equal(error.code, 'bad_checkpoint');
    assert.equal(error.details.field, 'image_size');
    assert.match(error.message, /reads pictures of 64 x 64 pixels; the image module gives a model 32 x 32/);
  });

  test('a max_source_len other than the grid’s cells is refused at load', () => {
    const error = errorOf(() => im.ImageModel.load(withConfig((c) => (c.max_source_len = 10))));
    assert.equal(error.code, 'bad_checkpoint');
    assert.equal(error.details.field, 'max_source_len');
    assert.match(error.message, /has 64 grid cells, but max_source_len is 10/);
    captionWorks();
  });
});
