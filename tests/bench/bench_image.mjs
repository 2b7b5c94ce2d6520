// The image module through its JS API (wasm under node): encoding one 32 x 32 scene through the
// conv encoder (budget 2 ms, including the call and the copy of H out) and one decoding step over
// the 64 grid cells (budget 50 µs, including the step record's copy).
import { loadImaging, readModel } from '../js/load-imaging.mjs';
import { emit, timeNs } from './timer.mjs';

const im = await loadImaging();
const model = im.ImageModel.load(readModel('scenes-additive-bahdanau.safetensors'));
const scene = im.scene('small red circle at 10,12; large blue square at 24,20');
const section = 'image module via the JS API, scenes additive bahdanau (incl. call + copy)';
emit(
  section,
  'encode one 32x32 scene',
  'wasm',
  timeNs(() => model.encode(scene.pixels, 32, 32, 3)),
  0,
);
const session = model.caption(scene.pixels, 32, 32, 3);
const stepNs = timeNs(() => {
  if (session.done()) session.reset();
  session.step();
});
emit(section, 'one decoding step (64 cells)', 'wasm', stepNs, 0);
const captionNs = timeNs(() => {
  const s = model.caption(scene.pixels, 32, 32, 3);
  s.run();
  s.delete();
});
emit(section, 'encode + caption of a two-object scene', 'wasm', captionNs, 0);
emit(
  section,
  'a 256x256 RGBA upload to the model input',
  'wasm',
  timeNs(() => im.toModelImage(new Uint8Array(256 * 256 * 4), 256, 256, 4)),
  0,
);
session.delete();
model.delete();
