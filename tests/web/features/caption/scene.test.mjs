// The Caption view's scene in the link: written and read back, each object checked against the
// engine's words and the image (its box inside), what is not a scene left out with a note; the
// spot a new object gets; the grid cells' names.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  cellName,
  describeScene,
  freeSpot,
  overlapsOther,
  readScene,
  writeScene,
} from '../../../../web/features/caption/scene.js';

const vocab = {
  shapes: ['circle', 'square', 'triangle', 'diamond'],
  colors: ['red', 'green', 'blue', 'yellow'],
  sizes: ['small', 'large'],
  radius: { small: 3, large: 6 },
  imageSize: 32,
  maxObjects: 3,
};
const scene = [
  { shape: 'circle', color: 'red', size: 'small', x: 16, y: 7 },
  { shape: 'square', color: 'blue', size: 'large', x: 14, y: 23 },
];

describe('the scene in the link', () => {
  test('reads back what it writes, and describes it in the engine’s words', () => {
    const text = writeScene(scene);
    assert.equal(text, 'circle.red.small.16.7_square.blue.large.14.23');
    const notes = [];
    assert.deepEqual(readScene(text, vocab, notes), scene);
    assert.deepEqual(notes, []);
    assert.equal(describeScene(scene), 'small red circle at 16,7; large blue square at 14,23');
  });
  test('leaves out objects with unknown words, broken numbers or a box outside the image', () => {
    const notes = [];
    const parts = [
      'circle.red.small.16.7',
      'hexagon.red.small.5.5', // no such shape
      'square.purple.large.14.23', // no such colour
      'square.blue.large.5.23', // box from -1: outside
      'square.blue.large.14.26', // box to 32: outside
      'circle.red.small.3.28', // box exactly inside: kept
      'circle.red.small.1.5e1',
    ];
    const read = readScene(parts.join('_'), { ...vocab, maxObjects: 8 }, notes);
    assert.deepEqual(read, [
      { shape: 'circle', color: 'red', size: 'small', x: 16, y: 7 },
      { shape: 'circle', color: 'red', size: 'small', x: 3, y: 28 },
    ]);
    assert.equal(notes.length, 5);
    assert.match(String(notes[0]), /hexagon\.red\.small\.5\.5/);
  });
  test('keeps at most maxObjects objects and says so; nothing usable gives null', () => {
    const notes = [];
    const four = Array.from({ length: 4 }, (_, k) => `circle.red.small.${4 + 6 * k}.16`).join('_');
    assert.equal(readScene(four, vocab, notes)?.length, 3);
    assert.match(String(notes.at(-1) ?? ''), /at most 3 objects/);
    assert.equal(readScene('', vocab, []), null);
    assert.equal(readScene('circle', vocab, []), null);
  });
  test('an object of the link that would cover an earlier one moves to the nearest free place, with a note', () => {
    // the large square's box is 14 ± 6 by 23 ± 6; a small circle (± 3) at 16,20 reaches into it
    const notes = [];
    const read = readScene('square.blue.large.14.23_circle.red.small.16.20', vocab, notes);
    // the reach is 6 + 3 = 9 each way, so the circle's centre must leave 5…23 × 14…32: straight
    // up to y = 13 is seven pixels, right to x = 24 eight
    assert.deepEqual(read, [
      { shape: 'square', color: 'blue', size: 'large', x: 14, y: 23 },
      { shape: 'circle', color: 'red', size: 'small', x: 16, y: 13 },
    ]);
    assert.equal(notes.length, 1);
    assert.match(
      String(notes[0]),
      /“circle\.red\.small\.16\.20” would cover part of another one.*\(16, 13\)/,
    );
    assert.ok(!overlapsOther(read.slice(0, 1), -1, 'small', 16, 13, vocab));
    assert.ok(overlapsOther(read.slice(0, 1), -1, 'small', 16, 14, vocab), 'one pixel nearer would overlap');
  });

  test('an object with no free place left is left out, with a note', () => {
    const tiny = { ...vocab, imageSize: 14 };
    const notes = [];
    const read = readScene('square.blue.large.7.7_circle.red.small.7.7', tiny, notes);
    assert.deepEqual(read, [{ shape: 'square', color: 'blue', size: 'large', x: 7, y: 7 }]);
    assert.match(String(notes[0]), /no free place for it; it is left out/);
  });
});

test('a new object goes to the free spot farthest from the others', () => {
  const spot = freeSpot(scene, 32);
  const nearest = Math.min(...scene.map((o) => Math.hypot(o.x - spot.x, o.y - spot.y)));
  assert.ok(nearest > 12, `${JSON.stringify(spot)} is ${nearest} px from an object`);
});

test('cells are named by column letter and row number, row 1 at the top', () => {
  assert.deepEqual(
    [0, 7, 8, 63].map((j) => cellName(j, 8)),
    ['a1', 'h1', 'a2', 'h8'],
  );
});
