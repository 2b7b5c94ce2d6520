// The decoding API (wasm/model_bindings.cpp) on a shipped checkpoint: Model.load, info, decode,
// and a session's step / force / back / reset / run / beam / trace / exports, with real values,
// every error arriving as an Error, and no leaks: every embind object is deleted, the emval
// handle count is back where it started after every test, and 10,000 steps do not grow the heap.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { useEngine } from './engine-fixture.mjs';

const modelsDir = new URL('../../web/models/', import.meta.url);
const checkpoint = (name) => new Uint8Array(readFileSync(new URL(`${name}.safetensors`, modelsDir)));

let ap;
// Every embind object a test makes goes through keep(), and is deleted after the test.
const { keep } = useEngine((loaded) => (ap = loaded));

const sum = (a) => a.reduce((s, x) => s + x, 0);

describe('Model', () => {
  test('loads a shipped checkpoint and describes it', () => {
    const model = keep(ap.Model.load(checkpoint('dates-additive-bahdanau')));
    const info = model.info();
    assert.equal(info.task, 'dates');
    assert.equal(info.score, 'additive');
    assert.equal(info.style, 'bahdanau');
    assert.equal(info.sourceTokenizer, 'characters');
    assert.deepEqual(info.tgtVocab.slice(0, 4), ['<pad>', '<s>', '</s>', '<unk>']);
    for (const digit of '0123456789-')
      assert.ok(info.tgtVocab.includes(digit), `target vocabulary has ${digit}`);
    assert.equal(
      info.dims.encoderState,
      info.dims.bidirectional ? 2 * info.dims.encoderHidden : info.dims.encoderHidden,
    );
    assert.ok(info.heldoutExactMatch >= 0.99, `held-out exact match ${info.heldoutExactMatch}`);
  });

  test('a corrupt or wrongly typed checkpoint is refused with a message', () => {
    const bytes = checkpoint('dates-additive-bahdanau');
    assert.throws(() => ap.Model.load(bytes.slice(0, bytes.length - 100)), /^Error: checkpoint: /);
    assert.throws(() => ap.Model.load(bytes.slice(0, 5)), /^Error: checkpoint: /);
    const badHeader = bytes.slice();
    badHeader[8] = 0x5b; // '[': the header is no longer a JSON object
    assert.throws(() => ap.Model.load(badHeader), /^Error: checkpoint: /);
    assert.throws(() => ap.Model.load('not bytes'), /expected the checkpoint as a Uint8Array/);
    assert.throws(() => ap.Model.load(new Uint8Array(0)), /^Error: checkpoint: /);
  });
});

