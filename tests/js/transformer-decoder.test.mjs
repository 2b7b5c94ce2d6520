// The Transformer decoder through the Model / Session API of the trainer module (the module that
// includes it; the page module refuses its checkpoints with a coded error naming that module): a
// step's layer-0 numbers computed here by hand from the checkpoint's tensors and the encoder
// states, the causal self-attention rows, q, k and v on request, the key/value cache on and off,
// the what-ifs on one head (session and beam), and the shipped Transformer models against the
// native build's golden numbers.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';

import { loadEngine } from './load-engine.mjs';
import { readSafetensors } from './reference.mjs';
import { errorOf, reversePairs, useTrainer } from './trainer-fixture.mjs';

let T, page, bytes, tensors;
const { keep, ready } = useTrainer(() => {});
before(async () => {
  [page, T] = await Promise.all([loadEngine(), ready]);
  // 2 layers × 4 heads of d = 8 (dk = 2) over a Transformer encoder's states, 3 training steps.
  const run = new T.TrainRun({
    pairs: reversePairs(),
    encoder: 'transformer',
    decoder: 'transformer',
    embed: 8,
    hidden: 12,
    batch: 8,
    steps: 3,
  });
  run.step(3);
  bytes = run.save();
  run.delete();
  tensors = readSafetensors(bytes);
});

const input = 'cab';
const L = 2;
const H = 4;
const dk = 2;

/** W x + b for a checkpoint's W (out × in) and b. */
const matvec = (w, b, x) =>
  Array.from({ length: w.shape[0] }, (_, r) =>
    x.reduce((sum, xi, c) => sum + w.data[r * w.shape[1] + c] * xi, b.data[r]),
  );
const layerNorm = (x, gain, bias) => {
  const mean = x.reduce((a, b) => a + b, 0) / x.length;
  const variance = x.reduce((a, b) => a + (b - mean) ** 2, 0) / x.length;
  return x.map((v, i) => ((v - mean) / Math.sqrt(variance + 1e-5)) * gain.data[i] + bias.data[i]);
};
const close = (actual, expected, tolerance, what) => {
  assert.equal(actual.length, expected.length, what);
  const worst = Math.max(0, ...expected.map((e, i) => Math.abs(actual[i] - e)));
  assert.ok(worst <= tolerance, `${what}: largest difference ${worst}`);
};

test('the page module refuses a Transformer decoder checkpoint, naming the module that reads it', () => {
  const error = errorOf(() => page.Model.load(bytes));
  assert.equal(error.code, 'bad_checkpoint');
  assert.equal(error.details.field, 'decoder');
  assert.equal(error.details.module, 'trainer');
  const model = keep(T.Model.load(bytes));
  const { dims } = model.info();
  assert.equal(dims.decoder, 'transformer');
  assert.equal(dims.encoder, 'transformer');
  assert.deepEqual([dims.heads, dims.layers, dims.embedding], [H, L, 8]);
  assert.equal(model.info().score, 'scaled_dot');
  assert.equal(model.info().style, 'luong');
});

test('step 0, layer 0: the cross-attention of every head equals a hand computation from the tensors', () => {
  const model = keep(T.Model.load(bytes));
  const session = keep(model.decode(input));
  const step = session.step();
  assert.equal(step.decoder, 'transformer');
  const states = session.encoderStates(); // n × d, the memory the cross-attention reads
  const n = states.rows;
  const row = (m, j) => Array.from(m.data.subarray(j * m.cols, (j + 1) * m.cols));
  const t = (name) => tensors[`decoder.layers.0.${name}`];
  // x_0 = emb(<s>) + PE(0): sin 0 = 0 in the even columns, cos 0 = 1 in the odd ones.
  const x0 = Array.from(tensors['decoder.embedding'].data.subarray(8, 16), (e, i) => e + (i % 2));
  close(step.prevState, x0, 1e-6, 'x_0');
  close(step.layerInput.data.subarray(0, 8), x0, 1e-6, 'layer 0 input');
  // One token fed: each self-attention head gives it weight 1, so a = W_o (W_v x_0 + b_v) + b_o.
  assert.deepEqual(step.selfWeights.shape, [L, H, 1]);
  assert.deepEqual(Array.from(step.selfWeights.data), Array(L * H).fill(1));
  const a = matvec(
    t('self_attn.w_o'),
    t('self_attn.b_o'),
    matvec(t('self_attn.w_v'), t('self_attn.b_v'), x0),
  );
  close(step.selfOutput.data.subarray(0, 8), a, 1e-5, 'a');
  const u = layerNorm(
    x0.map((x, i) => x + a[i]),
    t('ln1.gain'),
    t('ln1.bias'),
  );
  close(step.norm1.data.subarray(0, 8), u, 1e-5, 'u');
  const q = matvec(t('cross_attn.w_q'), t('cross_attn.b_q'), u);
  const keys = Array.from({ length: n }, (_, j) =>
    matvec(t('cross_attn.w_k'), t('cross_attn.b_k'), row(states, j)),
  );
  assert.deepEqual(step.crossWeights.shape, [L, H, n]);
  for (let h = 0; h < H; h++) {
    const scores = keys.map((k) => (q[h * dk] * k[h * dk] + q[h * dk + 1] * k[h * dk + 1]) / Math.sqrt(dk));
    const top = Math.max(...scores);
    const exps = scores.map((s) => Math.exp(s - top));
    const sum = exps.reduce((x, y) => x + y, 0);
    close(step.crossScores.data.subarray(h * n, (h + 1) * n), scores, 1e-5, `head ${h} scores`);
    close(
      step.crossWeights.data.subarray(h * n, (h + 1) * n),
      exps.map((e) => e / sum),
      1e-6,
      `head ${h} weights`,
    );
  }
  // The alignment the GRU-decoder views read: the last layer's heads averaged.
  const last = Array.from({ length: n }, (_, j) => {
    let s = 0;
    for (let h = 0; h < H; h++) s += step.crossWeights.data[(H + h) * n + j];
    return s / H;
  });
  close(step.weights, last, 1e-6, 'averaged weights');
  assert.equal(step.scores, null);
  assert.equal(step.selfKey, null); // q, k and v only on request
});

