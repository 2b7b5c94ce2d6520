import assert from 'node:assert/strict';
import { test } from 'node:test';

import { extremeHeads } from '../../../../web/shared/lib/head-distances.js';

const m = (d) => ({ meanDistance: d });

test('the nearest and the farthest head, by layer then head, the first of equals', () => {
  // two layers of three heads; 0.2 twice (layer 0 head 2 first), 0.9 twice (layer 0 head 0 first)
  const heads = [
    [m(0.9), m(0.5), m(0.2)],
    [m(0.2), m(0.9), null],
  ];
  assert.deepEqual(extremeHeads(heads), {
    nearest: { l: 0, h: 2, d: 0.2 },
    farthest: { l: 0, h: 0, d: 0.9 },
  });
});

test('a head not measured is skipped; none measured is null', () => {
  assert.deepEqual(extremeHeads([[null, m(0.4)], [undefined]]), {
    nearest: { l: 0, h: 1, d: 0.4 },
    farthest: { l: 0, h: 1, d: 0.4 },
  });
  assert.equal(extremeHeads([[null], []]), null);
  assert.equal(extremeHeads(null), null);
});
