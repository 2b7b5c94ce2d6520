// The step record and the self-attention layer record each have one source, a field table
// (src/decode/record_schema.hpp, transformer_trace.hpp). These tests hold everything else to
// them: the committed TypeScript declarations and the step's JS unpacker (regenerated and compared),
// the objects the page receives (every declared field present with its declared type, shape and
// optionality, nothing undeclared) and the exported trace (the same names and the same numbers).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import {
  declarationsPath,
  generatedDeclarations,
  unpackerPath,
  unpackerSource,
  withGenerated,
} from '../../wasm/generate-types.mjs';
import { useEngine } from './engine-fixture.mjs';

const modelsDir = new URL('../../web/models/', import.meta.url);
const checkpoint = (name) => new Uint8Array(readFileSync(new URL(`${name}.safetensors`, modelsDir)));

let ap;
const { keep } = useEngine((loaded) => (ap = loaded));

// The names the page reads; a change here is a change of the page's contract.
const pageNames = [
  'index',
  'kind',
  'tokenId',
  'token',
  'choice',
  'logProb',
  'prevTokenId',
  'prevToken',
  'top',
  'prevState',
  'query',
  'contextFrom',
  'scores',
  'scale',
  'hidden',
  'previousWeights',
  'location',
  'weights',
  'context',
  'state',
  'attentional',
  'logits',
  'probs',
  'exps',
  'maxScore',
  'expSum',
  'entropy',
  'maxEntropy',
  'intervened',
  'masked',
  'pin',
  'temperature',
  'decoder',
  ...transformerRows(),
];

// The Transformer decoder's rows, every layer × head: null in a GRU decoder's step.
function transformerRows() {
  return [
    'selfScores',
    'selfWeights',
    'selfContext',
    'crossScores',
    'crossWeights',
    'crossContext',
    'layerInput',
    'selfOutput',
    'norm1',
    'crossOutput',
    'norm2',
    'ffnHidden',
    'layerOutput',
    'selfQuery',
    'selfKey',
    'selfValue',
    'crossQuery',
    'crossKey',
    'crossValue',
    'headMasked',
    'headPinned',
    'headOff',
  ];
}

// The size each shape letter stands for in a session of `model` over `source` tokens (t: the
// tokens fed so far at step index, the Transformer decoder's; null in a GRU decoder's dims).
const letterSizes = (info, n, k, index = 0) => ({
  n,
  da: info.dims.attentionDim,
  dh: info.dims.encoderState,
  Hd: info.dims.decoderHidden,
  Vt: info.tgtVocab.length,
  k,
  kf: info.dims.locationFilters,
  L: info.dims.layers,
  h: info.dims.heads,
  dk: info.dims.heads ? info.dims.embedding / info.dims.heads : null,
  d: info.dims.embedding,
  f: info.dims.ffHidden,
  t: index + 1,
});

// Checks one record against the schema; returns the optional fields that were null.
function checkRecord(record, schema, sizes, vocab) {
  assert.deepEqual(
    Object.keys(record).sort(),
    schema.map((f) => f.name).sort(),
    'the record has exactly the declared fields',
  );
  const nulls = [];
  for (const field of schema) {
    const value = record[field.name];
    const dims = field.shape.map((letter) => {
      assert.ok(letter in sizes, `${field.name}: unknown shape letter ${letter}`);
      return sizes[letter];
    });
    if (value === null) {
      assert.ok(field.optional, `${field.name} is null but not optional`);
      nulls.push(field.name);
      continue;
    }
    switch (field.type) {
      case 'integer':
        assert.ok(Number.isInteger(value), `${field.name}: ${value}`);
        break;
      case 'number':
        assert.equal(typeof value, 'number', field.name);
        assert.ok(Number.isFinite(value), `${field.name}: ${value}`);
        break;
      case 'label':
        assert.ok(field.labels.includes(value), `${field.name}: ${value}`);
        break;
      case 'token':
        assert.equal(value, vocab[record[field.of]], field.name);
        break;
      case 'vector':
        assert.ok(value instanceof Float32Array, field.name);
        assert.deepEqual([value.length], dims, field.name);
        break;
      case 'matrix':
        assert.ok(value.data instanceof Float32Array, field.name);
        assert.deepEqual([value.rows, value.cols], dims, field.name);
        assert.equal(value.data.length, value.rows * value.cols, field.name);
        break;
      case 'tensor':
        assert.ok(value.data instanceof Float32Array, field.name);
        assert.deepEqual(value.shape, dims, field.name);
        assert.equal(
          value.data.length,
          dims.reduce((a, b) => a * b, 1),
          field.name,
        );
        break;
      case 'top':
        assert.equal(value.length, dims[0], field.name);
        for (const t of value) {
          assert.deepEqual(Object.keys(t).sort(), ['id', 'prob', 'token']);
          assert.equal(t.token, vocab[t.id]);
          assert.equal(t.prob, record.probs[t.id]);
        }
        break;
      default:
        assert.fail(`${field.name}: unknown type ${field.type}`);
    }
  }
  return nulls;
}