test('each step attends to the tokens fed so far: the causal triangle, one row per step', () => {
  const model = keep(T.Model.load(bytes));
  const session = keep(model.decode(input, { maxSteps: 4 }));
  for (let i = 0; i < 4; i++) {
    const step = session.force(4 + i);
    assert.deepEqual(step.selfWeights.shape, [L, H, i + 1]);
    for (let lh = 0; lh < L * H; lh++) {
      const rowSum = step.selfWeights.data
        .subarray(lh * (i + 1), (lh + 1) * (i + 1))
        .reduce((x, y) => x + y, 0);
      assert.ok(Math.abs(rowSum - 1) < 1e-6, `step ${i} row ${lh}: ${rowSum}`);
    }
  }
});

test('q, k and v on request: the scores are q·k/√dk of the record’s own vectors', () => {
  const model = keep(T.Model.load(bytes));
  const session = keep(model.decode(input, { qkv: true }));
  session.force(5);
  const step = session.force(6);
  const n = session.sourceTokens().length;
  assert.deepEqual(step.selfKey.shape, [L, H, 2, dk]);
  assert.deepEqual(step.crossValue.shape, [L, H, n, dk]);
  assert.deepEqual(step.crossQuery.shape, [L, H, dk]);
  for (let lh = 0; lh < L * H; lh++) {
    const q = step.crossQuery.data.subarray(lh * dk, (lh + 1) * dk);
    for (let j = 0; j < n; j++) {
      const k = step.crossKey.data.subarray((lh * n + j) * dk, (lh * n + j + 1) * dk);
      const score = (q[0] * k[0] + q[1] * k[1]) / Math.sqrt(dk);
      assert.ok(Math.abs(step.crossScores.data[lh * n + j] - score) < 1e-5);
    }
    const sq = step.selfQuery.data.subarray(lh * dk, (lh + 1) * dk);
    for (let j = 0; j < 2; j++) {
      const k = step.selfKey.data.subarray((lh * 2 + j) * dk, (lh * 2 + j + 1) * dk);
      assert.ok(
        Math.abs(step.selfScores.data[lh * 2 + j] - (sq[0] * k[0] + sq[1] * k[1]) / Math.sqrt(dk)) < 1e-5,
      );
    }
  }
});

test('with the key/value cache or without it, the records are the same numbers', () => {
  const model = keep(T.Model.load(bytes));
  const numbers = (step) =>
    [step.logits, step.selfWeights.data, step.crossWeights.data, step.layerOutput.data].flatMap((a) => [
      ...a,
    ]);
  const on = keep(model.decode(input));
  const off = keep(model.decode(input, { kvCache: false }));
  for (const s of [on, off]) {
    s.force(5);
    s.whatIf({ headOff: [1, 2] });
    s.force(4);
    s.back();
    s.force(7);
    s.whatIf({ headMask: [0, 3, 1] });
    s.force(6);
  }
  assert.equal(on.length(), 3);
  for (let i = 0; i < 3; i++) assert.deepEqual(numbers(off.record(i)), numbers(on.record(i)), `step ${i}`);
  const error = errorOf(() => model.decode(input, { kvCache: 'no' }));
  assert.equal(error.code, 'bad_argument');
  assert.equal(error.details.name, 'options.kvCache');
});

