// The models trained in the page or loaded from a file (web/shared/models/): a link naming one
// this browser does not keep says so once the kept list is read; a model chosen or held in memory
// becomes the one the text views decode, with its own score function and style; one handed to
// Caption or Listen waits for that view; where the browser keeps nothing (no IndexedDB, as here
// under node) keeping a model says why it did not; and a model's bytes kept before are that entry.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { installBrowser, load, loadPageStates } from '../../support/page.mjs';
import { keptModel } from '../../support/kept-model.mjs';

await installBrowser();
const page = await loadPageStates();
const { readLink, linkHash } = page.link;
const { linkNotes } = page.notes;
const { choice } = page.choice;
const { stepper } = page.decode;
const { saved, readSaved, chooseTrained, holdModel, keepModel, newModelId, contentDigest } = page.trained;
const { modelSources } = await load('shared/engine/engine.svelte.js');
const { handOver, handedOver, takeHandedOver } = await load('shared/models/handover.svelte.js');

test('a link’s trained model that this browser does not keep: a note once the list is read', async () => {
  readLink('#view=decode&trained=trained-zh-dot-bahdanau-gone');
  assert.equal(choice.trained, '');
  await readSaved();
  assert.equal(saved.status, 'ready');
  assert.deepEqual(saved.list, []);
  assert.deepEqual(linkNotes.list.map(String), [
    'The link names the trained model trained-zh-dot-bahdanau-gone, which this browser does not keep; showing a shipped model.',
  ]);
});

test('a model chosen is the one decoded, with its score function and style, and the link names it', () => {
  const bytes = new Uint8Array([1, 2, 3]);
  const id = newModelId('zh-cosine-luong-step40');
  assert.match(id, /^zh-cosine-luong-step40-\w+$/);
  holdModel(id, bytes);
  assert.equal(modelSources.get(id)?.(), bytes);
  stepper.step = 3;
  chooseTrained(
    { id, task: 'zh', score: 'cosine', style: 'luong' },
    { input: 'the cat ate its fish', view: 'compare' },
  );
  assert.deepEqual(
    [
      choice.trained,
      choice.score,
      choice.style,
      choice.encoder,
      choice.input,
      stepper.step,
      page.view.page.view,
    ],
    [id, 'cosine', 'luong', 'gru', 'the cat ate its fish', 0, 'compare'],
  );
  assert.match(linkHash(), new RegExp(`&trained=${id}(&|$)`));
  // an own-pairs model has no task of the text views: the task shown stays
  chooseTrained({ id, task: 'pairs', score: 'dot', style: 'bahdanau' });
  assert.equal(choice.task, 'zh');
});

test('keeping a model where the browser keeps nothing says why; the list is unchanged', async () => {
  const kept = await keepModel(
    /** @type {any} */ ({ id: 'x', label: 'x', task: 'zh', score: 'dot', style: 'bahdanau', bytes: 3 }),
    new Uint8Array(3),
  );
  assert.equal(kept, null);
  assert.match(String(saved.error), /^The model was not kept in this browser: /);
  assert.deepEqual(saved.list, []);
});

test('a model is known by its bytes: keeping the same bytes again is the entry kept before, not a second', async () => {
  const bytes = new TextEncoder().encode('abc');
  // SHA-256("abc"), FIPS 180-2's first example
  const digest = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
  assert.equal(await contentDigest(bytes), digest);
  const before = keptModel('kept-before', { digest });
  saved.list = [before];
  const kept = await keepModel(keptModel('loaded-again', { origin: 'file' }), bytes.slice());
  assert.deepEqual(kept, before);
  assert.deepEqual(
    saved.list.map((m) => m.id),
    ['kept-before'],
  );
  saved.list = [];
});

test('a scenes or speech model handed to its view waits there until taken, once', () => {
  const model = { name: 'trained-scenes-1', score: 'dot', bytes: new Uint8Array(1) };
  handOver('scenes', model);
  assert.deepEqual(handedOver.scenes, model);
  assert.deepEqual(takeHandedOver('scenes'), model);
  assert.equal(takeHandedOver('scenes'), null);
  assert.equal(takeHandedOver('speech'), null);
});