describe('Session', () => {
  let model;
  before(() => {
    model = ap.Model.load(checkpoint('dates-additive-bahdanau'));
  });
  after(() => model.delete());

  test('greedy decoding of a date gives its ISO form, with the stages of every step', () => {
    const session = keep(model.decode('29 november 2026'));
    assert.deepEqual(session.sourceTokens(), [...'29 november 2026']);
    const steps = session.run();
    assert.equal(session.outputText(), '2026-11-29');
    assert.ok(session.done());
    assert.equal(steps.at(-1).token, '</s>');
    const n = 16;
    const info = model.info();
    steps.forEach((step, i) => {
      assert.equal(step.index, i);
      assert.equal(step.choice, 'greedy');
      assert.equal(step.scores.length, n);
      assert.equal(step.weights.length, n);
      assert.ok(Math.abs(sum(step.weights) - 1) < 1e-5, 'weights sum to 1');
      assert.equal(step.context.length, info.dims.encoderState);
      assert.deepEqual([step.hidden.rows, step.hidden.cols], [n, info.dims.attentionDim]);
      assert.equal(step.state.length, info.dims.decoderHidden);
      assert.equal(step.probs.length, info.tgtVocab.length);
      assert.equal(step.tokenId, step.top[0].id);
      assert.equal(step.top[0].prob, step.probs[step.tokenId]);
      assert.ok(step.top.every((t, k) => k === 0 || step.top[k - 1].prob >= t.prob));
      assert.ok(Math.abs(step.logProb - Math.log(step.probs[step.tokenId])) < 1e-5);
      assert.equal(step.prevToken, i === 0 ? '<s>' : steps[i - 1].token);
      // Bahdanau: the query is the previous state
      assert.deepEqual(step.query, step.prevState);
      // stage 2 spelled out: exp(e_j − max) / Σ = the weights; entropy within [0, ln n]
      assert.equal(step.maxScore, Math.max(...step.scores));
      step.exps.forEach((x, j) => assert.ok(Math.abs(x / step.expSum - step.weights[j]) < 1e-6));
      assert.ok(step.entropy >= 0 && step.entropy <= step.maxEntropy + 1e-6);
      assert.ok(Math.abs(step.maxEntropy - Math.log(n)) < 1e-6);
    });
    // The year's first digit attends to the year in the source (the last four characters).
    const year = steps[0].weights.slice(12);
    assert.ok(sum(year) > 0.5, `weight on the year: ${sum(year)}`);
    const again = session.trace();
    assert.deepEqual(again[3].weights, steps[3].weights);
    assert.deepEqual(session.record(3).context, steps[3].context);
  });

  test('a forced token feeds the next step; back() and reset() undo exactly', () => {
    const session = keep(model.decode('29 november 2026'));
    const first = session.step();
    assert.equal(first.token, '2');
    const forced = session.force(model.info().tgtVocab.indexOf('1'));
    assert.equal(forced.choice, 'forced');
    assert.equal(forced.token, '1');
    const next = session.step();
    assert.equal(next.prevToken, '1');
    assert.deepEqual(next.prevState, forced.state);
    assert.equal(session.length(), 3);
    assert.equal(session.back(), true);
    assert.equal(session.back(), true);
    const greedy = session.step();
    assert.equal(greedy.token, '0');
    assert.deepEqual(greedy.weights, forced.weights, 'the same step before the choice');
    session.reset();
    assert.equal(session.length(), 0);
    assert.equal(session.back(), false);
    assert.deepEqual(session.step().weights, first.weights);
  });

  test('beam search of width 1 is greedy; wider beams come best first', () => {
    const session = keep(model.decode('nov 29, 2026'));
    session.run();
    const greedy = session.outputTokens();
    const one = session.beam(1);
    assert.deepEqual(
      one.beams[0].map((id) => one.nodes[id].token).filter((t) => t !== '</s>'),
      greedy,
    );
    const three = session.beam(3);
    assert.ok(three.beams.length >= 1 && three.beams.length <= 3);
    assert.ok(three.scores.every((s, k) => k === 0 || three.scores[k - 1] >= s));
    for (const path of three.beams)
      path.forEach((id, depth) => {
        const node = three.nodes[id];
        assert.equal(node.depth, depth);
        assert.equal(node.parent, depth === 0 ? -1 : path[depth - 1]);
        assert.ok(Math.abs(sum(node.weights) - 1) < 1e-5);
      });
    assert.throws(() => session.beam(0), /^Error: beam: width/);
  });

  test('the trace exports as JSON and as .npy with the same numbers', () => {
    const session = keep(model.decode('29 november 2026'));
    const steps = session.run();
    const json = JSON.parse(session.exportJson());
    assert.equal(json.steps.length, steps.length);
    assert.deepEqual(json.meta.source_tokens, [...'29 november 2026']);
    assert.equal(json.meta.output_tokens.join(''), '2026-11-29');
    const weights = json.steps[2].tensors.weights;
    assert.deepEqual(weights.shape, [16]);
    weights.data.forEach((w, j) => assert.ok(Math.abs(w - steps[2].weights[j]) < 1e-7));
    assert.equal(json.steps[2].fields.token, steps[2].token);
    const files = session.exportNpy();
    for (const name of ['weights.npy', 'scores.npy', 'context.npy', 'hidden.npy', 'query.npy', 'probs.npy'])
      assert.ok(files[name] instanceof Uint8Array, name);
    const npy = files['weights.npy'];
    assert.equal(String.fromCharCode(...npy.slice(1, 6)), 'NUMPY');
    const headerLength = npy[8] | (npy[9] << 8);
    const header = String.fromCharCode(...npy.slice(10, 10 + headerLength));
    assert.match(header, new RegExp(`'shape': \\(${steps.length}, 16\\)`));
    const data = new Float32Array(npy.slice(10 + headerLength).buffer);
    assert.deepEqual(data.slice(16 * 2, 16 * 3), steps[2].weights);
  });

  test('bad input gives clear errors', () => {
    assert.throws(() => model.decode(''), /^Error: empty input/);
    assert.throws(() => model.decode('29 november 2026 @'), /unknown/);
    assert.throws(
      () => model.decode('1'.repeat(500)),
      /input has 500 tokens, this model accepts at most \d+/,
    );
    assert.throws(() => model.decode(42), /expected the input text as a string/);
    const session = keep(model.decode('1/2/03'));
    assert.throws(() => session.force(10_000), /outside the target vocabulary/);
    assert.throws(() => session.force(-1), /outside the target vocabulary/);
    assert.throws(() => session.force('2'), /expected a token id/);
    assert.throws(() => session.record(0), /does not exist/);
    session.run();
    assert.throws(() => session.step(), /finished/);
    session.delete();
    assert.throws(() => session.step(), /deleted/);
  });

  test('a session keeps its model alive after the model is deleted', () => {
    const own = ap.Model.load(checkpoint('dates-additive-bahdanau'));
    const session = keep(own.decode('29 november 2026'));
    own.delete();
    assert.throws(() => own.info(), /deleted/);
    session.run();
    assert.equal(session.outputText(), '2026-11-29');
  });

  test('10,000 decode steps leave the wasm heap size unchanged after warm-up', () => {
    const session = keep(model.decode('sunday, 29 nov. 2026'));
    const cycle = () => {
      if (session.done()) session.reset();
      session.step();
    };
    for (let i = 0; i < 500; i++) cycle();
    const heap = ap.HEAP8.buffer.byteLength;
    const handles = ap.count_emval_handles();
    for (let i = 0; i < 10_000; i++) cycle();
    assert.equal(ap.HEAP8.buffer.byteLength, heap);
    assert.equal(ap.count_emval_handles(), handles);
  });
});
