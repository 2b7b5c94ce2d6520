// The head what-ifs as edits of the decode's list (web/features/decode/transformer/head-whatifs.js):
// each sets its what-if at the step and head given, and setting it again takes it back.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  pinHead,
  toggleHeadMask,
  toggleHeadOff,
} from '../../../../web/features/decode/transformer/head-whatifs.js';

const mask = { kind: 'mask', step: 0, token: 1 };

test('masking a token for one head, then unmasking it there, adds one item each; again takes it back', () => {
  const masked = toggleHeadMask([mask], 2, 1, 3, 0, false);
  assert.deepEqual(masked, [mask, { kind: 'headMask', step: 2, layer: 1, head: 3, token: 0 }]);
  // the same click at the same step takes the mask back rather than adding an unmask
  assert.deepEqual(toggleHeadMask(masked, 2, 1, 3, 0, true), [mask]);
  // at a later step, where the engine's record says it is masked, it is unmasked from there on
  assert.deepEqual(toggleHeadMask(masked, 4, 1, 3, 0, true), [
    ...masked,
    { kind: 'headUnmask', step: 4, layer: 1, head: 3, token: 0 },
  ]);
  // another head's or token's mask is another item
  assert.equal(toggleHeadMask(masked, 2, 1, 2, 0, false).length, 3);
  assert.equal(toggleHeadMask(masked, 2, 1, 3, 1, false).length, 3);
});

test('a head is pinned on one token per step; pinning another replaces it, the same one unpins', () => {
  const one = pinHead([mask], 1, 0, 2, 3);
  assert.deepEqual(one, [mask, { kind: 'headPin', step: 1, layer: 0, head: 2, token: 3 }]);
  assert.deepEqual(pinHead(one, 1, 0, 2, 0), [
    mask,
    { kind: 'headPin', step: 1, layer: 0, head: 2, token: 0 },
  ]);
  assert.deepEqual(pinHead(one, 1, 0, 2, 3), [mask]);
  assert.equal(pinHead(one, 1, 1, 2, 3).length, 3, 'another layer’s head is pinned besides');
});

test('a head switched off from a step, and back on from a later one', () => {
  const off = toggleHeadOff([], 1, 1, 0, false);
  assert.deepEqual(off, [{ kind: 'headOff', step: 1, layer: 1, head: 0 }]);
  assert.deepEqual(toggleHeadOff(off, 1, 1, 0, true), []);
  assert.deepEqual(toggleHeadOff(off, 3, 1, 0, true), [
    ...off,
    { kind: 'headOn', step: 3, layer: 1, head: 0 },
  ]);
});
