// Beam search over the current decode's input (its session in the engine), with the decode's
// what-ifs (each beam at step i gets step i's mask, pin and τ, applied by the engine) unless the
// person asked to see the model's own beams.
import { choice } from '../../shared/text/choice.svelte.js';
import { decode } from '../../shared/text/decode.svelte.js';
import { declareLink } from '../../shared/link/link.svelte.js';
import { engineApi, models } from '../../shared/engine/engine.svelte.js';
import { latest } from '../../shared/lib/latest.js';
import { activeWhatIfs, whatIfRequest } from '../../shared/text/whatif.svelte.js';

export const beam = $state({
  /** @type {'idle' | 'running' | 'ready' | 'error'} */
  status: 'idle',
  error: '',
  key: '',
  /** the what-ifs the result was searched with ('' for none), as the engine got them */
  whatIfKey: '',
  /** @type {import('../../../wasm/playground').BeamResult | null} */
  result: null,
  /** the beam whose attention is shown */
  selected: 0,
  /** search with the decode's what-ifs (false: the model's own beams, to compare); bwi=0 in the link */
  useWhatIfs: true,
});
// left out of the link while on (the default), so only a link to the model's own beams carries it
declareLink('beam', [
  {
    key: 'bwi',
    get: () => beam.useWhatIfs,
    set: (on) => (beam.useWhatIfs = on),
    parse: (text) => ({ value: text !== '0' }),
    format: (on) => (on ? '1' : '0'),
  },
]);

const beamRuns = latest();

/**
 * The what-ifs the Beam view's search takes now: the decode's, unless switched off or the model
 * has no attention to change (its decode takes none either).
 * @returns {import('../../shared/text/whatif-link.js').WhatIf[]}
 */
export function beamWhatIfs() {
  const attends = models[decode.name]?.info?.score !== 'none';
  return beam.useWhatIfs && attends ? activeWhatIfs() : [];
}

export async function runBeam() {
  if (decode.status !== 'ready' || decode.session === null) return;
  // A new decode is a new session: its beams are searched afresh.
  const key = `${decode.session}|${choice.beamWidth}`;
  const request = /** @type {import('../../../wasm/playground').BeamWhatIfs | undefined} */ (
    beamWhatIfs().length
      ? whatIfRequest(models[decode.name]?.info?.dims?.decoder === 'transformer')
      : undefined
  );
  const whatIfKey = request ? JSON.stringify(request) : '';
  if (beam.key === key && beam.whatIfKey === whatIfKey) return;
  const current = beamRuns();
  Object.assign(beam, { key, whatIfKey, status: 'running' });
  try {
    const result = await engineApi().beam(decode.session, choice.beamWidth, request);
    if (!current()) return;
    Object.assign(beam, { status: 'ready', error: '', result, selected: 0 });
  } catch (error) {
    if (!current()) return;
    Object.assign(beam, { status: 'error', error: String(error?.message ?? error), result: null });
  }
}
