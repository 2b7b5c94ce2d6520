// The sandbox's state (web/features/sandbox/sandbox.svelte.js) with the engine's wasm build: the
// running example's numbers by hand, every score function's weights beside the chosen one's, a
// number too large for float32 refused before the engine is asked, the editor's rows, and the
// sandbox's part of the link.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { installBrowser, loadPageStates, startEngine } from '../../support/page.mjs';

await installBrowser();
const page = await loadPageStates();
await startEngine();
const { readLink, linkHash } = page.link;
const { sandbox, sandboxRequest, computeSandbox, sandboxKinds, addToken, removeToken, resetSandbox } =
  page.sandbox;
const { MIN_TOKENS, MAX_TOKENS } = page.sandbox;

const near = (actual, expected, what) =>
  assert.ok(Math.abs(actual - expected) < 1e-4, `${what}: ${actual} is not ${expected}`);

describe('the engine’s answers', () => {
  test('the running example under dot attention: scores 1.1, 0, 0 and weights e^1.1 / (e^1.1 + 2)', async () => {
    readLink('#view=sandbox');
    await computeSandbox(sandboxRequest());
    assert.equal(sandbox.error, '');
    assert.deepEqual(
      Array.from(sandbox.result.scores, (x) => Math.round(x * 1e6) / 1e6),
      [1.1, 0, 0],
    );
    const z = Math.exp(1.1) + 2;
    near(sandbox.result.weights[0], Math.exp(1.1) / z, 'Tom');
    near(sandbox.result.weights[1], 1 / z, 'chase');
    // each value has a 1 in its own slot and in the last: the context reads the weights back
    near(sandbox.result.context[0], sandbox.result.weights[0], 'c[0]');
    near(sandbox.result.context[3], 1, 'c[3] = Σ α');
    // beside it, every score function the engine has on the same inputs
    assert.deepEqual(
      sandbox.comparison.map((c) => c.kind),
      sandboxKinds(),
    );
    assert.deepEqual(Array.from(sandbox.comparison[0].weights ?? []), Array.from(sandbox.result.weights));
  });

  test('a masked token gets no weight; τ = 2 flattens the rest', async () => {
    readLink('#view=sandbox&t=2');
    sandbox.tokens[1].attend = false;
    await computeSandbox(sandboxRequest());
    assert.equal(sandbox.result.weights[1], 0);
    const z = Math.exp(1.1 / 2) + 1;
    near(sandbox.result.weights[0], Math.exp(1.1 / 2) / z, 'Tom at τ = 2');
    resetSandbox();
  });

  test('a number float32 cannot hold is refused before the engine, naming the token', async () => {
    readLink('#view=sandbox');
    sandbox.tokens[1].key = '0, 1e39, 0, 0';
    await computeSandbox(sandboxRequest());
    assert.match(sandbox.error, /^keys\[1\] \(“chase”\)\[1\] = 1\.000e39 is too large/);
    resetSandbox();
  });

  test('the engine’s own refusal names the token too', async () => {
    sandbox.tokens[2].value = '1, x';
    await computeSandbox(sandboxRequest());
    assert.match(sandbox.error, /values\[2\] \(“Jerry”\)/);
    resetSandbox();
  });
});

describe('the editor and the link', () => {
  test('rows are added up to 8 and removed down to 3', () => {
    readLink('#view=sandbox');
    while (sandbox.tokens.length < MAX_TOKENS) addToken();
    addToken();
    assert.equal(sandbox.tokens.length, MAX_TOKENS);
    assert.equal(sandbox.tokens.at(-1).key, '0, 0, 0, 0');
    for (const t of [...sandbox.tokens]) removeToken(t.id);
    assert.equal(sandbox.tokens.length, MIN_TOKENS);
  });

  test('restores the score function, temperature, g, query and tokens; writes back only what differs', () => {
    const tokens = JSON.stringify([
      ['Tom', '1, 2', '3', 1],
      ['Jerry', '0, 1', '1', 0],
    ]);
    const hash = `#view=sandbox&kind=additive&t=0.5&g=2&q=${encodeURIComponent('0, 1')}&tokens=${encodeURIComponent(tokens)}`;
    assert.deepEqual(readLink(hash), []);
    assert.deepEqual(
      [sandbox.kind, sandbox.temperature, sandbox.scale, sandbox.query],
      ['additive', 0.5, 2, '0, 1'],
    );
    assert.deepEqual(
      sandbox.tokens.map(({ label, key, value, attend }) => ({ label, key, value, attend })),
      [
        { label: 'Tom', key: '1, 2', value: '3', attend: true },
        { label: 'Jerry', key: '0, 1', value: '1', attend: false },
      ],
    );
    assert.equal(new URLSearchParams(linkHash().slice(1)).get('tokens'), tokens);
    readLink('#view=sandbox&t=1');
    assert.equal(linkHash(), '#view=sandbox&lang=en');
  });

  test('keeps the example for anything malformed', () => {
    for (const hash of [
      '#kind=softmax&t=-1&tokens=[1,2',
      `#tokens=${encodeURIComponent('[["a", 1, "2", 1]]')}`,
    ]) {
      readLink(`#view=sandbox`);
      readLink(`${hash}&view=sandbox`);
      assert.equal(linkHash(), '#view=sandbox&lang=en', hash);
    }
  });
});
