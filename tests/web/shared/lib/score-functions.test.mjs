// The sixth score function, scaled cosine, in the page's own lists: its formula is the sixth entry
// of the score-function picker (key 6), its models' names parse, and the URL keeps it.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  decoderScoreTex,
  sandboxScoreFunctions,
  scoreFunction,
} from '../../../../web/shared/lib/formulas.js';
import { parseModelName, SCORES } from '../../../../web/shared/text/tasks.js';
import { readDecodeUrl, readUrl } from '../../../../web/shared/link/url.js';

test('the picker offers the engine’s six score functions in its order, scaled cosine as key 6', () => {
  const kinds = ['dot', 'scaled_dot', 'general', 'additive', 'cosine', 'scaled_cosine'];
  assert.deepEqual(
    sandboxScoreFunctions.map((f) => f.kind),
    kinds,
  );
  assert.deepEqual(SCORES, [...kinds, 'location']); // location: decoders only (tests/web/location.test.mjs)
  assert.equal(sandboxScoreFunctions.indexOf(scoreFunction('scaled_cosine')) + 1, 6);
  assert.equal(scoreFunction('scaled_cosine').label, 'scaled cosine');
});

test('the scaled cosine formula is g times the cosine, written for a decoder like the others', () => {
  const tex = decoderScoreTex('scaled_cosine', 'luong');
  assert.match(tex, /^e_j = g\\,\\frac/);
  assert.ok(tex.includes(String.raw`\mathbf{s_i}^{\top}\mathbf{h}_j`), tex);
  assert.ok(tex.includes(String.raw`\lVert\mathbf{h}_j\rVert`), tex);
});

test('scaled cosine model names parse and the URL keeps them and the sandbox kind', () => {
  assert.deepEqual(parseModelName('zh-scaled_cosine-bahdanau'), {
    task: 'zh',
    score: 'scaled_cosine',
    style: 'bahdanau',
  });
  const notes = [];
  const decode = readDecodeUrl(
    '#task=dates&model=scaled_cosine-bahdanau',
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
  assert.equal(decode.score, 'scaled_cosine');
  assert.deepEqual(notes, []);
  const sandbox = readUrl('#kind=scaled_cosine', { kind: 'dot', temperature: 1, query: '', tokens: [] });
  assert.equal(sandbox.kind, 'scaled_cosine');
});
