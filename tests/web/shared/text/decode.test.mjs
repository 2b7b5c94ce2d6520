// The text views' states (web/shared/text/) with the engine's wasm build, as the page uses them:
// the choice of task and model, the decode and its stepper, forced tokens and what-ifs (the link's
// included, with what the engine refuses), and a length bucket's examples opened in Decode.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { installBrowser, load, loadPageStates, startEngine } from '../../support/page.mjs';

await installBrowser();
const page = await loadPageStates();
const { api } = await startEngine();
const { readLink, linkHash } = page.link;
const { linkNotes } = page.notes;
const {
  choice,
  setModel,
  setEncoder,
  currentModelName,
  inputProblem,
  chooseModel,
  chooseScoreKey,
  keyNote,
  modelTask,
  shippedModel,
  choiceSummary,
} = page.choice;
const { decode, stepper, runDecode, forceToken, setTask, setInputNow, replaceInputWord, resetDecode } =
  page.decode;
const { whatif, activeWhatIfs, toggleMask, pinToken, setTemperature, describeWhatIf, whatIfMark } =
  page.whatif;
const bucket = await load('shared/text/bucket.svelte.js');

/** Reads `hash` and decodes it, as Decode does once the engine is ready. */
async function decodeOf(hash) {
  linkNotes.list = [];
  readLink(hash);
  await runDecode();
  return decode;
}
const notes = () => linkNotes.list.map(String);

describe('the decode', () => {
  test('is the engine’s: the model’s output for the input, one step record a token', async () => {
    await decodeOf('#view=decode');
    assert.equal(decode.status, 'ready');
    assert.equal(decode.name, 'zh-additive-bahdanau');
    assert.deepEqual(decode.sourceTokens, ['tom', 'chase', 'jerry']);
    const reference = await api.decode('zh-additive-bahdanau', 'tom chase jerry', { keep: false });
    assert.deepEqual(decode.output, reference.output);
    assert.equal(decode.steps.length, reference.steps.length);
    assert.deepEqual(Array.from(decode.steps[0].weights ?? []), Array.from(reference.steps[0].weights ?? []));
    // the engine keeps the session shown (beams, exports) and only that one
    assert.deepEqual(api.openSessions(), [decode.session]);
  });

  test('the encoder–decoder Transformer decodes in the trainer module, its records with every head’s q, k and v', async () => {
    const { models } = await load('shared/engine/engine.svelte.js');
    await decodeOf('#view=decode&task=dates&model=transformer&input=29+november+2026');
    assert.equal(decode.status, 'ready', decode.error);
    assert.equal(decode.name, 'dates-transformer');
    assert.equal(models['dates-transformer'].info?.dims.decoder, 'transformer');
    assert.equal(decode.output.join(''), '2026-11-29');
    const step = decode.steps[2];
    const n = decode.sourceTokens.length;
    assert.equal(step.decoder, 'transformer');
    assert.deepEqual(step.crossWeights?.shape, [2, 4, n]);
    assert.deepEqual(step.selfWeights?.shape, [2, 4, 3]);
    assert.deepEqual(step.crossKey?.shape, [2, 4, n, 8]);
    // back to a GRU decoder: a shipped one of the task, in the page's own module
    page.choice.setDecoder('gru');
    await runDecode();
    assert.equal(decode.steps[0].decoder, 'gru');
    assert.match(decode.name, /^dates-/);
    assert.notEqual(decode.name, 'dates-transformer');
  });

  test('the stepper moves within the decode’s steps, and plays from the start at the end', async () => {
    await decodeOf('#view=decode');
    stepper.goTo(99);
    assert.equal(stepper.step, decode.steps.length - 1);
    stepper.togglePlay();
    assert.deepEqual([stepper.step, stepper.playing], [0, true]);
    for (let i = 0; i < decode.steps.length; i++) stepper.advance();
    assert.deepEqual([stepper.step, stepper.playing], [decode.steps.length - 1, false]);
  });

  test('a link’s step past the end shows the last, and says so', async () => {
    await decodeOf('#view=decode&input=the+cat+ate+its+fish&step=40');
    assert.equal(stepper.step, decode.steps.length - 1);
    assert.deepEqual(notes(), [
      `The link’s step=40 is step 41 (steps count from 0), but this decode has ${decode.steps.length} steps; showing the last.`,
    ]);
  });

  test('a forced token changes the later steps; a link’s token the model lacks is dropped, with a note', async () => {
    await decodeOf('#view=decode');
    const second = decode.steps[0].top[1];
    forceToken(0, second.id);
    await runDecode();
    assert.equal(decode.steps[0].token, second.token);
    assert.equal(decode.steps[0].choice, 'forced');
    assert.match(linkHash(), new RegExp(`&force=0%3A${second.id}&`));
    await decodeOf('#view=decode&force=0:99999');
    assert.deepEqual(choice.forces, []);
    assert.match(
      notes()[0],
      /^The link forces token 99999 at step 1, but zh-additive-bahdanau has only \d+ output tokens/,
    );
    resetDecode();
  });

  test('a word the model does not know is the engine’s coded error, and its suggestion replaces it', async () => {
    await decodeOf('#view=decode&input=tom+chsae+jerry');
    assert.equal(decode.status, 'error');
    assert.equal(decode.kindOfError, 'input');
    assert.equal(decode.failure?.code, 'unknown_token');
    const [suggestion] = /** @type {string[]} */ (decode.failure?.details.suggestions);
    replaceInputWord('chsae', suggestion);
    assert.equal(choice.input, `tom ${suggestion} jerry`);
    assert.equal(inputProblem(''), 'Type a sentence (lower-case words), or pick an example.');
  });

  test('a model that does not load is the model’s error, not the input’s', async () => {
    await decodeOf('#view=decode');
    choice.trained = 'not-kept-anywhere';
    await runDecode();
    assert.deepEqual([decode.status, decode.kindOfError], ['error', 'model']);
    choice.trained = '';
  });
});

