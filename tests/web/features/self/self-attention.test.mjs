// The self-attention view's state (web/features/self/self-attention.svelte.js) with the engine's
// wasm build: the input through the task's Transformer-encoder model, every layer and head, the
// decoder's cross-attention, and the layer, head and query token in the link (on that view only).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { installBrowser, loadPageStates, startEngine } from '../../support/page.mjs';

await installBrowser();
const page = await loadPageStates();
const { api } = await startEngine();
const { readLink, linkHash } = page.link;
const { selfAttention, runSelfAttention } = page.self;

test('the layers are the engine’s, and the link’s layer, head and token are kept within them', async () => {
  assert.deepEqual(readLink('#view=self&sa=garbage').map(String), [
    'The self-attention choice “garbage” is not layer.head.token (whole numbers from 0); showing 0.0.0.',
  ]);
  page.notes.linkNotes.list = [];
  readLink('#view=self&sa=1.3.99');
  await runSelfAttention();
  // the link's token past the input is said, not replaced silently
  assert.deepEqual(page.notes.linkNotes.list.map(String), [
    'The link’s sa=1.3.99 asks for more than this model has (2 layers, 4 heads, 3 tokens, each from 0); showing 1.3.2.',
  ]);
  assert.equal(selfAttention.status, 'ready');
  assert.equal(selfAttention.name, 'zh-additive-bahdanau-transformer');
  const reference = await api.selfAttention(selfAttention.name, 'tom chase jerry');
  assert.deepEqual(selfAttention.sourceTokens, reference.sourceTokens);
  assert.deepEqual(
    Array.from(selfAttention.layers[1].weights.data),
    Array.from(reference.layers[1].weights.data),
  );
  assert.equal(selfAttention.cross.length, reference.cross.length);
  assert.deepEqual([selfAttention.layer, selfAttention.head, selfAttention.token], [1, 3, 2]);
  assert.match(linkHash(), /&sa=1\.3\.2(&|$)/);
  page.view.page.view = 'decode';
  assert.doesNotMatch(linkHash(), /sa=/);
});

test('a task without a Transformer-encoder model says so', async () => {
  readLink('#view=self&task=reverse');
  await runSelfAttention();
  assert.equal(selfAttention.status, 'error');
  assert.match(selfAttention.error, /Reverse letters/);
});
