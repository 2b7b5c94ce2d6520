// Beam search's state (web/features/beam/beam.svelte.js) with the engine's wasm build: the beams
// of the decode's session, with the decode's what-ifs unless the link asks for the model's own
// beams (bwi=0), searched once per decode, width and what-ifs.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { installBrowser, loadPageStates, startEngine } from '../../support/page.mjs';

await installBrowser();
const page = await loadPageStates();
const { api } = await startEngine();
const { readLink, linkHash } = page.link;
const { decode, runDecode } = page.decode;
const { beam, beamWhatIfs, runBeam } = page.beam;

test('the beams are the engine’s beam search of the decode’s session, of the chosen width', async () => {
  readLink('#view=beam&k=4');
  await runDecode();
  await runBeam();
  assert.equal(beam.status, 'ready');
  const reference = await api.beam(/** @type {number} */ (decode.session), 4);
  assert.deepEqual(beam.result?.scores, reference.scores);
  assert.equal(beam.result?.beams.length, 4);
});

test('with the decode’s what-ifs each beam gets them; bwi=0 searches the model’s own', async () => {
  readLink('#view=beam&wi=m0@0');
  await runDecode();
  await runBeam();
  const masked = beam.result;
  assert.equal(beamWhatIfs().length, 1);
  assert.ok(masked?.nodes.every((n) => n.weights[0] === 0));
  readLink('#view=beam&wi=m0@0&bwi=0');
  assert.match(linkHash(), /&bwi=0/);
  await runBeam();
  assert.deepEqual(beamWhatIfs(), []);
  assert.ok(beam.result?.nodes.some((n) => n.weights[0] > 0));
  readLink('#view=beam');
  assert.doesNotMatch(linkHash(), /bwi/, 'on (the default) is left out of the link');
});
