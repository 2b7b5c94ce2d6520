// Location-aware attention in the page's own lists: a decoder's score function (key 7 in Decode,
// absent from the sandbox, whose one query has no previous step), its formula written for a
// decoder with the previous step's weights, its model names and links, its strings in both languages.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  decoderScoreTex,
  sandboxScoreFunctions,
  scoreFunction,
  scoreFunctions,
} from '../../../../web/shared/lib/formulas.js';
import location from '../../../../web/shared/i18n/location.js';
import { parseModelName, SCORES } from '../../../../web/shared/text/tasks.js';
import { readDecodeUrl, readUrl } from '../../../../web/shared/link/url.js';

test('location is the seventh decoder score function and not one of the sandbox', () => {
  assert.equal(SCORES.indexOf('location') + 1, 7);
  assert.equal(scoreFunction('location').kind, 'location');
  assert.equal(scoreFunction('location').label, 'location');
  assert.ok(scoreFunctions.some((f) => f.kind === 'location'));
  assert.ok(!sandboxScoreFunctions.some((f) => f.kind === 'location'));
  // A sandbox link asking for it keeps the default kind.
  const sandbox = readUrl('#kind=location', { kind: 'dot', temperature: 1, query: '', tokens: [] });
  assert.equal(sandbox.kind, 'dot');
});

test('the location formula adds W_f f_j + b to additive and convolves the previous weights', () => {
  for (const [style, query] of [
    ['bahdanau', 's_{i-1}'],
    ['luong', 's_i'],
  ]) {
    const tex = decoderScoreTex('location', style);
    assert.ok(tex.startsWith(String.raw`e_j = \mathbf{v}^{\top}\tanh`), tex);
    assert.ok(
      tex.includes(String.raw`W_q\,\mathbf{${query}} + W_k\,\mathbf{h}_j + W_f\,\mathbf{f}_j + \mathbf{b}`),
      tex,
    );
    assert.ok(tex.includes(String.raw`\mathbf{f}_j = \left(F * \boldsymbol{\alpha}_{i-1}\right)_j`), tex);
  }
});

test('location model names parse and the URL keeps them', () => {
  assert.deepEqual(parseModelName('dates-location-bahdanau'), {
    task: 'dates',
    score: 'location',
    style: 'bahdanau',
  });
  assert.equal(parseModelName('dates-locations-bahdanau'), null);
  const notes = [];
  const decode = readDecodeUrl(
    '#task=dates&model=location-bahdanau',
    {
      task: 'zh',
      score: 'additive',
      style: 'bahdanau',
      encoder: 'gru',
      input: 'x',
      step: 0,
      forces: [],
      beamWidth: 3,
      view: 'decode',
    },
    notes,
  );
  assert.equal(decode.score, 'location');
  assert.equal(decode.style, 'bahdanau');
  assert.deepEqual(notes, []);
});

test('its strings exist in English and Chinese with the same keys', () => {
  assert.deepEqual(Object.keys(location.zh).sort(), Object.keys(location.en).sort());
  for (const text of Object.values(location.zh)) assert.match(text, /[\u4e00-\u9fff]/);
  assert.match(location.zh.note, /权重/);
});
