// Models kept before their digests were recorded (web/shared/models/trained.svelte.js), over an
// in-memory IndexedDB: the same bytes kept or loaded again are that old entry, which gets its
// digest from its bytes once and is written back with it.
import 'fake-indexeddb/auto';

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { installBrowser, load, loadPageStates } from '../../support/page.mjs';
import { keptModel } from '../../support/kept-model.mjs';

await installBrowser();
const page = await loadPageStates();
const { saved, keepModel, contentDigest } = page.trained;
const { listSaved, saveModel } = await load('shared/models/saved-models.js');

test('an entry kept without a digest is matched by its bytes, and keeps the digest it gets', async () => {
  const [oldBytes, otherBytes] = [new TextEncoder().encode('abc'), new TextEncoder().encode('abd')];
  const old = keptModel('kept-long-ago', { bytes: 3 });
  const other = keptModel('another-old-one', { bytes: 3 });
  await saveModel(old, oldBytes);
  await saveModel(other, otherBytes);
  saved.list = (await listSaved()).models;
  assert.deepEqual(
    saved.list.map((m) => m.digest),
    [undefined, undefined],
  );

  const kept = await keepModel(keptModel('trained-again', { origin: 'file' }), oldBytes.slice());
  // SHA-256("abc"), FIPS 180-2's first example
  const digest = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
  assert.deepEqual(kept, { ...old, digest });
  assert.equal(await contentDigest(oldBytes), digest);
  // no second entry: the old one written back with its digest, in its place; the search stopped
  // there, so the other old one's bytes were not read
  assert.deepEqual(
    (await listSaved()).models.map((m) => [m.id, m.digest]),
    [
      ['kept-long-ago', digest],
      ['another-old-one', undefined],
    ],
  );
  assert.deepEqual(
    saved.list.map((m) => m.id),
    ['kept-long-ago', 'another-old-one'],
  );

  // bytes that match no digest: every old entry gets its digest on the way, and the new bytes are
  // a new entry with theirs
  const fresh = keptModel('fresh', { origin: 'file' });
  const added = await keepModel(fresh, new TextEncoder().encode('xyz'));
  assert.equal(added?.id, 'fresh');
  assert.equal(added?.digest, await contentDigest(new TextEncoder().encode('xyz')));
  assert.deepEqual(
    (await listSaved()).models.map((m) => [m.id, m.digest]),
    [
      ['kept-long-ago', digest],
      ['another-old-one', await contentDigest(otherBytes)],
      ['fresh', added?.digest],
    ],
  );
  assert.deepEqual(
    saved.list.map((m) => m.id),
    ['kept-long-ago', 'another-old-one', 'fresh'],
  );
});
