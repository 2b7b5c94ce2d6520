// The guided tour (web/features/tour/): its stops, setting the page to a stop through the link as
// a shared link would, resuming at the stop last seen, its texts in both languages and the numbers
// they cite, without a browser.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';

import { installBrowser, load, loadPageStates } from '../../support/page.mjs';

const stored = await installBrowser();
const page = await loadPageStates();
const { readLink, linkHash } = page.link;
const { choice } = page.choice;
const { stepper, output } = page.decode;
const { selfAttention } = page.self;
const { sandbox } = page.sandbox;
const { linkNotes } = page.notes;
const { VIEWS } = page.view;
const { tour, goToStop, atStop, leaveTour, finishTour, readSavedStop, stopState } = page.tour;
const dict = (await load('features/tour/strings.js')).default;
const { formatNumber } = await load('shared/lib/format.js');
const { task: taskOf } = await load('shared/text/tasks.js');
const { argmax, beamText, comparedAs, lengthFacts, stepOf, stopFacts } = await load('features/tour/facts.js');
const { linkedStop, STOPS, stopHash } = await load('features/tour/stops.js');

const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const CJK = /[\u3400-\u9fff]/;

describe('the tour’s stops', () => {
  test('nine, in the articles’ order, each with its own id', () => {
    assert.deepEqual(
      STOPS.map((s) => s.id),
      ['fixed', 'length', 'stages', 'compare', 'styles', 'sandbox', 'self', 'bridge', 'beam'],
    );
  });

  test('every stop opens a view of the page', () => {
    for (const stop of STOPS) assert.ok(VIEWS.includes(stop.link.view), `${stop.id}: ${stop.link.view}`);
  });

  test('every stop sets the page as its link says, without a note, and the page is then at the stop', () => {
    for (const [i, stop] of STOPS.entries()) {
      readLink('#view=sandbox&kind=general&sa=2.1.1&reveal=1&lang=en'); // somewhere else first
      linkNotes.list = [];
      goToStop(i);
      const link = stop.link;
      assert.deepEqual(linkNotes.list.map(String), [], stop.id);
      assert.equal(page.view.page.view, link.view, stop.id);
      assert.equal(choice.task, link.task, stop.id);
      if (link.model) {
        const name = `${choice.score}-${choice.style}${choice.encoder === 'transformer' ? '-transformer' : ''}`;
        assert.equal(name, link.model, stop.id);
        // a shipped checkpoint, so the page shows this model and not the nearest one
        const file = new URL(
          `../../../../web/models/${link.task}-${link.model}.safetensors`,
          import.meta.url,
        );
        assert.ok(existsSync(file), `${stop.id}: ${file.pathname} is shipped`);
      }
      assert.equal(choice.input, link.input ?? taskOf(link.task).examples[0], stop.id);
      assert.equal(stepper.step, Number(link.step ?? 0), stop.id);
      assert.equal(output.reveal, link.reveal === '1', stop.id);
      // the layers and the sandbox only where the stop names them
      const sa = [selfAttention.layer, selfAttention.head, selfAttention.token];
      assert.deepEqual(sa, link.sa ? link.sa.split('.').map(Number) : [2, 1, 1], stop.id);
      assert.equal(sandbox.kind, stop.sandbox ? 'dot' : 'general', stop.id);
      if (link.k) assert.equal(choice.beamWidth, Number(link.k), stop.id);
      assert.ok(atStop(i), stop.id);
      assert.deepEqual(stopState(i).state.view, link.view);
    }
  });

  test('the page moved away from the stop is no longer at it; leaving keeps the page as it is', () => {
    goToStop(2);
    assert.ok(atStop());
    choice.input = 'the cat ate its fish';
    assert.ok(!atStop());
    leaveTour();
    assert.equal(tour.open, false);
    assert.equal(choice.input, 'the cat ate its fish');
  });

  test('the link names the open stop; tour=N opens it, and alone sets the page to it', () => {
    goToStop(4);
    assert.match(linkHash(), /&tour=5(&|$)/);
    leaveTour();
    assert.doesNotMatch(linkHash(), /tour=/);
    readLink('#tour=3');
    assert.equal(tour.open, true);
    assert.equal(tour.stop, 2);
    assert.ok(atStop());
    // a link copied inside the tour holds the whole state already: the stop does not reset it
    readLink('#view=decode&task=dates&tour=3');
    assert.equal(choice.task, 'dates');
    const notes = readLink('#view=decode&tour=10');
    assert.equal(tour.open, false);
    assert.deepEqual(notes.map(String), [
      'There is no tour stop “10” (the stops are 1 to 9); the tour stays closed.',
    ]);
  });

  test('a first visit is pointed to the tour until it is started or dismissed, and only then', () => {
    const { readWelcome, dismissWelcome } = page.tour;
    stored.delete('apg-welcomed');
    finishTour();
    readWelcome(true);
    assert.equal(tour.welcome, true);
    // a link is no first visit
    readWelcome(false);
    assert.equal(tour.welcome, false);
    // starting the tour answers it, for good
    readWelcome(true);
    goToStop(0);
    assert.equal(tour.welcome, false);
    leaveTour();
    finishTour();
    readWelcome(true);
    assert.equal(tour.welcome, false);
    // as does "not now"
    stored.delete('apg-welcomed');
    readWelcome(true);
    assert.equal(tour.welcome, true);
    dismissWelcome();
    assert.equal(stored.get('apg-welcomed'), '1');
    readWelcome(true);
    assert.equal(tour.welcome, false);
    // a tour begun earlier (a stop to resume) is no first visit either
    stored.delete('apg-welcomed');
    goToStop(3);
    leaveTour();
    stored.delete('apg-welcomed');
    readWelcome(true);
    assert.equal(tour.welcome, false);
    finishTour();
  });

  test('the last stop seen is kept in this browser, to resume after a reload', () => {
    goToStop(5);
    assert.equal(stored.get('apg-tour-stop'), '5');
    leaveTour();
    tour.last = -1;
    readSavedStop();
    assert.equal(tour.last, 5);
    finishTour();
    assert.equal(stored.has('apg-tour-stop'), false);
    readSavedStop();
    assert.equal(tour.last, -1);
  });

  test('the tour is on “tom chase jerry” wherever it translates', () => {
    for (const stop of STOPS)
      if (stop.link.task === 'zh') assert.equal(stop.link.input, 'tom chase jerry', stop.id);
  });

  test('a stop’s own link is #tour=N from 1; another number or text is no stop', () => {
    assert.equal(stopHash(2), '#tour=3');
    STOPS.forEach((_, i) => assert.equal(linkedStop(stopHash(i)), i));
    assert.equal(linkedStop('#view=decode&tour=8&lang=zh'), 7);
    assert.equal(linkedStop('#view=decode'), null);
    assert.equal(linkedStop(''), null);
    for (const bad of ['0', '10', '-1', 'x', '', '3.5', '1e1', '0003'])
      assert.ok(Number.isNaN(linkedStop(`#tour=${bad}`)), bad);
  });
});