test('what-ifs on one head: switched off, masked, pinned; the later steps follow', () => {
  const model = keep(T.Model.load(bytes));
  const n = input.length;
  const plain = keep(model.decode(input));
  const s = keep(model.decode(input));
  plain.force(5);
  s.force(5);
  s.whatIf({ headOff: [0, 1] });
  s.whatIf({ headMask: [1, 2, 0] });
  s.whatIf({ headPin: [1, 3, [0, 1, 3]] });
  const one = s.force(4);
  const plainOne = plain.force(4);
  assert.deepEqual(Array.from(one.crossContext.data.subarray(1 * dk, 2 * dk)), [0, 0]); // layer 0, head 1
  assert.equal(one.crossWeights.data[(H + 2) * n + 0], 0); // layer 1, head 2 without token 0
  close(one.crossWeights.data.subarray((H + 3) * n, (H + 4) * n), [0, 0.25, 0.75], 1e-7, 'pinned head');
  assert.deepEqual(Array.from(one.headOff.data), [0, 1, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(Array.from(one.headPinned.data), [0, 0, 0, 0, 0, 0, 0, 1]);
  assert.equal(one.headMasked.data[(H + 2) * n + 0], 1);
  assert.equal(one.intervened, 1);
  assert.notDeepEqual(Array.from(one.logits), Array.from(plainOne.logits));
  // The pin was for that step; the mask and the switch hold.
  const two = s.force(6);
  assert.equal(two.headPinned, null);
  assert.deepEqual(Array.from(two.headOff.data), [0, 1, 0, 0, 0, 0, 0, 0]);
  assert.equal(two.crossWeights.data[(H + 2) * n + 0], 0);
  s.whatIf({ headOn: [0, 1] });
  s.whatIf({ headUnmask: [1, 2, 0] });
  const three = s.force(7);
  assert.equal(three.headOff, null);
  assert.equal(three.headMasked, null);
  // Bad values: coded errors naming them, the session still working.
  for (const [what, name] of [
    [{ headOff: [2, 0] }, 'layer'],
    [{ headOff: [0, 4] }, 'head'],
    [{ headMask: [0, 0, 9] }, 'source_index'],
    [{ headPin: [0, 0, [0, 0, 0]] }, 'weights'],
    [{ headOff: [0] }, 'headOff'],
    [{ headMask: [0, 'a', 1] }, 'headMask[1]'],
  ]) {
    const error = errorOf(() => s.whatIf(what));
    assert.equal(error.code, 'bad_argument', JSON.stringify(what));
    assert.equal(error.details.name, name, JSON.stringify(what));
  }
  assert.ok(s.step());
});

test('beam search takes the what-ifs on heads: width 1 is the session given them', () => {
  const model = keep(T.Model.load(bytes));
  const session = keep(model.decode(input));
  session.whatIf({ headOff: [1, 0] });
  const steps = [session.step()];
  session.whatIf({ headPin: [0, 2, 1] });
  while (!session.done()) steps.push(session.step());
  const beam = session.beam(1, { headOffs: [[0, 1, 0]], headPins: [[1, 0, 2, 1]] });
  const path = beam.beams[0].map((id) => beam.nodes[id]);
  assert.deepEqual(
    path.map((node) => node.tokenId),
    steps.map((step) => step.tokenId),
  );
  path.forEach((node, i) => close(node.weights, steps[i].weights, 0, `step ${i}`));
  const error = errorOf(() => session.beam(2, { headOffs: [[0, 5, 0]] }));
  assert.equal(error.details.name, 'layer');
  assert.equal(errorOf(() => session.beam(2, { headPins: [[0, 1]] })).details.name, 'whatIfs.headPins[0]');
});

test('the record schema lists the Transformer rows, null for a GRU decoder', () => {
  const schema = T.recordSchema('decoder');
  const rows = schema.filter((f) => f.type === 'tensor').map((f) => f.name);
  for (const name of ['selfWeights', 'crossWeights', 'crossScores', 'selfKey', 'crossValue', 'headOff'])
    assert.ok(rows.includes(name), name);
  assert.deepEqual(schema.find((f) => f.name === 'crossWeights').shape, ['L', 'h', 'n']);
  const gru = keep(
    T.Model.load(
      new Uint8Array(
        readFileSync(new URL('../../web/models/dates-additive-bahdanau.safetensors', import.meta.url)),
      ),
    ),
  );
  const step = keep(gru.decode('29 november 2026')).step();
  assert.equal(step.decoder, 'gru');
  for (const name of rows) assert.equal(step[name], null, name);
});

const golden = JSON.parse(readFileSync(new URL('../io/shipped_golden.json', import.meta.url), 'utf8'));
const modelsDir = new URL('../../web/models/', import.meta.url);
for (const [file, cases] of Object.entries(golden).filter(([, cases]) => cases[0].cross_weights)) {
  test(`${file}: the trainer module decodes like the native build, every cross-attention head`, () => {
    const model = keep(T.Model.load(new Uint8Array(readFileSync(new URL(file, modelsDir)))));
    for (const { input: text, output, weights, cross_weights: cross } of cases) {
      const steps = keep(model.decode(text)).run();
      assert.deepEqual(
        steps.filter((s) => s.token !== '</s>').map((s) => s.token),
        output,
      );
      close(
        steps.flatMap((s) => [...s.weights]),
        weights,
        1e-5,
        `weights for "${text}"`,
      );
      close(
        steps.flatMap((s) => [...s.crossWeights.data]),
        cross,
        1e-5,
        `cross weights for "${text}"`,
      );
    }
  });
}
