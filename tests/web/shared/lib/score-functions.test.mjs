// The page's one table of score functions (web/shared/lib/score-functions.js): the engine's own
// list in the keys' order (the engine's attend() takes all but location, a decoder's), their
// formulas written for a decoder, their models' names, and the links that name them.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { installBrowser, loadPageStates } from '../../support/page.mjs';
import { loadEngine } from '../../../js/load-engine.mjs';

await installBrowser();
const page = await loadPageStates();
const { readLink } = page.link;
const { choice } = page.choice;
const { sandbox } = page.sandbox;
const { attendable, decoderScoreTex, scoreFunction, SCORES } =
  await import('../../../../web/shared/lib/score-functions.js');
const { parseModelName } = await import('../../../../web/shared/text/tasks.js');
const location = (await import('../../../../web/shared/i18n/location.js')).default;

test('the table is the engine’s list in its order, location last: key 7, a decoder’s only', async () => {
  const engine = await loadEngine();
  assert.deepEqual(attendable, engine.scoreKinds());
  assert.deepEqual(SCORES, [...engine.scoreKinds(), 'location']);
  assert.equal(SCORES.indexOf('scaled_cosine') + 1, 6);
  assert.equal(scoreFunction('scaled_cosine').label, 'scaled cosine');
  assert.equal(scoreFunction('location').label, 'location');
  // each its own colour in the training charts, in either theme (colors.test.mjs: apart for every eye)
  for (const theme of [0, 1])
    assert.equal(new Set(SCORES.map((s) => scoreFunction(s).colors[theme])).size, SCORES.length);
});

test('a sandbox link may name what attend() takes; location keeps the example’s kind', () => {
  readLink('#view=sandbox&kind=scaled_cosine');
  assert.equal(sandbox.kind, 'scaled_cosine');
  readLink('#view=sandbox');
  readLink('#view=sandbox&kind=location');
  assert.equal(sandbox.kind, 'dot');
});

test('scaled cosine is g times the cosine, written for a decoder like the others', () => {
  const tex = decoderScoreTex('scaled_cosine', 'luong');
  assert.match(tex, /^e_j = g\\,\\frac/);
  assert.ok(tex.includes(String.raw`\mathbf{s_i}^{\top}\mathbf{h}_j`), tex);
  assert.ok(tex.includes(String.raw`\lVert\mathbf{h}_j\rVert`), tex);
  // with the model's learned g in place of g
  assert.match(decoderScoreTex('scaled_cosine', 'bahdanau', 4.5), /\\underset\{g\}\{4\.500\}/);
});

test('location adds W_f f_j + b to additive and convolves the previous weights; narrow, in two lines', () => {
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
  assert.match(decoderScoreTex('location', 'bahdanau', null, { narrow: true }), /^\\begin\{gathered\}/);
  assert.equal(
    decoderScoreTex('dot', 'bahdanau', null, { narrow: true }),
    decoderScoreTex('dot', 'bahdanau'),
  );
});

test('their models’ names parse, and a link keeps them', () => {
  assert.deepEqual(parseModelName('zh-scaled_cosine-bahdanau'), {
    task: 'zh',
    score: 'scaled_cosine',
    style: 'bahdanau',
  });
  assert.deepEqual(parseModelName('dates-location-bahdanau'), {
    task: 'dates',
    score: 'location',
    style: 'bahdanau',
  });
  assert.equal(parseModelName('dates-locations-bahdanau'), null);
  assert.equal(parseModelName('dates-scaled-dot-luong'), null);
  for (const score of ['scaled_cosine', 'location']) {
    assert.deepEqual(readLink(`#task=dates&model=${score}-bahdanau`).map(String), []);
    assert.equal(choice.score, score);
    assert.equal(choice.style, 'bahdanau');
  }
});

test('location’s strings exist in English and Chinese with the same keys', () => {
  assert.deepEqual(Object.keys(location.zh).sort(), Object.keys(location.en).sort());
  for (const text of Object.values(location.zh)) assert.match(text, /[\u4e00-\u9fff]/);
  assert.match(location.zh.note, /权重/);
});
