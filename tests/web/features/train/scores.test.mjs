// The Train view's score list from the trainer's task info: a score function the info does not
// list is not offered, one whose styles leave out the chosen style is offered disabled and never
// trains, and before the trainer answers the default race is shown.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { offeredScores, trainableChosen } from '../../../../web/features/train/scores.js';

const both = ['bahdanau', 'luong'];

test('what the task info lists is offered; what it leaves out is not', () => {
  const info = [
    { name: 'dot', styles: both },
    { name: 'additive', styles: both },
  ];
  const offered = offeredScores(info, 'bahdanau', ['dot']);
  assert.deepEqual(
    offered.map((s) => s.name),
    ['dot', 'additive'],
  );
  assert.deepEqual(
    trainableChosen(offered, ['location', 'additive']),
    ['additive'],
    'location is not listed',
  );
});

test('a score function whose styles leave out the chosen one is disabled and does not train', () => {
  const info = [
    { name: 'additive', styles: both },
    { name: 'location', styles: ['bahdanau'] },
  ];
  const luong = offeredScores(info, 'luong', []);
  assert.deepEqual(luong, [
    { name: 'additive', styles: both, ok: true },
    { name: 'location', styles: ['bahdanau'], ok: false },
  ]);
  assert.deepEqual(trainableChosen(luong, ['additive', 'location']), ['additive']);
  const bahdanau = offeredScores(info, 'bahdanau', []);
  assert.deepEqual(
    trainableChosen(bahdanau, ['location', 'additive']),
    ['location', 'additive'],
    'in the order chosen',
  );
});

test('before the trainer answers: the fallback list, every style allowed', () => {
  assert.deepEqual(offeredScores(null, 'luong', ['dot', 'general']), [
    { name: 'dot', styles: both, ok: true },
    { name: 'general', styles: both, ok: true },
  ]);
});
