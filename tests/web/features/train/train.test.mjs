// The Train view's configuration (web/features/train/train.svelte.js) in the link, and what a run
// will use: a link round-trips, only changed fields are written, a malformed field keeps the
// default with a note saying so, and the sizes and score functions not set come from the
// trainer's own recipes (the trainer module's wasm build).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { installBrowser, load, loadPageStates } from '../../support/page.mjs';
import { loadTrainer } from '../../../js/trainer-fixture.mjs';

await installBrowser();
const page = await loadPageStates();
const { readLink, linkHash } = page.link;
const train = await load('features/train/train.svelte.js');
const { config, trainer, valueOf, stepsOf, scoreOptions, chosenScores, recipe } = train;
const { trainDefaults, TRAIN_TASKS, configParser } = await load('features/train/train-link.js');
const { trainerInfo } = await load('features/train/info.js');
const { TASK_IDS } = await load('shared/text/tasks.js');

const hashOf = (fields) => `#${new URLSearchParams({ view: 'train', ...fields })}`;
const fieldsOf = () =>
  Object.fromEntries([...new URLSearchParams(linkHash().slice(1))].filter(([k]) => k.startsWith('tr-')));

describe('the configuration in the link', () => {
  test('the defaults write no field, and a changed configuration reads back as written', () => {
    readLink(hashOf({}));
    assert.deepEqual(fieldsOf(), {});
    Object.assign(config, {
      task: 'zh',
      scores: ['additive', 'dot'],
      style: 'luong',
      learningRate: 0.01,
      steps: 300,
      seed: 7,
      evalEvery: 10,
    });
    const fields = fieldsOf();
    assert.deepEqual(fields, {
      'tr-task': 'zh',
      'tr-style': 'luong',
      'tr-lr': '0.01',
      'tr-steps': '300',
      'tr-seed': '7',
      'tr-eval': '10',
      'tr-scores': 'additive,dot',
    });
    const written = $snapshot();
    readLink(hashOf({}));
    assert.deepEqual(readLink(hashOf(fields)), []);
    assert.deepEqual($snapshot(), written);
  });

  test('a huge learning rate survives the link (the engine, not the link, refuses or diverges)', () => {
    readLink(hashOf({ 'tr-lr': '1e30' }));
    assert.equal(config.learningRate, 1e30);
  });

  test('malformed fields keep the defaults, each with a note', () => {
    readLink(hashOf({}));
    const notes = readLink(
      hashOf({
        'tr-task': 'chess',
        'tr-steps': '2.5',
        'tr-lr': 'fast',
        'tr-scores': 'dot,bogus,dot',
        'tr-seed': '-1',
      }),
    );
    assert.equal(config.task, 'dates');
    assert.equal(config.steps, 0);
    assert.equal(config.learningRate, 0);
    assert.equal(config.seed, 1);
    assert.deepEqual(config.scores, ['dot'], 'known score functions kept once');
    assert.equal(notes.length, 5);
    assert.match(
      String(notes[0]),
      /tr-task=chess is not one of dates, zh, reverse, scenes, speech; using dates/,
    );
    assert.ok(notes.some((n) => /bogus/.test(String(n))));
  });

  test('a value refused keeps what is shown and says so: the recipe’s value, not “0”', () => {
    const notes = readLink(hashOf({ 'tr-steps': '1e12' }));
    assert.equal(config.steps, 0);
    assert.deepEqual(notes.map(String), [
      "The link's tr-steps=1e12 is not a usable number; using the recipe's value.",
    ]);
  });

  test('the form’s fields take the link’s parser with the engine’s limits', () => {
    const rate = configParser('learningRate', { min: 1e-6, max: 1e30, name: 'Learning rate' });
    assert.deepEqual(rate('0.01', 0), { value: 0.01 });
    for (const bad of ['1e31', '-1', 'fast']) {
      const { value, note } = rate(bad, 0);
      assert.equal(value, 0, bad);
      assert.equal(
        String(note),
        `Learning rate ${bad} is not a number from 0.000001 to 1e+30; keeping the recipe's value.`,
      );
    }
    const seed = configParser('seed', { min: 0, max: 100, name: 'Seed' });
    assert.equal(String(seed('2.5', 7).note), 'Seed 2.5 is not a number from 0 to 100; keeping 7.');
  });

  test('a link naming only unknown score functions keeps the default race', () => {
    readLink(hashOf({}));
    readLink(hashOf({ 'tr-scores': 'foo' }));
    assert.deepEqual(config.scores, trainDefaults.scores);
  });

  test('the trainer’s tasks are the text views’ tasks, then scenes and speech', () => {
    assert.deepEqual(TRAIN_TASKS.slice(0, -2).sort(), [...TASK_IDS].sort());
    assert.deepEqual(TRAIN_TASKS.slice(-2), ['scenes', 'speech']);
  });
});

describe('what a run will use', () => {
  test('before the trainer answers: nothing but what is set, and the default race', () => {
    readLink(hashOf({ 'tr-steps': '40' }));
    assert.equal(recipe(), null);
    assert.equal(valueOf('hidden'), null);
    assert.equal(stepsOf(), 40);
    assert.deepEqual(chosenScores(), [...trainDefaults.scores]);
  });

  test('once it has: the recipe’s sizes and steps where none is set, its score functions and styles', async () => {
    Object.assign(trainer, trainerInfo(await loadTrainer()), { status: 'ready' });
    readLink(hashOf({ 'tr-task': 'dates' }));
    const dates = recipe();
    assert.equal(dates?.name, 'dates');
    assert.equal(valueOf('steps'), dates?.defaultSteps);
    assert.equal(valueOf('hidden'), dates?.hidden);
    config.hidden = 32;
    assert.equal(valueOf('hidden'), 32);
    // the score functions offered are the recipe's; Train starts the chosen ones in the link's order
    readLink(hashOf({ 'tr-task': 'dates', 'tr-scores': 'location,dot', 'tr-style': 'luong' }));
    // and the Transformer decoder, one more entry of the race, whatever the style
    assert.deepEqual(
      scoreOptions().map((s) => s.name),
      [...(recipe()?.scores.map((s) => s.name) ?? []), 'transformer'],
    );
    assert.deepEqual(chosenScores(), ['location', 'dot']);
    readLink(hashOf({ 'tr-task': 'zh', 'tr-scores': 'transformer,additive', 'tr-style': 'bahdanau' }));
    assert.deepEqual(chosenScores(), ['transformer', 'additive']);
    assert.equal(scoreOptions().find((s) => s.name === 'transformer')?.ok, true);
    // the picture task has no Transformer decoder: the entry is not offered, nor trained
    readLink(hashOf({ 'tr-task': 'scenes', 'tr-scores': 'transformer,additive' }));
    assert.equal(
      scoreOptions().some((s) => s.name === 'transformer'),
      false,
    );
    assert.deepEqual(chosenScores(), ['additive']);
    // own pairs: the trainer's recipe for them under the Transformer decoder
    readLink(hashOf({ 'tr-data': 'pairs', 'tr-scores': 'transformer' }));
    assert.deepEqual(chosenScores(), ['transformer']);
  });
});

function $snapshot() {
  return JSON.parse(JSON.stringify(config));
}
