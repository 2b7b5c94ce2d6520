// Beam search over the current decode's input (its session in the engine).
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

export async function runBeam() {
  if (decode.status !== 'ready' || decode.session === null) return;
  // A new decode is a new session: its beams are searched afresh.
  const key = `${decode.session}|${choice.beamWidth}`;
  if (beam.key === key) return;
  const current = beamRuns();
  beam.key = key;
  beam.status = 'running';
  try {
    const result = await engineApi().beam(decode.session, choice.beamWidth);
    if (!current()) return;
    Object.assign(beam, { status: 'ready', error: '', result, selected: 0 });
  } catch (error) {
    if (!current()) return;
    Object.assign(beam, { status: 'error', error: String(error?.message ?? error), result: null });
  }
}