describe('the choice', () => {
  test('a task keeps the score function where it is shipped, and starts from its first example', () => {
    readLink('#view=decode&model=cosine-luong');
    setTask('reverse'); // reverse ships Bahdanau models only
    assert.deepEqual(
      [choice.task, choice.score, choice.style, choice.input],
      ['reverse', 'cosine', 'bahdanau', 'abcdefj'],
    );
    assert.equal(stepper.step, 0);
  });

  test('the Transformer encoder is shipped for additive Bahdanau: choosing it moves there', () => {
    readLink('#view=decode&model=dot-luong');
    setEncoder('transformer');
    assert.equal(currentModelName(), 'zh-additive-bahdanau-transformer');
    setModel('dot');
    assert.equal(choice.encoder, 'gru', 'no Transformer for dot: back to the BiGRU');
  });
});

describe('a key and a model’s task context', () => {
  test('a digit key picks only a shipped model: 7 on zh has none, the model stays and the note says so', () => {
    readLink('#view=decode&task=zh&model=cosine-luong');
    assert.equal(chooseScoreKey('location', '7'), false);
    assert.equal(currentModelName(), 'zh-cosine-luong');
    assert.deepEqual({ ...keyNote }, { key: '7', score: 'location' });
    // a score function shipped in the other style only: the key takes that style
    assert.equal(chooseScoreKey('scaled_cosine', '6'), true);
    assert.equal(currentModelName(), 'zh-scaled_cosine-bahdanau');
    assert.deepEqual({ ...keyNote }, { key: '', score: '' });
    // a style pill asks for its style alone
    assert.equal(setModel('scaled_cosine', 'luong'), false);
    assert.equal(currentModelName(), 'zh-scaled_cosine-bahdanau');
    readLink('#view=decode&task=dates');
    assert.equal(chooseScoreKey('location', '7'), true);
    assert.equal(currentModelName(), 'dates-location-bahdanau');
  });

  test('the one-line summary names the model as the choice does: the baseline as no attention, not as dot', () => {
    readLink('#view=decode&task=zh&model=none-bahdanau&input=tom+chase+jerry');
    assert.equal(currentModelName(), 'zh-none-bahdanau');
    assert.equal(
      choiceSummary(),
      'English → Chinese · no attention (fixed vector) · Bahdanau · “tom chase jerry”',
    );
    readLink('#view=decode&task=zh&model=dot-luong&input=tom+chase+jerry');
    assert.match(choiceSummary(), / · dot · Luong · “tom chase jerry”$/);
  });

  test('a model trained on own pairs keeps no shipped task: no task, examples, baseline or task= of zh', () => {
    readLink('#view=decode&task=zh&model=additive-bahdanau');
    chooseModel({ id: 'own-pairs-1', task: 'pairs', score: 'dot', style: 'bahdanau' });
    assert.equal(currentModelName(), 'own-pairs-1');
    assert.equal(modelTask().id, 'pairs');
    assert.equal(modelTask().label, 'Your own pairs');
    assert.deepEqual(modelTask().examples, []);
    assert.equal(shippedModel('none'), null, 'zh’s fixed-vector baseline is not this model’s');
    assert.equal(chooseScoreKey('additive', '4'), false, 'nor are zh’s models its keys');
    assert.equal(inputProblem(''), 'Type a source like those you trained on.');
    assert.match(choiceSummary(), /^Your own pairs · /);
    const link = new URLSearchParams(linkHash().slice(1));
    assert.equal(link.get('trained'), 'own-pairs-1');
    assert.equal(link.has('task'), false);
    // a model trained on a shipped task keeps that task’s context
    chooseModel({ id: 'dates-run-1', task: 'dates', score: 'dot', style: 'luong' });
    assert.equal(modelTask().id, 'dates');
    assert.equal(new URLSearchParams(linkHash().slice(1)).get('task'), 'dates');
    assert.deepEqual(shippedModel('none'), { score: 'none', style: 'bahdanau' });
    choice.trained = '';
  });
});

