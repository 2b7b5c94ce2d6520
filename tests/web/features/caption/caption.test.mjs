// The Caption view's state (web/features/caption/caption.svelte.js) over the image module's wasm
// build in its Worker's place: the scene of the link, the caption of each model as the module
// gives it, the objects moved and edited within the image, an upload, the models side by side,
// a model trained in the page shown instead, and the view's part of the link.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';

import { installBrowser, installWorkers, load, loadPageStates } from '../../support/page.mjs';
import { loadImaging, readModel } from '../../../js/load-imaging.mjs';
import { runPython } from '../../../js/run-python.mjs';

await installBrowser();
after(await installWorkers());
const page = await loadPageStates();
const { linkHash, openLink } = page.link;
// the page opened with this address; the Caption view's code comes later and reads its fields from it
openLink('#view=caption&cap=dot&cstep=1&scene=circle.red.large.10.12', { replace() {}, current: () => '' });
const captionState = await load('features/caption/caption.svelte.js');
const { caption, stepper, openCaption, currentName, currentResult, sceneModels } = captionState;
const { moveObject, editObject, addObject, removeObject, setScore, setCompare, openTrainedScene } =
  captionState;
const imaging = await loadImaging();

/** Waits for the engine's answer to the last request. */
async function answered() {
  while (caption.run !== 'ready' && caption.run !== 'error') await new Promise((r) => setTimeout(r, 5));
  await new Promise((r) => setTimeout(r, 0));
}

describe('the engine’s captions', () => {
  test('the link’s model, step and scene, captioned as the image module captions them', async () => {
    await openCaption();
    await answered();
    assert.equal(caption.status, 'ready');
    assert.equal(currentName(), 'scenes-dot-bahdanau');
    assert.deepEqual(caption.objects, [{ shape: 'circle', color: 'red', size: 'large', x: 10, y: 12 }]);
    const scene = imaging.scene('large red circle at 10,12');
    const model = imaging.ImageModel.load(readModel('scenes-dot-bahdanau.safetensors'));
    const session = model.caption(scene.pixels, scene.width, scene.height, 3, { topK: 5 });
    const steps = session.run();
    assert.equal(currentResult()?.outputText, session.outputText());
    assert.deepEqual(Array.from(currentResult()?.steps[0].weights ?? []), Array.from(steps[0].weights));
    session.delete();
    model.delete();
    assert.equal(stepper.step, 1);
    assert.match(linkHash(), /&cap=dot&cstep=1&scene=circle\.red\.large\.10\.12$/);

    // the step shown as the module's NumPy script, which agrees with the module's numbers
    const script = await captionState.stepPython();
    assert.match(script, /^# Model scenes-dot-bahdanau, input "large red circle at 10,12"\.$/m);
    assert.match(script, new RegExp(`^# Step i = 2 of the output \\(it took "${steps[1].token}"\\)`, 'm'));
    const run = runPython(script);
    assert.equal(run.status, 0, run.output);
  });

  test('an object moved or edited stays inside the image and is captioned again', async () => {
    moveObject(0, -50, 999);
    const n = caption.vocab?.imageSize ?? 0;
    const r = caption.vocab?.radius.large ?? 0;
    assert.deepEqual([caption.objects[0].x, caption.objects[0].y], [r, n - 1 - r]);
    await answered();
    assert.equal(caption.shownKey, `circle.red.large.${r}.${n - 1 - r}`);
    assert.match(linkHash(), new RegExp(`scene=circle\\.red\\.large\\.${r}\\.${n - 1 - r}$`));
    editObject(0, 'color', 'blue');
    addObject();
    assert.equal(caption.objects.length, 2);
    assert.equal(caption.selected, 1);
    removeObject(1);
    await answered();
    assert.match(currentResult()?.outputText ?? '', /blue/);
  });

  test('every scene model side by side, each its own caption; a model not shipped does nothing', async () => {
    setCompare(true);
    await answered();
    assert.deepEqual(Object.keys(caption.results).sort(), sceneModels.map((m) => m.name).sort());
    setScore('location');
    assert.equal(caption.score, 'dot');
    setCompare(false);
  });

  test('a model trained in the page is shown instead of the shipped one, alone', async () => {
    openTrainedScene({
      name: 'trained-scenes-1',
      score: 'additive',
      bytes: readModel('scenes-additive-bahdanau.safetensors'),
    });
    await answered();
    assert.equal(currentName(), 'trained-scenes-1');
    assert.equal(caption.score, 'additive');
    assert.equal(caption.compare, false);
    assert.ok(currentResult()?.outputText);
  });
});
