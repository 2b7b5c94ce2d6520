// Compare's state (web/features/compare/compare.svelte.js) with the engine's wasm build: the same
// input through several models, each its engine decode; a model decoded again with the decode's
// what-ifs; and where two models' weights differ most, as the engine computes it.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { installBrowser, load, loadPageStates, startEngine } from '../../support/page.mjs';

await installBrowser();
const page = await loadPageStates();
const { api } = await startEngine();
const { readLink } = page.link;
const { compare, compareDiff, runCompare, runCompareDifferences } = await load(
  'features/compare/compare.svelte.js',
);
const { withWhatIfs } = page.whatif;

const names = ['zh-additive-bahdanau', 'zh-dot-bahdanau'];

test('each model’s decode of the input is its engine decode', async () => {
  readLink('#view=compare');
  await runCompare(names);
  for (const name of names) {
    const reference = await api.decode(name, 'tom chase jerry', { keep: false });
    assert.equal(compare[name].status, 'ready', name);
    assert.equal(compare[name].outputText, reference.outputText, name);
    assert.deepEqual(
      compare[name].steps.map((s) => Array.from(s.weights ?? [])),
      reference.steps.map((s) => Array.from(s.weights ?? [])),
      name,
    );
  }
  // the compared decodes keep no session in the engine
  assert.deepEqual(api.openSessions(), []);
});

test('where the weights differ most is the engine’s answer, kept per model', async () => {
  await runCompareDifferences(names[0], names);
  const reference = await api.weightDifference(
    compare[names[0]].steps.map((s) => s.weights),
    compare[names[1]].steps.map((s) => s.weights),
  );
  assert.deepEqual(compareDiff[names[1]].result, reference);
  assert.equal(compareDiff[names[0]], undefined, 'not compared with itself');
});

test('a model with the decode’s what-ifs decodes with them; an input the model cannot read is its error', async () => {
  readLink('#view=compare&wi=m0@0');
  const masked = withWhatIfs(names[0]);
  await runCompare([masked]);
  assert.equal(compare[masked].steps[0].weights?.[0], 0);
  readLink('#view=compare&input=');
  await runCompare([names[0]]);
  assert.equal(compare[names[0]].status, 'error');
});
