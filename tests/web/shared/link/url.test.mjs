// The page's link (web/state/url.js): a link carries only what differs from the page's defaults or
// what its view shows, and every link, the long form the page used to write included, opens the
// same state once written again.
import assert from 'node:assert/strict';
import { test } from 'node:test';

// url.js writes through history.replaceState; initial.js reads the address once, at import
let address = '';
globalThis.location = /** @type {any} */ ({
  get hash() {
    return address;
  },
});
globalThis.history = /** @type {any} */ ({ replaceState: (_state, _title, hash) => (address = hash) });

const { readDecodeUrl, readUrl, writeUrl, flushUrl, hashParts } =
  await import('../../../../web/shared/link/url.js');
const { decodeDefaults } = await import('../../../../web/shared/text/initial.js');
const { exampleSandbox } = await import('../../../../web/features/sandbox/example.js');

const defaults = { decode: decodeDefaults, sandbox: exampleSandbox() };

/** The state a hash opens (the decode's and the sandbox's fields), as the page reads it. */
function opened(hash) {
  const notes = [];
  const decode = readDecodeUrl(hash, decodeDefaults, notes);
  const sandbox = readUrl(hash, exampleSandbox());
  assert.deepEqual(notes.map(String), [], hash);
  return { decode, sandbox };
}

/** The hash the page writes for that state. */
function written({ decode, sandbox }) {
  writeUrl({ view: decode.view, ...sandbox }, decode, defaults);
  flushUrl();
  return address;
}

// The page's former links wrote every field, whatever the view.
const oldLinks = [
  '#view=decode&task=zh&model=additive-bahdanau&input=tom+chase+jerry&step=0&k=3&kind=dot&t=1&q=1%2C+0%2C+1%2C+0&tokens=%5B%5B%22Tom%22%2C%220.6%2C+0.2%2C+0.5%2C+0.1%22%2C%221%2C+0%2C+0%2C+1%22%2C1%5D%2C%5B%22chase%22%2C%220%2C+1%2C+0%2C+0.5%22%2C%220%2C+1%2C+0%2C+1%22%2C1%5D%2C%5B%22Jerry%22%2C%220.5%2C+0.3%2C+-0.5%2C+0.8%22%2C%220%2C+0%2C+1%2C+1%22%2C1%5D%5D&lang=en',
  '#view=sandbox&task=dates&model=general-luong&input=29+november+2026&step=4&force=2%3A17&k=5&kind=scaled_cosine&t=0.5&g=3&q=1%2C+2%2C+3%2C+4&tokens=%5B%5B%22a%22%2C%221%2C+0%2C+0%2C+0%22%2C%220%2C+1%2C+0%2C+0%22%2C0%5D%5D',
  '#view=train&task=reverse&model=dot-bahdanau&input=a+b+c&step=1&k=3&kind=dot&t=1&q=1%2C+0%2C+1%2C+0',
  '#view=caption&task=dates&model=additive-bahdanau&input=3%2F4%2F05&step=0&k=3&kind=cosine&t=2',
  '#view=beam&task=zh&model=additive-bahdanau-transformer&input=tom+chase+jerry&step=2&k=3&reveal=1',
  '#view=self&task=zh&model=additive-bahdanau&input=tom+chase+jerry&step=0&k=3&sa=1.2.0',
  '#view=length&task=dates&model=location-bahdanau&input=1%2F2%2F03&step=0&k=3',
];

test('every former link opens the same state once the page writes it again', () => {
  for (const link of oldLinks) {
    const state = opened(link);
    const again = written(state);
    const reopened = opened(again);
    // the self-attention view's token is in the link only on that view (as before)
    if (state.decode.view !== 'self') reopened.decode.selfAttention = state.decode.selfAttention;
    assert.deepEqual(reopened, state, `${link} → ${again}`);
    assert.ok(again.length <= link.length, `${again} is longer than ${link}`);
  }
});

test('a link of the Decode view carries no Sandbox fields nobody edited', () => {
  const hash = written(opened(oldLinks[0]));
  assert.equal(hash, '#view=decode&task=zh&model=additive-bahdanau&input=tom+chase+jerry');
  // an edited Sandbox goes with the link whatever the view, so a reload keeps the edit
  const state = opened(oldLinks[0]);
  state.sandbox.kind = 'general';
  state.sandbox.temperature = 2;
  const fields = new URLSearchParams(written(state).slice(1));
  assert.equal(fields.get('kind'), 'general');
  assert.equal(fields.get('t'), '2');
  assert.equal(fields.has('q'), false);
  assert.equal(fields.has('tokens'), false);
});

test('a view that shows no decode leaves the default task, model, input and beam width out', () => {
  const state = opened('#view=sandbox');
  assert.equal(written(state), '#view=sandbox');
  // the task's first example is what a link without an input opens for another task
  const dates = opened('#view=train&task=dates');
  assert.equal(written(dates), '#view=train&task=dates');
  dates.decode.input = 'june 3, 1999';
  assert.equal(written(dates), '#view=train&task=dates&input=june+3%2C+1999');
  // the Beam view names its beam width, the decoding views their task, model and input
  const beam = new URLSearchParams(written(opened('#view=beam')).slice(1));
  assert.deepEqual([...beam.keys()], ['view', 'task', 'model', 'input', 'k']);
});

test("another view's field is left out while it holds what its feature reads without it", () => {
  // as Listen's and Caption's state give theirs: [key, value, what the state reads without it]
  const listen = { phrase: 'how much wood would a woodchuck chuck', seed: 1 };
  hashParts.push(() => [
    ['say', listen.phrase, 'how much wood would a woodchuck chuck'],
    ['lseed', String(listen.seed), '1'],
    ['kept', 'always'],
  ]);
  const state = opened('#view=decode');
  assert.equal(
    written(state),
    '#view=decode&task=zh&model=additive-bahdanau&input=tom+chase+jerry&kept=always',
  );
  listen.seed = 9;
  assert.match(written(state), /&lseed=9&kept=always$/);
  const caption = [
    ['cap', 'dot', 'additive'],
    ['cstep', '0', '0'],
  ];
  writeUrl({ view: 'caption', ...state.sandbox }, { ...state.decode, caption }, defaults);
  flushUrl();
  assert.equal(address, '#view=caption&cap=dot&lseed=9&kept=always');
  hashParts.pop();
});
