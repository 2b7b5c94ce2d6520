// The Listen view's state (web/features/listen/listen.svelte.js) over the audio module's wasm
// build in its Worker's place: the link's utterance synthesized and heard by each speech model as
// the module does, what to say changed, a word outside the lexicon refused with the engine's
// coded error, and the view's part of the link.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';

import { installBrowser, installWorkers, load, loadPageStates } from '../../support/page.mjs';
import { loadAudio, readModel } from '../../../js/load-audio.mjs';
import { runPython } from '../../../js/run-python.mjs';

await installBrowser();
after(await installWorkers());
const page = await loadPageStates();
const { linkHash, openLink } = page.link;
openLink('#view=listen&say=a+woodchuck+could+chuck+wood&lseed=7&lrate=1.5&lnoise=0.3&lsc=location&lcmp=0', {
  replace() {},
  current: () => '',
});
const listenState = await load('features/listen/listen.svelte.js');
const { listen, stepper, openListen, currentName, currentResult, say, setScore } = listenState;
const audio = await loadAudio();

async function answered() {
  while (listen.run !== 'ready' && listen.run !== 'error') await new Promise((r) => setTimeout(r, 5));
  await new Promise((r) => setTimeout(r, 0));
}

describe('what the engine hears', () => {
  test('the link’s utterance, synthesized and heard by its model as the audio module does', async () => {
    await openListen();
    await answered();
    assert.equal(currentName(), 'speech-location-bahdanau');
    assert.equal(listen.compare, false);
    const utterance = audio.synthesize({
      phrase: 'a woodchuck could chuck wood',
      seed: 7,
      rate: 1.5,
      noise: 0.3,
    });
    assert.deepEqual(Array.from(listen.utterance?.frames.data ?? []), Array.from(utterance.frames.data));
    const model = audio.AudioModel.load(readModel('speech-location-bahdanau.safetensors'));
    const session = model.listen(utterance.frames, { topK: 5 });
    session.run();
    assert.equal(currentResult()?.outputText, session.outputText());
    session.delete();
    model.delete();
    assert.equal(stepper.speed, 350, 'play writes a letter each 350 ms');
    assert.equal(
      linkHash(),
      '#view=listen&lang=en&lsc=location&lcmp=0&say=a+woodchuck+could+chuck+wood&lseed=7&lrate=1.5&lnoise=0.3',
    );

    // the letter shown (the third) as the module's NumPy script, which agrees with the module's numbers
    stepper.goTo(2);
    const script = await listenState.stepPython();
    assert.match(script, /^# Model speech-location-bahdanau, input "a woodchuck could chuck wood"\.$/m);
    assert.match(script, /^# Step i = 3 of the output .*score function location\.$/m);
    const run = runPython(script);
    assert.equal(run.status, 0, run.output);
    stepper.goTo(0);
  });

  test('a word outside the lexicon is the engine’s coded error; saying it right hears again', async () => {
    say({ phrase: 'a woodchuck could chuck wombats' });
    await answered();
    assert.equal(listen.run, 'error');
    assert.equal(listen.failure?.code, 'unknown_token');
    say({ phrase: 'how much wood' });
    await answered();
    assert.equal(listen.run, 'ready');
    assert.equal(listen.utterance?.text, 'how much wood');
  });

  test('another shipped model is heard when chosen; the default phrase and numbers leave the link', async () => {
    setScore('additive');
    await answered();
    assert.equal(currentName(), 'speech-additive-bahdanau');
    say({ phrase: 'how much wood would a woodchuck chuck', seed: 1, rate: 1, noise: 0.1 });
    await answered();
    assert.equal(linkHash(), '#view=listen&lang=en&lcmp=0');
  });
});
