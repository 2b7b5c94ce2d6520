// latest(): of the requests of one slot, only the newest may land its answer.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { latest } from '../../../../web/shared/lib/latest.js';

test('an older request of the same slot is stale once a newer one starts', () => {
  const runs = latest();
  const first = runs();
  assert.equal(first(), true);
  const second = runs();
  assert.equal(first(), false);
  assert.equal(second(), true);
});

test('slots are independent: a request for one model leaves another model’s current', () => {
  const runs = latest();
  const a = runs('a');
  const b = runs('b');
  const a2 = runs('a');
  assert.deepEqual([a(), b(), a2()], [false, true, true]);
  assert.equal(latest()('a')(), true, 'each runner keeps its own requests');
});

test('answers arriving out of order: only the newest lands', async () => {
  const runs = latest();
  const landed = [];
  const request = async (value, delay) => {
    const current = runs();
    await new Promise((resolve) => setTimeout(resolve, delay));
    if (current()) landed.push(value);
  };
  await Promise.all([request('slow old', 30), request('fast new', 1)]);
  assert.deepEqual(landed, ['fast new']);
});
