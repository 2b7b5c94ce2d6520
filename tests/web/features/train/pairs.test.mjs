// Own pairs in the page (web/features/train/pairs.svelte.js): a text, a paste or a file over the
// trainer's byte limit is refused at once by its size alone (the refusal shows before any line is
// looked at or the engine is asked), and its bytes are counted as UTF-8.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { installBrowser, load } from '../../support/page.mjs';

await installBrowser();
const { pairs, setPairsText, refusePaste, loadPairsFile, utf8Bytes } = await load(
  'features/train/pairs.svelte.js',
);
const { trainer } = await load('features/train/train.svelte.js');

// The trainer's limit as its info reports it (core/limits.hpp's max_pairs_bytes).
trainer.limits = /** @type {any} */ ({ maxBytes: 2_000_000 });
const megabytes = (n) => 'ab\tba\n'.repeat(Math.ceil((n * 1e6) / 6));

test('bytes are counted as UTF-8: one, two, three and four a character', () => {
  assert.equal(utf8Bytes('a'), 1);
  assert.equal(utf8Bytes('é'), 2);
  assert.equal(utf8Bytes('汤'), 3);
  assert.equal(utf8Bytes('😀'), 4);
  assert.equal(utf8Bytes('a汤😀é\t'), 11);
  assert.equal(utf8Bytes('汤'.repeat(700_000)), 2_100_000);
});

test('a 3 MB text is refused synchronously, by its size, and the box keeps the text before it', () => {
  setPairsText('a\tb\n');
  setPairsText(megabytes(3));
  assert.equal(pairs.status, 'error', 'refused at once, not after the engine read it');
  assert.equal(pairs.failure?.code, 'limit_exceeded');
  assert.equal(pairs.failure?.details.limit, 2_000_000);
  assert.equal(pairs.failure?.details.length, megabytes(3).length);
  assert.match(pairs.failure?.message ?? '', /at most 2,000,000 bytes/);
  assert.equal(pairs.text, 'a\tb\n');
});

test('700,000 Chinese characters are 2.1 MB of UTF-8: over the limit though under it in characters', () => {
  setPairsText(`${'汤'.repeat(700_000)}\t姆`);
  assert.equal(pairs.status, 'error');
  assert.equal(pairs.failure?.details.length, 2_100_004);
});

test('a paste over the limit is refused before it reaches the box; one within it is let through', () => {
  assert.equal(refusePaste(megabytes(3)), true);
  assert.match(pairs.failure?.message ?? '', /^The pasted text has 3,000,000 bytes/);
  assert.equal(refusePaste('tom chase jerry\t汤姆 追逐 杰瑞\n'), false);
});

test('a file over the limit is refused by its size without being read', async () => {
  let read = false;
  const file = /** @type {any} */ ({
    name: 'big.tsv',
    size: 3_000_000,
    text: async () => ((read = true), ''),
  });
  await loadPairsFile(file);
  assert.equal(read, false);
  assert.equal(pairs.status, 'error');
  assert.match(pairs.failure?.message ?? '', /^big\.tsv has 3,000,000 bytes/);
});
