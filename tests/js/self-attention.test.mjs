// Session.selfAttention() on the shipped transformer-encoder model: every stage of every head is
// there with the right shapes, and the stages are consistent with each other exactly as the
// trace documents them (scores = Q·Kᵀ/√dh, weights = softmax(scores) row by row, each head's
// output = weights · V). Also the exports and a GRU model (no layers).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { useEngine } from './engine-fixture.mjs';

const modelsDir = new URL('../../web/models/', import.meta.url);
const checkpoint = (name) => new Uint8Array(readFileSync(new URL(`${name}.safetensors`, modelsDir)));

let ap;
const { keep } = useEngine((loaded) => (ap = loaded));

// element [h][i][j] of an h × n × m tensor
const at = (t, h, i, j) => t.data[(h * t.shape[1] + i) * t.shape[2] + j];

describe('self-attention trace through the JS API', () => {
  test('the transformer model describes its encoder', () => {
    const info = keep(ap.Model.load(checkpoint('zh-additive-bahdanau-transformer'))).info();
    assert.equal(info.dims.encoder, 'transformer');
    assert.equal(info.dims.heads, 4);
    assert.equal(info.dims.layers, 2);
    assert.equal(info.dims.ffHidden, 128);
    assert.equal(info.dims.encoderState, info.dims.embedding);
    assert.ok(info.heldoutExactMatch >= 0.995);
  });

  test('every layer and head: Q·K, scaling, softmax and the weighted sum of V agree', () => {
    const model = keep(ap.Model.load(checkpoint('zh-additive-bahdanau-transformer')));
    const session = keep(model.decode('tom chase jerry'));
    const tokens = session.sourceTokens();
    const n = tokens.length;
    assert.deepEqual(tokens, ['tom', 'chase', 'jerry']);
    const layers = session.selfAttention();
    assert.equal(layers.length, 2);
    const d = model.info().dims.embedding;
    const heads = 4;
    const dh = d / heads;
    for (const [l, layer] of layers.entries()) {
      assert.equal(layer.kind, 'self_attention');
      assert.equal(layer.layer, l);
      assert.equal(layer.heads, heads);
      assert.deepEqual(layer.mask, [1, 1, 1]);
      assert.deepEqual(layer.input.shape, [n, d]);
      assert.deepEqual(layer.query.shape, [heads, n, dh]);
      assert.deepEqual(layer.rawScores.shape, [heads, n, n]);
      assert.deepEqual(layer.weights.shape, [heads, n, n]);
      assert.deepEqual(layer.context.shape, [heads, n, dh]);
      assert.deepEqual(layer.ffnHidden.shape, [n, 128]);
      for (let h = 0; h < heads; h++) {
        for (let i = 0; i < n; i++) {
          let rowSum = 0;
          const exps = [];
          for (let j = 0; j < n; j++) {
            let dot = 0;
            for (let k = 0; k < dh; k++) dot += at(layer.query, h, i, k) * at(layer.key, h, j, k);
            assert.ok(
              Math.abs(at(layer.rawScores, h, i, j) - dot) <= 1e-4 * (1 + Math.abs(dot)),
              'raw score',
            );
            const scaled = at(layer.rawScores, h, i, j) / Math.sqrt(dh);
            assert.ok(
              Math.abs(at(layer.scores, h, i, j) - scaled) <= 1e-5 * (1 + Math.abs(scaled)),
              'scaling',
            );
            exps.push(Math.exp(at(layer.scores, h, i, j)));
            rowSum += at(layer.weights, h, i, j);
          }
          assert.ok(Math.abs(rowSum - 1) < 1e-5, 'weights sum to 1');
          const total = exps.reduce((a, b) => a + b, 0);
          for (let j = 0; j < n; j++)
            assert.ok(Math.abs(at(layer.weights, h, i, j) - exps[j] / total) < 1e-5, 'softmax');
          for (let k = 0; k < dh; k++) {
            let mix = 0;
            for (let j = 0; j < n; j++) mix += at(layer.weights, h, i, j) * at(layer.value, h, j, k);
            assert.ok(Math.abs(at(layer.context, h, i, k) - mix) < 1e-4, 'weighted sum of values');
          }
        }
      }
    }
    // The last layer's output is what the decoder attends over.
    const states = session.encoderStates();
    assert.deepEqual([...states.data], [...layers[1].output.data]);
  });

  test('the exports carry the encoder layers', () => {
    const model = keep(ap.Model.load(checkpoint('dates-additive-bahdanau-transformer')));
    const session = keep(model.decode('3 may 2019'));
    session.run();
    const json = JSON.parse(session.exportJson());
    assert.equal(json.encoder.length, 2);
    assert.equal(json.encoder[0].kind, 'self_attention');
    assert.deepEqual(json.encoder[1].tensors.weights.shape, [4, 10, 10]);
    const files = session.exportNpy();
    const header = new TextDecoder().decode(files['encoder.weights.npy'].slice(10, 80));
    assert.match(header, /'shape': \(2, 4, 10, 10\)/);
    assert.ok(files['weights.npy'], 'the decoder weights are still there');
  });

  test('a GRU-encoder model has no self-attention layers', () => {
    const model = keep(ap.Model.load(checkpoint('zh-additive-bahdanau')));
    const session = keep(model.decode('tom chase jerry'));
    assert.deepEqual(session.selfAttention(), []);
    assert.equal(model.info().dims.encoder, 'gru');
    assert.equal(model.info().dims.heads, null);
    assert.equal(JSON.parse(session.exportJson()).encoder, undefined);
  });
});
