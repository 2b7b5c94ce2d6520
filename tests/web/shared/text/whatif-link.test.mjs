// The decode's what-ifs in the link (web/shared/text/whatif-link.js): every form reads back as written,
// a malformed item is left out with a note naming it, and what the worker is handed follows.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  MAX_WHATIFS,
  decodeOptions,
  parseWhatIf,
  readWhatIfUrl,
  writeWhatIfs,
} from '../../../../web/shared/text/whatif-link.js';

const hashOf = (wi) => `#${new URLSearchParams({ view: 'decode', input: 'tom chase jerry', wi })}`;

test('each form reads back as written, in the order written', () => {
  const items = [
    { kind: 'mask', step: 3, token: 2 },
    { kind: 'unmask', step: 5, token: 2 },
    { kind: 'pin', step: 4, token: 1 },
    { kind: 'pin', step: 0, weights: [1, 3, 0] },
    { kind: 'pin', step: 6, weights: [0.25, 0.125, 1e-7] },
    { kind: 'temperature', step: 2, tau: 0.5 },
    { kind: 'temperature', step: 7, tau: 1000 },
  ];
  const field = writeWhatIfs(items);
  assert.equal(field, 'm2@3,u2@5,p1@4,p1/3/0@0,p0.25/0.125/1e-7@6,t0.5@2,t1000@7');
  const notes = [];
  assert.deepEqual(readWhatIfUrl(hashOf(field), notes), items);
  assert.deepEqual(notes, []);
  // τ the engine holds as a float32 (its limit 1e-3, from the slider) is written short
  assert.equal(writeWhatIfs([{ kind: 'temperature', step: 1, tau: Math.fround(1e-3) }]), 't0.001@1');
  assert.equal(writeWhatIfs([{ kind: 'temperature', step: 1, tau: Math.fround(1e3) }]), 't1000@1');
  assert.deepEqual(readWhatIfUrl('#view=decode', notes), []);
  assert.deepEqual(readWhatIfUrl(hashOf(''), notes), []);
  assert.deepEqual(notes, []);
  assert.equal(writeWhatIfs([]), '');
});

test('a malformed item is left out and named; the others are kept', () => {
  for (const bad of [
    'm2',
    'x2@3',
    'm-1@3',
    'm2@-3',
    'm1.5@3',
    'm@3',
    'p1/@4',
    'p0/0/0@4',
    'p1/-1@4',
    'p1/NaN@4',
    'pInfinity/1@4',
    't0@2',
    't-1@2',
    'tNaN@2',
    'tInfinity@2',
    't1e999@2',
    't@2',
    'm2@3@4',
    'm99999999@1',
    'm1@99999999',
    'hm1.2@3',
    'ho1.2.0@3',
    'hx1.2@3',
    'hm1@3',
    'hm64.0.1@3',
    'hp1.2.0/0@4',
    'hp1.2.@4',
    'hm1.2.-1@3',
  ]) {
    assert.equal(parseWhatIf(bad), null, bad);
    const notes = [];
    const items = readWhatIfUrl(hashOf(`m0@1,${bad},t2@0`), notes);
    assert.deepEqual(
      items,
      [
        { kind: 'mask', step: 1, token: 0 },
        { kind: 'temperature', step: 0, tau: 2 },
      ],
      bad,
    );
    assert.equal(notes.length, 1, bad);
    assert.ok(notes[0].includes(`“${bad}”`) && notes[0].includes('the others are kept'), notes[0]);
  }
  const notes = [];
  assert.deepEqual(readWhatIfUrl(hashOf('nonsense,m@'), notes), []);
  assert.match(notes[0], /“nonsense”, “m@”.*decoding without what-ifs/);
});

test('the notes speak the page’s language, and a link with too many what-ifs keeps the first ones', () => {
  const notes = [];
  readWhatIfUrl(hashOf('zz'), notes, (key, params) => `${key}:${params.items}`);
  assert.deepEqual(notes, ['linkBadItemsAll:“zz”']);
  const many = Array.from({ length: MAX_WHATIFS + 5 }, (_, i) => `t2@${i}`).join(',');
  const kept = [];
  const items = readWhatIfUrl(hashOf(many), kept);
  assert.equal(items.length, MAX_WHATIFS);
  assert.deepEqual(items.at(-1), { kind: 'temperature', step: MAX_WHATIFS - 1, tau: 2 });
  assert.match(kept[0], new RegExp(`${MAX_WHATIFS + 5} what-ifs; the first ${MAX_WHATIFS}`));
});

test('the worker is handed each kind as [step, argument] pairs', () => {
  const items = readWhatIfUrl(hashOf('m2@3,u2@5,p1@4,p1/3/0@0,t0.5@2'));
  assert.deepEqual(decodeOptions(items), {
    masks: [[3, 2]],
    unmasks: [[5, 2]],
    pins: [
      [4, 1],
      [0, [1, 3, 0]],
    ],
    temperatures: [[2, 0.5]],
  });
});

test('the head what-ifs read back as written, and the worker gets them only for a Transformer decoder', () => {
  const items = [
    { kind: 'headMask', step: 3, layer: 1, head: 2, token: 0 },
    { kind: 'headUnmask', step: 5, layer: 1, head: 2, token: 0 },
    { kind: 'headPin', step: 4, layer: 0, head: 3, token: 1 },
    { kind: 'headPin', step: 2, layer: 1, head: 0, weights: [1, 3, 0] },
    { kind: 'headOff', step: 1, layer: 0, head: 1 },
    { kind: 'headOn', step: 6, layer: 0, head: 1 },
    { kind: 'mask', step: 0, token: 2 },
  ];
  const field = writeWhatIfs(items);
  assert.equal(field, 'hm1.2.0@3,hu1.2.0@5,hp0.3.1@4,hp1.0.1/3/0@2,ho0.1@1,hn0.1@6,m2@0');
  const notes = [];
  assert.deepEqual(readWhatIfUrl(hashOf(field), notes), items);
  assert.deepEqual(notes, []);
  // Session.beam's BeamWhatIfs and engine-api's decode take this form: [step, layer, head, …]
  const session = { masks: [[0, 2]], unmasks: [], pins: [], temperatures: [] };
  assert.deepEqual(decodeOptions(items), {
    ...session,
    headMasks: [[3, 1, 2, 0]],
    headUnmasks: [[5, 1, 2, 0]],
    headPins: [
      [4, 0, 3, 1],
      [2, 1, 0, [1, 3, 0]],
    ],
    headOffs: [[1, 0, 1]],
    headOns: [[6, 0, 1]],
  });
  assert.deepEqual(decodeOptions(items, false), session);
});
