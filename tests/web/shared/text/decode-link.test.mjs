// The decoding pages' small pure helpers: the URL's decoding fields, model names and the CSV export.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { traceCsv } from '../../../../web/shared/lib/export.js';
import { modelName, parseModelName } from '../../../../web/shared/text/tasks.js';
import { readDecodeUrl } from '../../../../web/shared/link/url.js';

const defaults = {
  view: 'decode',
  task: 'zh',
  score: 'additive',
  style: 'bahdanau',
  encoder: 'gru',
  input: 'tom chase jerry',
  step: 0,
  forces: [],
  beamWidth: 3,
};

describe('readDecodeUrl', () => {
  test('restores view, task, model, input, step, forced tokens and beam width', () => {
    const hash =
      '#view=compare&task=dates&model=cosine-luong&input=29+november+2026&step=4&force=2%3A17,5%3A4&k=5';
    assert.deepEqual(readDecodeUrl(hash, defaults), {
      view: 'compare',
      task: 'dates',
      score: 'cosine',
      style: 'luong',
      encoder: 'gru',
      input: '29 november 2026',
      step: 4,
      forces: [
        [2, 17],
        [5, 4],
      ],
      beamWidth: 5,
    });
  });
  test('a model name ending in -transformer chooses the Transformer encoder', () => {
    const read = readDecodeUrl('#task=dates&model=additive-bahdanau-transformer', defaults);
    assert.deepEqual([read.score, read.style, read.encoder], ['additive', 'bahdanau', 'transformer']);
    assert.equal(readDecodeUrl('#model=dot-luong', { ...defaults, encoder: 'transformer' }).encoder, 'gru');
  });
  test('keeps the defaults for absent or malformed fields', () => {
    assert.deepEqual(readDecodeUrl('', defaults), defaults);
    assert.deepEqual(
      readDecodeUrl('#view=nope&task=fr&model=dot&step=-1&force=a:b,3&k=99', defaults),
      defaults,
    );
    assert.deepEqual(readDecodeUrl('#step=2.5&model=additive-transformer', defaults), defaults);
  });
  test('a task without an input gets that task’s first example, not the default task’s input', () => {
    assert.equal(readDecodeUrl('#view=decode&task=dates', defaults).input, '29 november 2026');
    assert.equal(readDecodeUrl('#task=reverse', defaults).input, 'abcdefj');
    assert.equal(readDecodeUrl('#task=zh', defaults).input, 'tom chase jerry');
    // an input in the URL is kept as written, even one the task's model will reject (it says why)
    assert.equal(readDecodeUrl('#task=dates&input=tom+chase+jerry', defaults).input, 'tom chase jerry');
  });
});

describe('model names', () => {
  test('name and parse are inverse; anything else is not a model', () => {
    assert.equal(modelName('dates', 'scaled_dot', 'luong'), 'dates-scaled_dot-luong');
    assert.deepEqual(parseModelName('dates-scaled_dot-luong'), {
      task: 'dates',
      score: 'scaled_dot',
      style: 'luong',
    });
    assert.equal(parseModelName('dates-scaled-dot-luong'), null);
  });
});

describe('traceCsv', () => {
  test('one row per step and source token, the numbers in full, text fields quoted when needed', () => {
    const steps = [
      { index: 0, token: '2', choice: 'greedy', logProb: -0.5, scores: [1.5, -2], weights: [0.75, 0.25] },
      { index: 1, token: ',', choice: 'forced', logProb: -3, scores: [0, 1], weights: [0.125, 0.875] },
    ];
    assert.equal(
      traceCsv(['a', '"'], steps),
      [
        'step,token,choice,log_prob,source_index,source_token,score,weight',
        '0,2,greedy,-0.5,0,a,1.5,0.75',
        '0,2,greedy,-0.5,1,"""",-2,0.25',
        '1,",",forced,-3,0,a,0,0.125',
        '1,",",forced,-3,1,"""",1,0.875',
        '',
      ].join('\n'),
    );
  });
});