describe('the tour’s texts', () => {
  test('the same keys in English and Chinese, none empty, the Chinese in Chinese', () => {
    assert.deepEqual(Object.keys(dict.zh).sort(), Object.keys(dict.en).sort());
    for (const [key, text] of Object.entries(dict.en)) {
      assert.ok(text.trim().length > 0 || key === 'listSeparator', key);
      assert.ok(dict.zh[key].trim().length > 0, key);
      if (key !== 'listSeparator') assert.match(dict.zh[key], CJK, `zh ${key}`);
    }
  });

  test('every stop has a title, a lead and the texts of its numbers, with the same {names} in both', () => {
    for (const { id } of STOPS) {
      const keys = [`${id}.title`, `${id}.lead`, `${id}.fact`];
      for (const key of keys) {
        assert.ok(dict.en[key], `en ${key}`);
        assert.ok(dict.zh[key], `zh ${key}`);
        assert.deepEqual(placeholders(dict.zh[key]), placeholders(dict.en[key]), key);
      }
    }
    for (const key of Object.keys(dict.en))
      assert.deepEqual(placeholders(dict.zh[key]), placeholders(dict.en[key]), key);
  });

  test('the leads cite no number of a model: those come from the engine', () => {
    for (const { id } of STOPS)
      for (const lang of ['en', 'zh'])
        assert.doesNotMatch(dict[lang][`${id}.lead`], /\d\.\d/, `${lang} ${id}.lead`);
  });
});

