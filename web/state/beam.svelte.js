// Beam search over the current decode's input.
import { choice } from './choice.svelte.js';
import { decode } from './decode.svelte.js';
import { engineApi } from './engine.svelte.js';
import { latest } from './latest.js';

export const beam = $state({
  /** @type {'idle' | 'running' | 'ready' | 'error'} */
  status: 'idle',
  error: '',
  key: '',
  /** @type {import('../../wasm/playground').BeamResult | null} */
  result: null,
  /** the beam whose attention is shown */
  selected: 0,
});

const beamRuns = latest();

/** The beams of the current decode go stale with it: the next runBeam asks again. */
export function resetBeam() {
  beam.key = '';
}

export async function runBeam() {
  if (decode.status !== 'ready') return;
  const key = `${decode.key}|${choice.beamWidth}`;
  if (beam.key === key) return;
  const current = beamRuns();
  beam.key = key;
  beam.status = 'running';
  try {
    const result = await engineApi().beam(decode.name, choice.beamWidth);
    if (!current()) return;
    Object.assign(beam, { status: 'ready', error: '', result, selected: 0 });
  } catch (error) {
    if (!current()) return;
    Object.assign(beam, { status: 'error', error: String(error?.message ?? error), result: null });
  }
}
