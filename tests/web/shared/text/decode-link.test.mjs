// The text views' part of the link (web/shared/text/decode-link.js), read into the page's own
// states; model names; the decode's CSV export.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { installBrowser, loadPageStates } from '../../support/page.mjs';

await installBrowser();
const page = await loadPageStates();
const { readLink } = page.link;
const { choice, choiceDefaults } = page.choice;
const { stepper } = page.decode;
const { traceCsv } = await import('../../../../web/shared/lib/export.js');
const { modelName, parseModelName } = await import('../../../../web/shared/text/tasks.js');

/** The text views' state a link opens: the view, the choice and the step. */
function opened(hash) {
  readLink(hash);
  const { task, score, style, encoder, decoder, input, forces, beamWidth } = choice;
  return {
    view: page.view.page.view,
    task,
    score,
    style,
    encoder,
    decoder,
    input,
    step: stepper.step,
    forces,
    beamWidth,
  };
}
const defaults = { view: 'decode', ...choiceDefaults, step: 0 };

describe('the text views’ link', () => {
  test('restores view, task, model, input, step, forced tokens and beam width', () => {
    const hash =
      '#view=compare&task=dates&model=cosine-luong&input=29+november+2026&step=4&force=2%3A17,5%3A4&k=5';
    assert.deepEqual(opened(hash), {
      view: 'compare',
      task: 'dates',
      score: 'cosine',
      style: 'luong',
      encoder: 'gru',
      decoder: 'gru',
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
    const read = opened('#task=dates&model=additive-bahdanau-transformer');
    assert.deepEqual([read.score, read.style, read.encoder], ['additive', 'bahdanau', 'transformer']);
    assert.equal(opened('#model=dot-luong').encoder, 'gru');
  });
  test('model=transformer chooses the encoder–decoder Transformer, its own scaled dot-product heads', () => {
    const read = opened('#task=reverse&model=transformer');
    assert.deepEqual(
      [read.score, read.style, read.encoder, read.decoder],
      ['scaled_dot', 'luong', 'transformer', 'transformer'],
    );
    assert.equal(page.choice.currentModelName(), 'reverse-transformer');
    assert.equal(opened('#model=additive-bahdanau-transformer').decoder, 'gru');
  });
  test('keeps the defaults for absent or malformed fields', () => {
    assert.deepEqual(opened(''), defaults);
    assert.deepEqual(opened('#view=nope&task=fr&model=dot&step=-1&force=a:b,3&k=99'), defaults);
    assert.deepEqual(opened('#step=2.5&model=additive-transformer'), defaults);
  });
  test('a task without an input gets that task’s first example, not the default task’s input', () => {
    assert.equal(opened('#view=decode&task=dates').input, '29 november 2026');
    assert.equal(opened('#task=reverse').input, 'abcdefj');
    assert.equal(opened('#task=zh').input, 'tom chase jerry');
    // an input in the link is kept as written, even one the task's model will reject (it says why)
    assert.equal(opened('#task=dates&input=tom+chase+jerry').input, 'tom chase jerry');
  });
  test('a model that is not shipped shows the nearest shipped one, and says so', () => {
    const notes = readLink('#view=decode&task=reverse&model=additive-luong');
    assert.deepEqual([choice.score, choice.style], ['additive', 'bahdanau']);
    assert.deepEqual(notes.map(String), [
      'There is no model reverse-additive-luong (dashed options are not shipped); showing reverse-additive-bahdanau instead.',
    ]);
  });
  test('a long input is read whole: the decode cuts it at the engine’s limit, the box’s too', () => {
    // it was cut at 300 characters while the box took 2000; the cut and its note are the
    // decode's, once the engine has said its limit (tests/e2e/decode.test.mjs)
    const notes = readLink(`#input=${'a'.repeat(2001)}`);
    assert.equal(choice.input.length, 2001);
    assert.deepEqual(notes.map(String), []);
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
