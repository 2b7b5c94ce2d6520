// The page's small pure helpers: reading vectors typed by a person, writing numbers, the input's hint
// and the views' CSV exports.
// the page's modules that draw in the theme of the moment read a Svelte state (theme.svelte.js):
// imported after Svelte's hooks
import '../../support/svelte.mjs';

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { FLOAT32_MAX, formatFloat32, formatNumber } from '../../../../web/shared/lib/format.js';
import { formatVector, parseVector } from '../../../../web/shared/lib/vectors.js';
const { inputHint } = await import('../../../../web/shared/text/tasks.js');
const { beamCsv, compareCsv, fileStem, selfAttentionCsv } =
  await import('../../../../web/shared/lib/export.js');

describe('parseVector', () => {
  test('reads numbers separated by commas, spaces or semicolons, with a typographic minus', () => {
    assert.deepEqual(parseVector('0.6, 0.2 0.5;0.1'), [0.6, 0.2, 0.5, 0.1]);
    assert.deepEqual(parseVector(' −1.5, +2, .5, 3., 1e-3 '), [-1.5, 2, 0.5, 3, 0.001]);
    assert.deepEqual(parseVector(''), []);
  });
  test('turns a piece that is not a number into NaN, so the engine names its position', () => {
    assert.deepEqual(parseVector('1, zero, 0x10, 2'), [1, NaN, NaN, 2]);
  });
  test('formatVector writes back what parseVector reads', () => {
    assert.deepEqual(parseVector(formatVector([0.6, -0.2, 1e-7])), [0.6, -0.2, 1e-7]);
  });
});

describe('formatNumber', () => {
  test('writes 3 decimals with a true minus sign and no negative zero', () => {
    assert.equal(formatNumber(0.600333034992218), '0.600');
    assert.equal(formatNumber(-0.17068), '−0.171');
    assert.equal(formatNumber(-0.0001), '0.000');
    assert.equal(formatNumber(null), '–');
  });
});

describe('numbers the engine holds as float32', () => {
  test('formatFloat32 writes the fewest digits that read back as the same float32', () => {
    assert.equal(formatFloat32(Math.fround(0.1)), '0.1');
    assert.equal(formatFloat32(0.10000000149011612), '0.1');
    assert.equal(formatFloat32(Math.fround(0.15)), '0.15');
    assert.equal(formatFloat32(2), '2');
    assert.equal(formatFloat32(Math.fround(1 / 3)), '0.33333334');
    assert.equal(formatFloat32(-Math.fround(0.7)), '−0.7');
  });
  test('formatNumber writes large magnitudes with a power of ten, infinities as ∞', () => {
    assert.equal(formatNumber(1e308), '1.000e308');
    assert.equal(formatNumber(-FLOAT32_MAX), '−3.403e38');
    assert.equal(formatNumber(999999.4), '999999.400');
    assert.equal(formatNumber(Infinity), '∞');
    assert.equal(formatNumber(-Infinity), '−∞');
  });
});

describe('fileStem', () => {
  test('cuts a long input at the end of a word, never inside one', () => {
    const name = 'zh-additive-bahdanau';
    assert.equal(
      fileStem(name, 'tom chased jerry in the kitchen yesterday'),
      'zh-additive-bahdanau-tom_chased_jerry_in_the_kitchen',
    );
    assert.equal(fileStem(name, 'tom chase jerry'), 'zh-additive-bahdanau-tom_chase_jerry');
    assert.equal(fileStem('d', '29 november 2026!'), 'd-29_november_2026');
    assert.equal(fileStem('r', 'a'.repeat(50)), `r-${'a'.repeat(40)}`, 'one word longer than the limit');
    assert.equal(fileStem('r', '???'), 'r');
  });
});

describe('inputHint', () => {
  const info = (min, max, vocab) =>
    /** @type {any} */ ({ limits: { minSourceTokens: min, maxSourceTokens: max }, srcVocab: vocab });
  const letters = ['<pad>', '<s>', '</s>', '<unk>', ...'abcdefghij'];
  test('states the model’s own limits and letters, never a hand-kept range', () => {
    assert.equal(inputHint('reverse', info(1, 19, letters)), '1–19 letters from a to j, no spaces');
    assert.equal(inputHint('reverse', info(2, 7, letters.slice(0, 7))), '2–7 letters from a to c, no spaces');
    assert.equal(inputHint('dates', info(1, 33, [])), 'a date, 1–33 characters');
    assert.equal(inputHint('zh', info(1, 18, [])), 'a sentence (lower-case words), 1–18 words');
  });
  test('names no number before the model is loaded', () => {
    assert.doesNotMatch(inputHint('reverse', null), /\d/);
  });
});

describe('the views’ CSV exports', () => {
  const f32 = (...x) => Float32Array.from(x);
  test('compareCsv writes one row per model, step and source token', () => {
    const steps = /** @type {any} */ ([
      { index: 0, token: 'x', logProb: -0.5, scores: f32(1, 2), weights: f32(0.25, 0.75) },
    ]);
    const text = compareCsv([{ name: 'm', heldout: 0.5, sourceTokens: ['a', 'b,c'], steps }]);
    assert.equal(
      text,
      'model,heldout_exact_match,step,token,log_prob,source_index,source_token,score,weight\n' +
        'm,0.5,0,x,-0.5,0,a,1,0.25\nm,0.5,0,x,-0.5,1,"b,c",2,0.75\n',
    );
  });
  test('beamCsv marks the node that ends each final beam with its rank and score', () => {
    const node = (id, parent, token, finished) =>
      /** @type {any} */ ({
        id,
        parent,
        depth: id,
        token,
        logProb: -1,
        totalLogProb: -id,
        finished,
        weights: f32(1),
      });
    const text = beamCsv(
      ['a'],
      /** @type {any} */ ({
        nodes: [node(0, -1, 'x', false), node(1, 0, '</s>', true)],
        beams: [[0, 1]],
        scores: [-0.5],
      }),
    );
    assert.deepEqual(text.trimEnd().split('\n').slice(1), [
      '0,-1,0,x,-1,0,false,,,0,a,1',
      '1,0,1,</s>,-1,-1,true,1,-0.5,0,a,1',
    ]);
  });
  test('selfAttentionCsv leaves a masked score (−∞) empty', () => {
    const t = (...x) => ({ data: f32(...x), shape: [1, 2, 2] });
    const layer = /** @type {any} */ ({
      index: 0,
      heads: 1,
      rawScores: t(1, 2, 3, 4),
      scores: t(0.5, -Infinity, 1.5, 2),
      weights: t(1, 0, 0.25, 0.75),
    });
    const rows = selfAttentionCsv(['a', 'b'], [layer]).trimEnd().split('\n');
    assert.equal(rows.length, 5);
    assert.equal(rows[2], '0,0,0,a,1,b,2,,0');
    assert.equal(rows[4], '0,0,1,b,1,b,4,2,0.75');
  });
});
