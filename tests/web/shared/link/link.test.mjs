// The page's link (web/shared/link/link.svelte.js) over the states the page loads with it: a link
// carries only what differs from what the page shows without it, or what its view names; every
// link, the long form the page used to write included, opens the same state once written again;
// a bad field keeps what the page shows and a note says so; a feature whose code comes later reads
// its fields from the address the page opened with; and the address is written once the person
// pauses, never while a view's code is on its way.
import assert from 'node:assert/strict';
import { describe, mock, test } from 'node:test';
import { installBrowser, loadPageStates } from '../../support/page.mjs';

await installBrowser({ languages: ['en-GB', 'zh-CN'] });
const page = await loadPageStates();
const { readLink, linkHash, linkValues, declareLink, openLink, syncLink, flushLink } = page.link;
const { keepLinkWhile, dropPendingLink, URL_DELAY } = page.link;
const { choice } = page.choice;
const { sandbox } = page.sandbox;
const { locale } = page.locale;

/** readLink, asserting the link asks for nothing the page cannot show; the hash the page writes then. */
function opened(hash) {
  const notes = readLink(hash);
  assert.deepEqual(notes.map(String), [], hash);
  return linkHash();
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

describe('reading and writing', () => {
  test('every former link opens the same state once the page writes it again, in a shorter link', () => {
    for (const link of oldLinks) {
      const written = opened(link);
      assert.equal(opened(written), written, link);
      // (the language is always written: a shared link opens in the language it was copied in)
      assert.ok(written.replace(/&lang=\w+/, '').length <= link.length, `${written} is longer than ${link}`);
    }
  });

  test('a link of the Decode view carries no Sandbox fields nobody edited', () => {
    assert.equal(
      opened(oldLinks[0]),
      '#view=decode&task=zh&model=additive-bahdanau&input=tom+chase+jerry&lang=en',
    );
    // an edited Sandbox goes with the link whatever the view, so a reload keeps the edit
    sandbox.kind = 'general';
    sandbox.temperature = 2;
    const fields = new URLSearchParams(linkHash().slice(1));
    assert.equal(fields.get('kind'), 'general');
    assert.equal(fields.get('t'), '2');
    assert.equal(fields.has('q'), false);
    assert.equal(fields.has('tokens'), false);
  });

  test('a view that shows no decode leaves the default task, model, input and beam width out', () => {
    assert.equal(opened('#view=sandbox'), '#view=sandbox&lang=en');
    // the task's first example is what a link without an input opens for another task
    assert.equal(opened('#view=train&task=dates'), '#view=train&task=dates&lang=en');
    choice.input = 'june 3, 1999';
    assert.equal(linkHash(), '#view=train&task=dates&input=june+3%2C+1999&lang=en');
    // the Beam view names its beam width, the decoding views their task, model and input
    const beam = new URLSearchParams(opened('#view=beam').slice(1));
    assert.deepEqual([...beam.keys()], ['view', 'task', 'model', 'input', 'k', 'lang']);
  });

  test('the fields keep one order whatever the order in the link', () => {
    readLink('#lw=2&tour=2&bwi=0&wi=m1@0&force=0:3&step=1&lang=zh&view=beam');
    assert.equal(
      linkHash(),
      '#view=beam&task=zh&model=additive-bahdanau&input=tom+chase+jerry&step=1&force=0%3A3&k=3&lang=zh&wi=m1%400&bwi=0&tour=2&lw=2',
    );
    readLink('');
  });

  test('without a lang= the page speaks the first of the person’s languages', () => {
    readLink('#view=decode&lang=zh');
    assert.equal(locale.lang, 'zh');
    readLink('#view=decode');
    assert.equal(locale.lang, 'en'); // en-GB first (installBrowser)
    // a language the page has not: the person's, and a note says so
    assert.deepEqual(readLink('#view=decode&lang=xx').map(String), [
      "The link's lang=xx is not one of en, zh; using en.",
    ]);
    assert.equal(locale.lang, 'en');
  });

  test('a bad field keeps what the page shows, and a note says what was asked and what is shown', () => {
    const notes = readLink('#view=nope&task=fr&model=dot&step=-1&force=a:b,3&k=99&tour=x');
    assert.equal(linkHash(), '#view=decode&task=zh&model=additive-bahdanau&input=tom+chase+jerry&lang=en');
    assert.deepEqual(notes.map(String), [
      'There is no view “nope”; showing Decode.',
      'There is no task “fr” (the tasks are zh, dates, reverse); showing English → Chinese.',
      'There is no model “dot” (a model is score-style, e.g. additive-bahdanau); showing additive-bahdanau.',
      'The step “-1” is not a step number (1 is step=0); showing step 1.',
      'Some forced tokens in the link are not step:token pairs (“a:b,3”); decoding greedily.',
      'The beam width “99” is not 1 to 8; showing 3 beams.',
      'There is no tour stop “x” (the stops are 1 to 9); the tour stays closed.',
    ]);
    // a note is written in the language it is shown in
    locale.lang = 'zh';
    assert.match(String(notes[0]), /^没有 “nope” 这个视图/);
    locale.lang = 'en';
  });

  test('linkValues gives a link’s values without setting them', () => {
    readLink('#view=decode');
    const values = linkValues('#view=compare&task=dates&model=cosine-luong', ['view', 'text']);
    assert.equal(values.view, 'compare');
    assert.deepEqual(values.model, { score: 'cosine', style: 'luong', encoder: 'gru', decoder: 'gru' });
    assert.equal(values.input, '29 november 2026');
    assert.equal(choice.task, 'zh');
  });
});

describe('a feature that loads later, and the writes', () => {
  test('its fields come from the address the page opened with, in the link’s order', () => {
    openLink('#view=listen&late=7&lang=en', { replace() {}, current: () => '' });
    const late = { n: 0 };
    declareLink('listen', [
      {
        key: 'late',
        get: () => late.n,
        set: (n) => (late.n = n),
        parse: (text, now) => ({ value: Number(text) || now }),
      },
    ]);
    assert.equal(late.n, 7);
    assert.equal(linkHash(), '#view=listen&lang=en&late=7');
    late.n = 0; // its value without the field: left out
    assert.equal(linkHash(), '#view=listen&lang=en');
  });

  test('the hash is written soon after a change, at most every URL_DELAY ms, and held while a view’s code is on its way', async () => {
    const written = [];
    let address = '#view=decode';
    openLink(address, { replace: (hash) => written.push((address = hash)), current: () => address });
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      page.view.page.view = 'compare';
      syncLink();
      page.view.page.view = 'beam';
      syncLink();
      mock.timers.tick(URL_DELAY - 1);
      assert.deepEqual(written, []);
      mock.timers.tick(1);
      assert.equal(written.length, 1);
      assert.match(written[0], /^#view=beam&/);

      let arrive = () => {};
      keepLinkWhile(new Promise((resolve) => (arrive = resolve)));
      page.view.page.view = 'sandbox';
      syncLink();
      mock.timers.tick(10 * URL_DELAY);
      assert.equal(written.length, 1, 'not written while a view’s code is loading');
      arrive();
      await new Promise((resolve) => setImmediate(resolve));
      mock.timers.tick(URL_DELAY);
      assert.equal(written.length, 2);
      assert.match(written[1], /^#view=sandbox&/);

      // a state that changes all the time (a run training) still reaches the address every
      // URL_DELAY ms or so, and its last state last: a reload never opens one long gone
      for (let i = 0; i < 10; i++) {
        page.view.page.view = i % 2 ? 'compare' : 'beam';
        syncLink();
        mock.timers.tick(100);
      }
      assert.equal(written.length, 2 + 3, 'three writes in the second of changes');
      mock.timers.tick(URL_DELAY);
      assert.equal(written.length, 6);
      assert.match(written[5], /^#view=compare&/);

      // the person edits the address: a write still waiting is dropped
      page.view.page.view = 'decode';
      syncLink();
      dropPendingLink();
      mock.timers.tick(URL_DELAY);
      flushLink();
      assert.equal(written.length, 6);

      // a link followed while a write waits, the write due before its hashchange event: the
      // address is not written back to the old state (the event then reloads from the link)
      page.view.page.view = 'beam';
      syncLink();
      address = '#view=decode&task=dates';
      mock.timers.tick(URL_DELAY);
      assert.equal(written.length, 6);
      assert.equal(address, '#view=decode&task=dates');
    } finally {
      mock.timers.reset();
    }
  });
});
