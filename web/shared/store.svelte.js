// The one object the components read: each feature's state, from the module that owns it
// (engine, choice, decode, compare, beam, self-attention, sandbox). Only those modules talk to the
// engine; every number shown comes from an engine answer.
import { beam } from '../features/beam/beam.svelte.js';
import { choice, nav } from './text/choice.svelte.js';
import { compare, compareDiff } from '../features/compare/compare.svelte.js';
import { decode } from './text/decode.svelte.js';
import { engine, models } from './engine/engine.svelte.js';
import { sandbox } from '../features/sandbox/sandbox.svelte.js';
import { selfAttention } from '../features/self/self-attention.svelte.js';

export const store = {
  engine,
  /** model name → { status, info, error } */
  models,
  /** what the person chose for decoding */
  choice,
  /** the current decode: the engine's answer for `choice` */
  decode,
  /** the same input through the other models, by name */
  compare,
  compareDiff,
  beam,
  selfAttention,
  sandbox,
  /** the view shown: decode, compare, beam, self or sandbox */
  get view() {
    return nav.view;
  },
  set view(view) {
    nav.view = view;
  },
  /** the decoding step shown */
  get step() {
    return nav.step;
  },
  set step(step) {
    nav.step = step;
  },
  get playing() {
    return nav.playing;
  },
  set playing(playing) {
    nav.playing = playing;
  },
  /** whether the output not decoded yet is shown */
  get reveal() {
    return nav.reveal;
  },
  set reveal(reveal) {
    nav.reveal = reveal;
  },
  /** ms per step while playing */
  get speed() {
    return nav.speed;
  },
  set speed(speed) {
    nav.speed = speed;
  },
};
