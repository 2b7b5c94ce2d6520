// The decode's what-ifs (masks, unmasks, pins, temperatures; whatif-link.js has their form), kept with the input they were set on: a new input (or task) has other source tokens, so
// its decode takes none, and the next what-if starts a fresh list. A model change keeps them: the
// source tokens are the same. The engine applies them (Session.whatIf); the page never recomputes
// an intervened number, it only says which steps a what-if changed.
import dict from './whatif-strings.js';
import { Text } from '../i18n/translate.js';
import { formatFloat32, formatNumber, showToken } from '../lib/format.js';
import { choice } from './choice.svelte.js';
import { translator } from '../i18n/locale.svelte.js';
import { declareLink } from '../link/link.svelte.js';
import { noteLink } from '../link/notes.svelte.js';
import { decodeOptions, parseWhatIfs, writeWhatIfs } from './whatif-link.js';

const t = translator(dict);

export const whatif = $state({
  /** @type {import('./whatif-link.js').WhatIf[]} in the order set */
  items: [],
  /** the input the items belong to */
  input: choice.input,
});

/** The what-ifs of the input shown (none once the input changed). */
export const activeWhatIfs = () => (whatif.input === choice.input ? whatif.items : []);

/** What the engine Worker's decode takes for the active what-ifs. */
export const whatIfRequest = (heads = true) => decodeOptions($state.snapshot(activeWhatIfs()), heads);

// A link's what-ifs belong to the link's input (read before them). The notes are kept as Texts:
// they stay on screen across a switch of language.
declareLink('whatif', [
  {
    key: 'wi',
    get: () => activeWhatIfs(),
    set: (items) => Object.assign(whatif, { items, input: choice.input }),
    parse: (text) => parseWhatIfs(text, (key, params) => new Text(dict, key, params)),
    format: writeWhatIfs,
    fallback: () => [],
  },
]);

/** Changes the active what-ifs: `change` maps the list to the new one (a new input starts afresh). */
export function editWhatIfs(change) {
  if (whatif.input !== choice.input) {
    whatif.input = choice.input;
    whatif.items = [];
  }
  whatif.items = change(whatif.items);
}

/** Masks source token `j` from `step` on, or (when it is masked there) takes the mask back. */
export function toggleMask(step, j, maskedNow) {
  const [same, opposite] = maskedNow ? ['mask', 'unmask'] : ['unmask', 'mask'];
  editWhatIfs((items) => {
    const here = items.findIndex((w) => w.kind === same && w.step === step && w.token === j);
    if (here >= 0) return items.filter((_, k) => k !== here);
    return [...items, { kind: opposite, step, token: j }];
  });
}

/** Pins `step`'s attention one-hot on source token `j` (again: the pin is taken back). */
export function pinToken(step, j) {
  editWhatIfs((items) => {
    const again = items.some((w) => w.kind === 'pin' && w.step === step && 'token' in w && w.token === j);
    const rest = items.filter((w) => !(w.kind === 'pin' && w.step === step));
    return again ? rest : [...rest, { kind: 'pin', step, token: j }];
  });
}

/** Pins `step`'s attention to `weights` as given: the engine divides them by their sum. */
export function pinWeights(step, weights) {
  editWhatIfs((items) => [
    ...items.filter((w) => !(w.kind === 'pin' && w.step === step)),
    { kind: 'pin', step, weights: [...weights] },
  ]);
}

export function unpin(step) {
  editWhatIfs((items) => items.filter((w) => !(w.kind === 'pin' && w.step === step)));
}

/** The attention temperature τ from `step` on (replacing one set at that step). */
export function setTemperature(step, tau) {
  editWhatIfs((items) => {
    const rest = items.filter((w) => !(w.kind === 'temperature' && w.step === step));
    const before = rest
      .filter((w) => w.kind === 'temperature' && w.step < step)
      .sort((a, b) => a.step - b.step);
    const inEffect = before.length ? /** @type {any} */ (before[before.length - 1]).tau : 1;
    return tau === inEffect ? rest : [...rest, { kind: 'temperature', step, tau }];
  });
}

export function removeWhatIf(index) {
  editWhatIfs((items) => items.filter((_, k) => k !== index));
}

export function clearWhatIfs() {
  whatif.items = [];
}

/**
 * The engine refused a what-if of the link (a source position past the input, τ outside its
 * range): the note gives its message and the decode runs without them.
 */
export function dropRefusedWhatIfs(message) {
  noteLink(new Text(dict, 'refused', { message }));
  whatif.items = [];
}

/** One what-if in words (the list under the controls, Compare's note). */
export function describeWhatIf(/** @type {import('./whatif-link.js').WhatIf} */ w, sourceTokens) {
  const token = (j) => showToken(sourceTokens[j] ?? `#${j}`);
  const step = w.step + 1;
  if ('layer' in w) {
    const head = `${w.layer + 1}.${w.head + 1}`;
    if (w.kind === 'headOff' || w.kind === 'headOn')
      return t(w.kind === 'headOff' ? 'itemHeadOff' : 'itemHeadOn', { head, step });
    if ('weights' in w)
      return t('itemHeadPinWeights', {
        head,
        step,
        weights: w.weights.map((x) => formatNumber(x)).join(', '),
      });
    const key =
      w.kind === 'headMask' ? 'itemHeadMask' : w.kind === 'headUnmask' ? 'itemHeadUnmask' : 'itemHeadPin';
    return t(key, { head, token: token('token' in w ? w.token : -1), step });
  }
  if (w.kind === 'temperature') return t('itemTemperature', { tau: formatFloat32(w.tau), step });
  if ('weights' in w)
    return t('itemPinWeights', { step, weights: w.weights.map((x) => formatNumber(x)).join(', ') });
  const key = w.kind === 'mask' ? 'itemMask' : w.kind === 'unmask' ? 'itemUnmask' : 'itemPin';
  return t(key, { token: token(w.token), step });
}

/**
 * What a what-if did to this step, from the engine's record: the masked tokens, the pin, τ ≠ 1
 * ('' for a step no what-if changed).
 * @param {import('../../../wasm/playground').StepRecord | null} record
 * @param {string[]} sourceTokens
 */
export function whatIfMark(record, sourceTokens) {
  if (!record?.intervened) return '';
  const parts = [];
  if (record.pin === 'token') {
    const j = record.weights ? record.weights.indexOf(1) : -1;
    parts.push(t('markPinned', { token: showToken(sourceTokens[j] ?? '') }));
  } else if (record.pin === 'weights') parts.push(t('markPinnedWeights'));
  const masked = record.masked ? sourceTokens.filter((_, j) => record.masked?.[j]) : [];
  if (masked.length)
    parts.push(t('markMasked', { tokens: masked.map((token) => `“${showToken(token)}”`).join(' ') }));
  if (record.headOff || record.headPinned || record.headMasked) parts.push(t('markHeads'));
  if (record.temperature !== 1) parts.push(t('markTemperature', { tau: formatFloat32(record.temperature) }));
  return parts.join(' · ');
}

// Compare shows the chosen model a second time with the what-ifs, under this name.
const WITH = '~whatif';
export const withWhatIfs = (name) => `${name}${WITH}`;
export const hasWhatIfs = (name) => name.endsWith(WITH);
export const baseModel = (name) => (hasWhatIfs(name) ? name.slice(0, -WITH.length) : name);
