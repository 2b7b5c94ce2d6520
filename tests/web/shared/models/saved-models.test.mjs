// The trained models kept in the browser's IndexedDB (web/shared/models/saved-models.js), read and
// repaired through idb-keyval over an in-memory IndexedDB: the index is read entry by entry, a
// damaged entry (not an object, a field missing or wrong, an id listed twice) is set aside with
// its position and problem while the rest is listed, and removing it leaves the listed models and
// their bytes alone.
import 'fake-indexeddb/auto';

import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';

import { clear, createStore, get, set } from 'idb-keyval';

import {
  listSaved,
  readIndex,
  removeAllDamaged,
  removeDamaged,
  saveModel,
  savedBytes,
} from '../../../../web/shared/models/saved-models.js';
import { keptModel as model } from '../../support/kept-model.mjs';

const store = createStore('attention-playground', 'trained-models');

beforeEach(() => clear(store));

test('readIndex lists the whole entries and names each damaged one by position and problem', () => {
  const file = model('from-a-file', { task: '', score: '', style: '', step: null, origin: 'file' });
  const { models, damaged } = readIndex([
    model('a'),
    null,
    model('b', { heldoutExactMatch: 2 }),
    'zh-dot',
    model('a', { label: 'the same id again' }),
    file,
    [model('c')],
    model('', {}),
    model('d', { origin: 'elsewhere' }),
    model('e', { step: 1.5 }),
    model('f', { digest: 'not a sha-256' }),
    model('g', { digest: 'ab'.repeat(32) }),
  ]);
  assert.deepEqual(
    models.map((m) => m.id),
    ['a', 'from-a-file', 'g'],
  );
  assert.deepEqual(damaged, [
    { position: 1, id: null, problem: 'entry' },
    { position: 2, id: 'b', problem: 'heldoutExactMatch' },
    { position: 3, id: null, problem: 'entry' },
    { position: 4, id: 'a', problem: 'duplicate' },
    { position: 6, id: null, problem: 'entry' },
    { position: 7, id: null, problem: 'id' },
    { position: 8, id: 'd', problem: 'origin' },
    { position: 9, id: 'e', problem: 'step' },
    { position: 10, id: 'f', problem: 'digest' },
  ]);
  assert.deepEqual(readIndex({ not: 'a list' }), { models: [], damaged: [] });
  assert.deepEqual(readIndex(undefined), { models: [], damaged: [] });
});

test('100,000 entries are read in one pass: every other one damaged, each set aside once', () => {
  const list = Array.from({ length: 100_000 }, (_, i) => (i % 2 ? { id: `m${i}` } : model(`m${i}`)));
  const { models, damaged } = readIndex(list);
  assert.equal(models.length, 50_000);
  assert.equal(damaged.length, 50_000);
  assert.deepEqual(damaged[0], { position: 1, id: 'm1', problem: 'label' });
});

test('a damaged index in the store: the rest is listed, and removing an entry keeps the listed bytes', async () => {
  await saveModel(model('a'), new Uint8Array([1, 2, 3]));
  await saveModel(model('b'), new Uint8Array([4, 5, 6]));
  // another page (or a hand) wrote a second line for a, a broken line for c with its bytes, and null
  await set('bytes:c', new Uint8Array([7]), store);
  await set(
    'index',
    [...(await get('index', store)), model('a', { label: 'again' }), model('c', { bytes: -1 }), null],
    store,
  );

  const read = await listSaved();
  assert.deepEqual(
    read.models.map((m) => m.id),
    ['a', 'b'],
  );
  assert.deepEqual(read.damaged, [
    { position: 2, id: 'a', problem: 'duplicate' },
    { position: 3, id: 'c', problem: 'bytes' },
    { position: 4, id: null, problem: 'entry' },
  ]);

  // the duplicate's bytes are the listed a's: removing its line keeps them
  await removeDamaged(read.damaged[0]);
  assert.deepEqual(await savedBytes('a'), new Uint8Array([1, 2, 3]));
  const after = await listSaved();
  assert.deepEqual(
    after.damaged.map((d) => [d.position, d.id]),
    [
      [2, 'c'],
      [3, null],
    ],
  );
  // an entry read before the index changed is not the one now at its position: nothing is removed
  await removeDamaged(read.damaged[2]);
  assert.equal((await listSaved()).damaged.length, 2);

  // c is listed nowhere else: its bytes go with it
  await removeAllDamaged();
  assert.equal(await savedBytes('c'), null);
  const repaired = await listSaved();
  assert.deepEqual(repaired.damaged, []);
  assert.deepEqual(
    repaired.models.map((m) => m.id),
    ['a', 'b'],
  );
  assert.deepEqual(await savedBytes('b'), new Uint8Array([4, 5, 6]));
});

test('keeping a model over a damaged index keeps the other lines as they are', async () => {
  await set('index', [null, model('a')], store);
  await saveModel(model('b'), new Uint8Array([1]));
  const { models, damaged } = await listSaved();
  assert.deepEqual(
    models.map((m) => m.id),
    ['a', 'b'],
  );
  assert.deepEqual(damaged, [{ position: 0, id: null, problem: 'entry' }]);
});
