// The τ slider's scale (web/features/decode/temperature-scale.js) over the engine's float32 limits:
// both ends reachable by a range input (min + k·step), and mapped onto the limits exactly.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { temperatureScale } from '../../../../web/features/decode/temperature-scale.js';

const MIN = Math.fround(1e-3); // 0.0010000000474974513, as limits() gives it
const MAX = Math.fround(1e3);

test('the slider’s ends are on its grid, so the top is τ = 1000, not 10^2.99 ≈ 977', () => {
  const s = temperatureScale(MIN, MAX);
  assert.deepEqual([s.min, s.max, s.step], [-3, 3, 0.01]);
  const stepsAcross = (s.max - s.min) / s.step;
  assert.ok(Math.abs(stepsAcross - Math.round(stepsAcross)) < 1e-9, 'max = min + k·step');
  assert.equal(s.tau(s.max), MAX);
  assert.equal(s.tau(s.min), MIN);
  assert.equal(s.tau(0), 1);
  assert.equal(s.tau(2.99), 977);
  assert.equal(s.tau(-0.3), 0.501);
  assert.equal(s.position(MAX), 3);
});