describe('step record schema', () => {
  test('the committed declarations are the ones generated from the schema', () => {
    const text = readFileSync(declarationsPath, 'utf8');
    assert.equal(
      withGenerated(text, generatedDeclarations(ap)),
      text,
      'wasm/playground.d.ts differs from the record schema: run node wasm/generate-types.mjs',
    );
    assert.match(text, /export interface StepRecord \{/);
  });

  test('the committed JS unpacker is the one generated from the schema', () => {
    assert.equal(
      readFileSync(unpackerPath, 'utf8'),
      unpackerSource(ap.recordSchema('decoder')),
      'wasm/step_record_unpack.inc differs from the record schema: run node wasm/generate-types.mjs',
    );
  });

  test('the schema names exactly the fields the page reads, once each', () => {
    const schema = ap.recordSchema('decoder');
    assert.deepEqual(
      schema.map((f) => f.name),
      pageNames,
    );
    for (const f of schema) {
      assert.equal(
        f.name,
        f.trace.replace(/_(.)/g, (_, c) => c.toUpperCase()),
        'page name = camelCase(trace name)',
      );
      if (f.type === 'token') assert.ok(schema.some((g) => g.name === f.of && g.type === 'integer'));
      if (f.type === 'vector' || f.type === 'top') assert.equal(f.shape.length, 1, f.name);
      if (f.type === 'matrix') assert.equal(f.shape.length, 2, f.name);
    }
  });

  for (const [name, nulls] of [
    ['dates-additive-bahdanau', ['attentional', 'location', 'masked', 'previousWeights']],
    ['dates-dot-luong', ['hidden', 'location', 'masked', 'previousWeights']],
    ['zh-additive-luong', ['location', 'masked', 'previousWeights']],
    ['zh-cosine-bahdanau', ['attentional', 'hidden', 'location', 'masked', 'previousWeights']],
    [
      'dates-none-bahdanau',
      ['attentional', 'exps', 'hidden', 'location', 'masked', 'previousWeights', 'scores', 'weights'],
    ],
    ['dates-location-bahdanau', ['attentional', 'masked']],
  ])
    test(`every step of ${name} has every declared field with its shape`, () => {
      const schema = ap.recordSchema('decoder');
      const model = keep(ap.Model.load(checkpoint(name)));
      const info = model.info();
      const text = name.startsWith('zh') ? 'tom chase jerry' : '29 november 2026';
      const session = keep(model.decode(text, { topK: 3 }));
      const n = session.sourceTokens().length;
      const first = session.step();
      session.force(first.top[1].id);
      const steps = [first, session.record(1), ...session.run()];
      steps.forEach((step, i) => {
        assert.equal(step.decoder, 'gru');
        assert.deepEqual(
          checkRecord(step, schema, letterSizes(info, n, 3, i), info.tgtVocab).sort(),
          [...nulls, ...transformerRows()].sort(),
          `step ${i}`,
        );
        assert.equal(step.index, i);
      });
      assert.equal(steps[1].choice, 'forced');
    });

  test('the exported trace carries the same fields, by their trace names, with the same numbers', () => {
    const schema = ap.recordSchema('decoder');
    const model = keep(ap.Model.load(checkpoint('dates-additive-bahdanau')));
    const session = keep(model.decode('1/2/03'));
    const steps = session.run();
    const exported = JSON.parse(session.exportJson()).steps;
    assert.equal(exported.length, steps.length);
    steps.forEach((step, i) => {
      const out = exported[i];
      const expectedTensors = [];
      const expectedFields = [];
      for (const f of schema) {
        const value = step[f.name];
        if (f.trace === 'index' || f.trace === 'kind') assert.equal(out[f.trace], value);
        else if (f.type === 'tensor') {
          if (value === null) continue;
          expectedTensors.push(f.trace);
          assert.deepEqual(out.tensors[f.trace].shape, value.shape);
          assert.deepEqual(new Float32Array(out.tensors[f.trace].data), value.data, f.trace);
        } else if (f.type === 'vector' || f.type === 'matrix') {
          if (value === null) continue;
          expectedTensors.push(f.trace);
          const data = f.type === 'matrix' ? value.data : value;
          assert.deepEqual(
            out.tensors[f.trace].shape,
            f.type === 'matrix' ? [value.rows, value.cols] : [value.length],
          );
          assert.deepEqual(new Float32Array(out.tensors[f.trace].data), data, f.trace);
        } else if (f.type === 'top') {
          expectedFields.push(`${f.trace}_ids`, `${f.trace}_probs`);
          assert.deepEqual(
            out.fields[`${f.trace}_ids`],
            value.map((t) => t.id),
          );
          assert.deepEqual(
            new Float32Array(out.fields[`${f.trace}_probs`]),
            new Float32Array(value.map((t) => t.prob)),
          );
        } else {
          expectedFields.push(f.trace);
          assert.equal(
            f.type === 'number' ? Math.fround(out.fields[f.trace]) : out.fields[f.trace],
            value,
            f.trace,
          );
        }
      }
      assert.deepEqual(Object.keys(out.tensors).sort(), expectedTensors.sort(), 'no undeclared buffer');
      assert.deepEqual(Object.keys(out.fields).sort(), expectedFields.sort(), 'no undeclared field');
    });
  });
});

describe('self-attention record schema', () => {
  test('every layer has every declared field with its shape, in the page and in the export', () => {
    const schema = ap.recordSchema('self_attention');
    const model = keep(ap.Model.load(checkpoint('zh-additive-bahdanau-transformer')));
    const { dims } = model.info();
    const session = keep(model.decode('tom chased jerry yesterday'));
    const n = session.sourceTokens().length;
    const sizes = { n, d: dims.embedding, h: dims.heads, dh: dims.embedding / dims.heads, f: dims.ffHidden };
    const layers = session.selfAttention();
    assert.equal(layers.length, dims.layers);
    const exported = JSON.parse(session.exportJson()).encoder;
    layers.forEach((layer, l) => {
      assert.deepEqual(Object.keys(layer).sort(), schema.map((f) => f.name).sort());
      const out = exported[l];
      const tensors = [];
      const fields = [];
      for (const f of schema) {
        const value = layer[f.name];
        const dimsOf = f.shape.map((letter) => {
          assert.ok(letter in sizes, `${f.name}: unknown shape letter ${letter}`);
          return sizes[letter];
        });
        switch (f.type) {
          case 'integer':
            assert.ok(Number.isInteger(value), f.name);
            break;
          case 'label':
            assert.ok(f.labels.includes(value), f.name);
            break;
          case 'ints':
            assert.ok(Array.isArray(value) && value.every(Number.isInteger), f.name);
            assert.deepEqual([value.length], dimsOf, f.name);
            break;
          case 'tensor':
            assert.ok(value.data instanceof Float32Array, f.name);
            assert.deepEqual(value.shape, dimsOf, f.name);
            assert.equal(
              value.data.length,
              dimsOf.reduce((a, b) => a * b, 1),
              f.name,
            );
            break;
          default:
            assert.fail(`${f.name}: unexpected type ${f.type}`);
        }
        if (f.trace === 'index' || f.trace === 'kind') assert.equal(out[f.trace], value);
        else if (f.type === 'tensor') {
          tensors.push(f.trace);
          assert.deepEqual(out.tensors[f.trace].shape, value.shape, f.trace);
        } else {
          fields.push(f.trace);
          assert.deepEqual(out.fields[f.trace], value, f.trace);
        }
      }
      assert.deepEqual(Object.keys(out.tensors).sort(), tensors.sort(), 'no undeclared buffer');
      assert.deepEqual(Object.keys(out.fields).sort(), fields.sort(), 'no undeclared field');
      assert.equal(layer.layer, l);
    });
  });

  test('recordSchema refuses an unknown kind', () => {
    assert.throws(() => ap.recordSchema('encoder'), { code: 'bad_argument' });
  });
});
