// The one stepper of the stepping views (web/shared/stepping/stepper.svelte.js): the step stays
// within the answer's steps, play starts again from the first at the last and stops there, and
// its actions work taken off the object (a button's onclick takes them as they are).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { load } from '../../support/page.mjs';

const { Stepper } = await load('shared/stepping/stepper.svelte.js');

test('the step stays within the answer’s steps, whatever the answer', () => {
  let count = 4;
  const stepper = new Stepper(() => count);
  const { goTo, clamp } = stepper;
  goTo(9);
  assert.equal(stepper.step, 3);
  goTo(-2);
  assert.equal(stepper.step, 0);
  goTo(3);
  count = 2; // a new answer, shorter
  clamp();
  assert.equal(stepper.step, 1);
  count = 0; // no answer
  assert.equal(stepper.last, 0);
});

test('play: from the start when at the last step, one step each `speed`, stopping at the last', () => {
  const stepper = new Stepper(() => 3, { speed: 350 });
  assert.equal(stepper.speed, 350);
  const { togglePlay, advance } = stepper;
  stepper.goTo(2);
  togglePlay();
  assert.deepEqual([stepper.step, stepper.playing], [0, true]);
  advance();
  advance();
  assert.deepEqual([stepper.step, stepper.playing], [2, true]);
  advance();
  assert.deepEqual([stepper.step, stepper.playing], [2, false]);
  stepper.goTo(1);
  togglePlay();
  assert.deepEqual([stepper.step, stepper.playing], [1, true], 'from where it is');
  togglePlay();
  assert.equal(stepper.playing, false);
});
