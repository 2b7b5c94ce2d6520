// Beam search with the page's what-ifs through the binding: width 1 is the greedy session given the
// same what-ifs before its steps (token for token, weight for weight), a one-hot pin and a mask are
// checked by hand in every beam, and every hostile what-if is refused with a code and a name,
// leaving the session's beams as they were.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { useEngine } from './engine-fixture.mjs';

const checkpoint = (name) =>
  new Uint8Array(readFileSync(new URL(`../../web/models/${name}.safetensors`, import.meta.url)));

/** Greedy decoding with the what-ifs given before each step, as web/engine/worker.js gives them. */
function greedyWith(session, { masks = [], unmasks = [], pins = [], temperatures = [] }) {
  const steps = [];
  while (!session.done()) {
    const i = session.length();
    for (const [at, j] of masks) if (at === i) session.whatIf({ mask: j });
    for (const [at, j] of unmasks) if (at === i) session.whatIf({ unmask: j });
    for (const [at, what] of pins) if (at === i) session.whatIf({ pin: what });
    for (const [at, t] of temperatures) if (at === i) session.whatIf({ temperature: t });
    steps.push(session.step());
  }
  return steps;
}

describe('beam search with what-ifs', () => {
  let ap;
  const { keep } = useEngine((engine) => (ap = engine));

  test('width 1 is greedy decoding with the same what-ifs, and they change it', () => {
    const cases = [
      [
        'zh-additive-bahdanau',
        'tom chase jerry',
        { masks: [[1, 0]], pins: [[2, 2]], temperatures: [[0, 0.5]] },
      ],
      [
        'zh-additive-bahdanau',
        'tom chase jerry',
        { pins: [[1, [1, 0, 3]]], masks: [[2, 1]], unmasks: [[3, 1]] },
      ],
      [
        'dates-location-bahdanau',
        '29 november 2026',
        { pins: [[0, 3]], masks: [[2, 0]], temperatures: [[5, 0.25]] },
      ],
    ];
    for (const [name, input, whatIfs] of cases) {
      const model = keep(ap.Model.load(checkpoint(name)));
      const session = keep(model.decode(input));
      const greedy = greedyWith(keep(model.decode(input)), whatIfs);
      const result = session.beam(1, whatIfs);
      const path = result.beams[0].map((id) => result.nodes[id]);
      assert.deepEqual(
        path.map((n) => n.token),
        greedy.map((s) => s.token),
        `${name}: tokens`,
      );
      path.forEach((n, i) => {
        assert.deepEqual(n.weights, greedy[i].weights, `${name}: step ${i} weights`);
        assert.equal(n.intervened, greedy[i].intervened === 1, `${name}: step ${i} marked`);
      });
      const plain = session.beam(1);
      assert.notDeepEqual(
        plain.beams[0].map((id) => Array.from(plain.nodes[id].weights)),
        path.map((n) => Array.from(n.weights)),
        `${name}: the what-ifs changed the beam`,
      );
    }
  });

  test('a one-hot pin and a mask hold in every beam, at their steps only', () => {
    const model = keep(ap.Model.load(checkpoint('zh-additive-bahdanau')));
    const session = keep(model.decode('tom chase jerry'));
    const pinned = session.beam(4, { pins: [[1, 0]] });
    const atPin = pinned.nodes.filter((n) => n.depth === 1);
    assert.ok(atPin.length > 1);
    for (const n of atPin) assert.deepEqual(Array.from(n.weights), [1, 0, 0]);
    for (const n of pinned.nodes) assert.equal(n.intervened, n.depth === 1);
    const masked = session.beam(3, { masks: [[2, 2]] });
    for (const n of masked.nodes) {
      assert.equal(n.intervened, n.depth >= 2);
      if (n.depth >= 2) assert.equal(n.weights[2], 0);
      else assert.ok(n.weights[2] > 0);
    }
    // Left out, undefined or empty: the model's own beams.
    const plain = session.beam(3);
    assert.deepEqual(session.beam(3, undefined), plain);
    assert.deepEqual(session.beam(3, {}), plain);
    assert.deepEqual(session.beam(3, { masks: [], pins: [] }), plain);
    assert.ok(plain.nodes.every((n) => n.intervened === false));
  });

  test('hostile what-ifs are refused by name, and the beams stay as they were', () => {
    const model = keep(ap.Model.load(checkpoint('zh-additive-bahdanau')));
    const session = keep(model.decode('tom chase jerry'));
    const plain = session.beam(3);
    const refused = (whatIfs, name, code = 'bad_argument') =>
      assert.throws(
        () => session.beam(3, whatIfs),
        (e) => {
          assert.equal(e.code, code, e.message);
          if (code === 'bad_argument') assert.equal(e.details.name, name, e.message);
          else assert.equal(e.details.limit, 1000, e.message);
          return true;
        },
      );
    const evil = {
      valueOf() {
        throw new Error('read');
      },
    };
    for (const bad of [null, 'masks', 1, [], [[0, 1]], true]) refused(bad, 'whatIfs');
    refused({ foo: [] }, 'whatIfs.foo');
    refused({ masks: [], mask: [[0, 1]] }, 'whatIfs.mask');
    for (const bad of [{}, '0,1', 1, null, { length: 1, 0: [0, 1] }])
      refused({ masks: bad }, 'whatIfs.masks');
    for (const bad of [1, [0], [0, 1, 2], '01', null, { 0: 0, 1: 1 }])
      refused({ unmasks: [[0, 1], bad] }, 'whatIfs.unmasks[1]');
    for (const bad of [0.5, NaN, '0', evil, 2 ** 31, null])
      refused({ masks: [[bad, 1]] }, 'whatIfs.masks[0][0]');
    for (const bad of [0.5, NaN, '0', evil, 2 ** 31, null])
      refused({ masks: [[0, bad]] }, 'whatIfs.masks[0][1]');
    for (const bad of ['1', null, evil, true]) refused({ pins: [[0, bad]] }, 'whatIfs.pins[0][1]');
    refused({ pins: [[0, [1, NaN, 1]]] }, 'whatIfs.pins[0][1][1]');
    for (const bad of ['1', null, evil, [1]])
      refused({ temperatures: [[0, bad]] }, 'whatIfs.temperatures[0][1]');
    // The engine's checks, the same as a session's.
    for (const bad of [-1, 3, 1e9]) refused({ masks: [[0, bad]] }, 'source_index');
    refused({ pins: [[1, 3]] }, 'source_index');
    refused(
      {
        masks: [
          [0, 0],
          [0, 1],
          [1, 2],
        ],
      },
      'mask',
    );
    for (const bad of [[1, -1, 1], [0, 0, 0], [1, 1], [], new Float32Array(4)])
      refused({ pins: [[0, bad]] }, 'weights');
    for (const bad of [0, -1, 1e-300, 1e6]) refused({ temperatures: [[0, bad]] }, 'temperature');
    // a value no float holds is named by where it is
    for (const bad of [NaN, Infinity, 1e300])
      refused({ temperatures: [[0, bad]] }, 'whatIfs.temperatures[0][1]');
    refused({ masks: [[-1, 0]] }, 'what_ifs');
    // Checked before the search: a bad one at a step no beam reaches is refused all the same.
    refused({ masks: [[10, 7]] }, 'source_index');
    const many = Array.from({ length: 600 }, () => [0, 1]);
    refused({ temperatures: many, masks: many }, 'whatIfs.masks', 'limit_exceeded');
    assert.deepEqual(session.beam(3), plain);
  });
});
