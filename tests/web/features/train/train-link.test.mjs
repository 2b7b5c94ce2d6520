// The Train view's configuration in the URL: a link round-trips, only changed fields are written,
// and a malformed field falls back to the default with a note saying so.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { readTrainUrl, trainDefaults, trainUrlFields } from '../../../../web/features/train/train-link.js';

const hashOf = (fields) => `#${new URLSearchParams(fields)}`;

test('the defaults write no field, and a changed configuration reads back as written', () => {
  assert.deepEqual(trainUrlFields(trainDefaults), []);
  const config = {
    ...trainDefaults,
    task: 'zh',
    scores: ['additive', 'dot'],
    style: 'luong',
    learningRate: 0.01,
    steps: 300,
    seed: 7,
    evalEvery: 10,
  };
  const fields = trainUrlFields(config);
  assert.deepEqual(Object.fromEntries(fields), {
    'tr-task': 'zh',
    'tr-style': 'luong',
    'tr-lr': '0.01',
    'tr-steps': '300',
    'tr-seed': '7',
    'tr-eval': '10',
    'tr-scores': 'additive,dot',
  });
  const notes = [];
  assert.deepEqual(readTrainUrl(hashOf(fields), trainDefaults, notes), config);
  assert.deepEqual(notes, []);
});

test('a huge learning rate survives the link (the engine, not the link, refuses or diverges)', () => {
  assert.equal(readTrainUrl(hashOf({ 'tr-lr': '1e30' })).learningRate, 1e30);
});

test('malformed fields fall back to the defaults, each with a note', () => {
  const notes = [];
  const out = readTrainUrl(
    hashOf({
      'tr-task': 'chess',
      'tr-steps': '2.5',
      'tr-lr': 'fast',
      'tr-scores': 'dot,bogus,dot',
      'tr-seed': '-1',
    }),
    trainDefaults,
    notes,
  );
  assert.equal(out.task, 'dates');
  assert.equal(out.steps, 0);
  assert.equal(out.learningRate, 0);
  assert.equal(out.seed, 1);
  assert.deepEqual(out.scores, ['dot'], 'known score functions kept once');
  assert.equal(notes.length, 5);
  assert.match(
    String(notes[0]),
    /tr-task=chess is not one of dates, zh, reverse, scenes, speech; using dates/,
  );
  assert.ok(notes.some((n) => /bogus/.test(String(n))));
});

test('a link naming only unknown score functions keeps the default race', () => {
  const out = readTrainUrl(hashOf({ 'tr-scores': 'foo' }));
  assert.deepEqual(out.scores, trainDefaults.scores);
});