describe('the numbers a stop cites', () => {
  const step = (token, weights) => ({ token, weights: Float32Array.from(weights) });
  const decode = (name, input, steps, outputText) => ({
    status: 'ready',
    name,
    input,
    sourceTokens: ['tom', 'chase', 'jerry'],
    steps,
    outputText,
    session: 7,
  });

  test('argmax takes the first of equal largest values; stepOf the first step of a token', () => {
    assert.equal(argmax([0.2, 0.5, 0.5]), 1);
    assert.equal(argmax([]), -1);
    assert.equal(stepOf([{ token: '汤姆' }, { token: '追逐' }, { token: '汤姆' }], '汤姆'), 0);
    assert.equal(stepOf([{ token: '追逐' }], '汤姆'), -1);
  });

  test('the three stages: the step that writes 汤姆 and the source word with its largest weight', () => {
    const steps = [
      step('他', [0.5, 0.3, 0.2]),
      step('汤姆', [0.1, 0.25, 0.65]),
      step('</s>', [0.3, 0.3, 0.4]),
    ];
    const live = {
      decode: decode('zh-additive-bahdanau', 'tom chase jerry', steps, '他 汤姆'),
      input: 'tom chase jerry',
    };
    assert.deepEqual(stopFacts('stages', live), {
      step: 2,
      token: '汤姆',
      word: 'jerry',
      weight: formatNumber(Float32Array.of(0.65)[0]),
      output: '他 汤姆',
    });
    // another model's or another input's decode: nothing is cited
    assert.equal(stopFacts('stages', { ...live, decode: { ...live.decode, name: 'zh-dot-bahdanau' } }), null);
    assert.equal(stopFacts('stages', { ...live, input: 'tom chase' }), null);
    assert.equal(stopFacts('styles', live), null);
    assert.equal(stopFacts('stages', { ...live, decode: { ...live.decode, status: 'running' } }), null);
  });

  test('self-attention: the row of the chosen layer, head and query token', () => {
    // 2 heads × 3 × 3: head 1's row of token 1 is [0.2, 0.1, 0.7]
    const data = Float32Array.from([...Array(9).fill(1 / 3), 0.6, 0.3, 0.1, 0.2, 0.1, 0.7, 0.5, 0.25, 0.25]);
    const selfAttention = {
      status: 'ready',
      input: 'tom chase jerry',
      sourceTokens: ['tom', 'chase', 'jerry'],
      layers: [{}, { weights: { data, shape: [2, 3, 3] } }],
      layer: 1,
      head: 1,
      token: 1,
    };
    assert.deepEqual(stopFacts('self', { selfAttention, input: 'tom chase jerry' }), {
      token: 'chase',
      word: 'jerry',
      weight: formatNumber(Float32Array.of(0.7)[0]),
      layer: 2,
      head: 2,
    });
  });

  test('from Bahdanau to the Transformer: the nearest and the farthest head, for this input only', () => {
    const keyOf = (name, input = 'tom chase jerry') => JSON.stringify([name, input, []]);
    const compare = {
      'zh-additive-bahdanau': { status: 'ready', key: keyOf('zh-additive-bahdanau') },
      'zh-transformer': { status: 'ready', key: keyOf('zh-transformer') },
    };
    const d = (meanDistance) => ({ meanDistance });
    // layer 2, head 1 is nearest; two heads share the largest distance: the first of them is cited
    const heads = [
      [d(0.5), d(0.75), null],
      [d(0.25), d(0.5), d(0.75)],
    ];
    const headDiffs = {
      'zh-transformer': { key: `${keyOf('zh-additive-bahdanau')}|${keyOf('zh-transformer')}`, heads },
    };
    const live = { compare, headDiffs, input: 'tom chase jerry' };
    assert.deepEqual(stopFacts('bridge', live), {
      layer: 2,
      head: 1,
      d: formatNumber(0.25),
      farLayer: 1,
      farHead: 2,
      far: formatNumber(0.75),
    });
    // distances of another input, or not computed yet, are not cited
    assert.equal(stopFacts('bridge', { ...live, input: 'tom chased jerry' }), null);
    assert.equal(
      stopFacts('bridge', {
        ...live,
        headDiffs: { 'zh-transformer': { ...headDiffs['zh-transformer'], heads: null } },
      }),
      null,
    );
    assert.equal(
      stopFacts('bridge', { ...live, headDiffs: { 'zh-transformer': { key: 'older', heads } } }),
      null,
    );
  });

  test('beam search: the best beam’s words without the end token, its score and the greedy output', () => {
    const nodes = [
      { id: 0, token: '汤姆' },
      { id: 1, token: '追' },
      { id: 2, token: '杰瑞' },
      { id: 3, token: '</s>' },
    ];
    assert.equal(beamText(nodes, [0, 1, 2, 3], ' '), '汤姆 追 杰瑞');
    const d = decode('zh-additive-bahdanau', 'tom chase jerry', [], '汤姆 追逐 杰瑞');
    const beam = { status: 'ready', key: '7|3', result: { nodes, beams: [[0, 1, 2, 3]], scores: [-0.25] } };
    const live = { decode: d, beam, beamWidth: 3, input: 'tom chase jerry' };
    assert.deepEqual(stopFacts('beam', live), {
      k: 3,
      best: '汤姆 追 杰瑞',
      score: '−0.250',
      greedy: '汤姆 追逐 杰瑞',
    });
    // beams of an earlier width are not cited as this one's
    assert.equal(stopFacts('beam', { ...live, beamWidth: 4 }), null);
  });

  test('the sandbox: each label with its weight, and the label with the most', () => {
    const sandbox = {
      kind: 'dot',
      result: { kind: 'dot', weights: Float32Array.of(0.6, 0.2, 0.2) },
      shown: { labels: ['Tom', 'chase', 'Jerry'] },
    };
    const facts = stopFacts('sandbox', { sandbox, listSeparator: ', ' });
    assert.deepEqual(facts, { weights: 'Tom 0.600, chase 0.200, Jerry 0.200', top: 'Tom' });
    assert.equal(
      stopFacts('sandbox', { sandbox: { ...sandbox, kind: 'cosine' }, listSeparator: ', ' }),
      null,
    );
  });

  test('a compared decode counts when it is the plain decode of the input by that model', () => {
    const input = 'tom chase jerry';
    assert.ok(comparedAs(JSON.stringify(['zh-dot-bahdanau', input]), 'zh-dot-bahdanau', input));
    assert.ok(comparedAs(JSON.stringify(['zh-dot-bahdanau', input, []]), 'zh-dot-bahdanau', input));
    assert.ok(
      !comparedAs(JSON.stringify(['zh-dot-bahdanau', input, [{ mask: 1 }]]), 'zh-dot-bahdanau', input),
    );
    assert.ok(!comparedAs(JSON.stringify(['zh-dot-bahdanau', 'tom chase']), 'zh-dot-bahdanau', input));
    assert.ok(!comparedAs(JSON.stringify(['zh-cosine-bahdanau', input]), 'zh-dot-bahdanau', input));
    assert.ok(!comparedAs('not json', 'zh-dot-bahdanau', input));
  });

  test('compare: how many of the six score functions give the chosen model’s output', () => {
    const input = 'tom chase jerry';
    const row = (name, outputText, status = 'ready') => [
      name,
      { key: JSON.stringify([name, input]), status, outputText },
    ];
    const compare = Object.fromEntries([
      row('zh-dot-bahdanau', '汤姆 追逐 杰瑞'),
      row('zh-additive-bahdanau', '汤姆 追逐 杰瑞'),
      row('zh-cosine-bahdanau', '汤姆 追 杰瑞'),
    ]);
    assert.deepEqual(stopFacts('compare', { compare, input }), {
      output: '汤姆 追逐 杰瑞',
      same: 2,
      total: 3,
    });
    assert.equal(
      stopFacts('compare', {
        compare: { ...compare, ...Object.fromEntries([row('zh-dot-bahdanau', '', 'running')]) },
        input,
      }),
      null,
    );
    assert.equal(stopFacts('compare', { compare, input: 'tom chase' }), null);
  });
});
