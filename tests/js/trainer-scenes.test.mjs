// The scenes task in the trainer module: trainTasks() lists it with its recipe and probe scene, a
// run trains and evaluates it (the probe's alignment is caption words × the 64 cells), and the
// bytes save() gives are a model the image module loads and captions the probe with the very
// words and attention weights evaluate() reported.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import { loadImaging } from './load-imaging.mjs';
import { errorOf, useTrainer } from './trainer-fixture.mjs';

let T;
const { keep } = useTrainer((loaded) => (T = loaded));
let im;
before(async () => {
  im = await loadImaging();
});

test('trainTasks() lists scenes with the recipe of apg train --task scenes and a held-out probe scene', () => {
  const scenes = T.trainTasks().find((t) => t.name === 'scenes');
  assert.ok(scenes);
  // src/train/tasks/scenes_prepare.cpp's scenes_options / scenes_config
  assert.equal(scenes.defaultSteps, 8000);
  assert.equal(scenes.batch, 32);
  assert.equal(Math.fround(scenes.learningRate), Math.fround(3e-3));
  assert.equal(scenes.embed, 16);
  assert.equal(scenes.hidden, 62);
  const probe = im.scene(scenes.probe);
  assert.equal(probe.description, scenes.probe);
  assert.equal(probe.heldoutComposition, true);
  // the same scene whatever the encoder the form asks the recipes for
  assert.equal(T.trainTasks('transformer').find((t) => t.name === 'scenes').probe, scenes.probe);
});

test('a scenes run: steps, the probe as words × 64 cells, and save() captions the probe the same in the image module', () => {
  const run = keep(
    new T.TrainRun({
      task: 'scenes',
      score: 'general',
      style: 'luong',
      steps: 6,
      batch: 8,
      seed: 3,
      evalExamples: 5,
    }),
  );
  const s = run.settings();
  assert.deepEqual(
    [s.task, s.encoder, s.embed, s.hidden, s.steps, s.batch, s.trainCount, s.heldoutCount],
    ['scenes', 'conv', 16, 62, 6, 8, 12000, 1000],
  );
  let p = run.step(4);
  assert.equal(p.step, 4);
  assert.ok(Number.isFinite(p.loss) && p.loss > 0);
  p = run.step(10);
  assert.equal(p.step, 6);
  assert.equal(p.done, true);
  const e = run.evaluate();
  assert.equal(e.examples, 5);
  assert.ok(e.heldoutExactMatch >= 0 && e.heldoutExactMatch <= 1);
  assert.equal(e.probe.cols, 64);
  assert.equal(e.probe.source.length, 64);
  assert.deepEqual([e.probe.source[0], e.probe.source[10], e.probe.source[63]], ['a1', 'c2', 'h8']);
  assert.equal(e.probe.rows, e.probe.output.length);
  assert.equal(e.probe.weights.length, e.probe.rows * 64);

  const bytes = run.save();
  const model = im.ImageModel.load(bytes);
  const info = model.info();
  assert.equal(info.score, 'general');
  assert.equal(info.style, 'luong');
  assert.equal(info.training.encoder, 'conv');
  assert.match(
    String(info.training.command),
    /^apg train --task scenes --score general --style luong --seed 3 /,
  );
  assert.equal(info.training.steps, 6);
  const probe = im.scene(T.trainTasks().find((t) => t.name === 'scenes').probe);
  const session = model.caption(probe.pixels, 32, 32, 3);
  const steps = session.run();
  assert.equal(steps.length, e.probe.rows);
  const words = steps.map((s) => s.token);
  assert.deepEqual(words, e.probe.output);
  for (let i = 0; i < steps.length; i++)
    for (let j = 0; j < 64; j++)
      assert.equal(steps[i].weights[j], e.probe.weights[i * 64 + j], `step ${i} cell ${j}`);
  session.delete();
  model.delete();
});

test('a scenes run refuses the sizes its recipe fixes and a probe that is not a scene, naming the field', () => {
  for (const [extra, name] of [
    [{ embed: 16 }, 'embed'],
    [{ hidden: 8 }, 'hidden'],
    [{ encoder: 'transformer' }, 'encoder'],
    [{ probe: 'a purple hexagon' }, 'probe'],
  ]) {
    const err = errorOf(() => new T.TrainRun({ task: 'scenes', steps: 2, ...extra }));
    assert.equal(err.code, 'bad_argument', JSON.stringify(extra));
    assert.equal(err.details.name, name, JSON.stringify(extra));
  }
  assert.equal(T.trainTasks().length, 5);
});