describe('the what-ifs', () => {
  test('mask, pin and τ are the engine’s to apply; the link carries them and the record says which', async () => {
    await decodeOf('#view=decode');
    toggleMask(0, 1, false);
    pinToken(1, 2);
    setTemperature(0, 0.5);
    assert.equal(new URLSearchParams(linkHash().slice(1)).get('wi'), 'm1@0,p2@1,t0.5@0');
    await runDecode();
    const [first, second] = decode.steps;
    assert.equal(first.weights?.[1], 0, 'chase masked');
    assert.equal(first.temperature, 0.5);
    assert.deepEqual(Array.from(second.weights ?? []), [0, 0, 1], 'pinned on jerry');
    assert.match(whatIfMark(first, decode.sourceTokens), /“chase”/);
    assert.equal(describeWhatIf(whatif.items[1], decode.sourceTokens), 'pin step 2 on “jerry”');
  });

  test('they belong to their input: a new input decodes without them', async () => {
    setInputNow('the cat ate its fish');
    assert.deepEqual(activeWhatIfs(), []);
    assert.doesNotMatch(linkHash(), /wi=/);
  });

  test('one the engine refuses (a source token past the input) is dropped, and the note gives its message', async () => {
    await decodeOf('#view=decode&wi=m7@0');
    await runDecode();
    assert.deepEqual(activeWhatIfs(), []);
    assert.equal(notes().length, 1);
    assert.equal(decode.status, 'ready');
  });
});

describe('a length bucket’s examples', () => {
  test('open in Decode with the chart’s model, step through, and close once the input is another', () => {
    readLink('#view=length');
    bucket.openBucket({
      task: 'reverse',
      score: 'dot',
      minLength: 5,
      maxLength: 8,
      sources: ['abcdefj', 'aabbccdd'],
      matches: { dot: [true, false] },
    });
    assert.equal(page.view.page.view, 'decode');
    assert.deepEqual([choice.task, choice.score, choice.input], ['reverse', 'dot', 'abcdefj']);
    assert.deepEqual(bucket.shownMatches(), [true, false]);
    bucket.showBucketExample(5);
    assert.equal(choice.input, 'aabbccdd');
    assert.ok(bucket.bucketShown());
    setInputNow('abc');
    assert.ok(!bucket.bucketShown());
  });
});
