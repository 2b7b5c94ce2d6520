// The guided tour: which stop is open, and setting the page to a stop. A stop sets the page's own
// state (the choice, the stepper, the sandbox, the self-attention view) from its link's fields,
// read by readDecodeUrl as a shared link would be, so what the person sees is an ordinary state of
// the page: leaving the tour keeps it, and they explore from there.
import dict from './strings.js';
import { Text } from '../../shared/i18n/translate.js';
import { linkedStop, STOPS } from './stops.js';
import { stepOf } from './facts.js';
import { choice, nav } from '../../shared/text/choice.svelte.js';
import { decode } from '../../shared/text/decode.svelte.js';
import { decodeDefaults } from '../../shared/text/initial.js';
import { syncUrl } from '../../shared/link/link.svelte.js';
import { noteLink } from '../../shared/link/notes.svelte.js';
import { resetSandbox } from '../sandbox/sandbox.svelte.js';
import { selfAttention } from '../self/self-attention.svelte.js';
import { hashParts, readDecodeUrl } from '../../shared/link/url.js';
import { activeWhatIfs, clearWhatIfs } from '../../shared/text/whatif.svelte.js';

// The stop the person was last at, so "resume" survives a reload (not part of the link: the link
// of a page outside the tour says nothing about the tour).
const SAVED = 'apg-tour-stop';

function savedStop() {
  try {
    const n = Number(localStorage.getItem(SAVED));
    return localStorage.getItem(SAVED) !== null && Number.isInteger(n) && n >= 0 && n < STOPS.length ? n : -1;
  } catch {
    return -1; // storage refused (a private window's policy): no resume after a reload
  }
}
function saveStop(n) {
  try {
    if (n < 0) localStorage.removeItem(SAVED);
    else localStorage.setItem(SAVED, String(n));
  } catch {
    // as above
  }
}

export const tour = $state({
  open: false,
  /** the stop shown, from 0 */
  stop: 0,
  /** the stop to resume at, -1 for none */
  last: savedStop(),
  /** how many times a stop was set up: the panel scrolls to the stop's element after each */
  applied: 0,
  /** a token whose first step the stepper moves to once the stop's decode is there */
  pendingToken: '',
});

export const stopCount = STOPS.length;

/** The page's state a stop sets, as readDecodeUrl reads its link. */
export function stopState(index) {
  const stop = STOPS[index];
  const { link } = stop;
  return {
    stop,
    link,
    state: readDecodeUrl(`#${new URLSearchParams(link)}`, decodeDefaults),
  };
}

function apply(index) {
  const { stop, link, state } = stopState(index);
  nav.playing = false;
  Object.assign(choice, {
    trained: '',
    task: state.task,
    score: state.score,
    style: state.style,
    encoder: state.encoder,
    input: state.input,
    forces: [],
    beamWidth: state.beamWidth,
  });
  // the stops' texts are about the models as trained: no masked token, pin or temperature
  clearWhatIfs();
  nav.step = state.step;
  nav.reveal = state.reveal;
  nav.view = state.view;
  if (link.sa) [selfAttention.layer, selfAttention.head, selfAttention.token] = state.selfAttention;
  if (stop.sandbox) resetSandbox();
  tour.pendingToken = stop.findToken ?? '';
  tour.applied += 1;
}

/** Opens the tour at stop `index` (from 0) and sets the page to it. */
export function goToStop(index) {
  const n = Math.max(0, Math.min(index, STOPS.length - 1));
  Object.assign(tour, { open: true, stop: n, last: n });
  saveStop(n);
  apply(n);
  syncUrl();
}

/** Sets the current stop up again (after the person changed it). */
export const redoStop = () => goToStop(tour.stop);

/** Closes the panel; the page keeps the state the stop set, and the tour can be resumed there. */
export function leaveTour() {
  tour.open = false;
  tour.pendingToken = '';
  syncUrl();
}

/** After the last stop: closed, and the next start is from stop 1. */
export function finishTour() {
  leaveTour();
  tour.last = -1;
  saveStop(-1);
}

/** Whether the page still shows what the current stop set (the view, the model and the input). */
export function atStop(index = tour.stop) {
  const { link, state } = stopState(index);
  if (nav.view !== state.view) return false;
  // a stop that names no model (the sandbox, the length chart) is about its view alone
  if (!link.model) return state.view === 'sandbox' || choice.task === state.task;
  return (
    !choice.trained &&
    choice.task === state.task &&
    choice.score === state.score &&
    choice.style === state.style &&
    choice.encoder === state.encoder &&
    choice.input === state.input &&
    choice.forces.length === 0 &&
    activeWhatIfs().length === 0 &&
    choice.beamWidth === state.beamWidth
  );
}

/** Once the stop's decode is there: the stepper to the first step that wrote the stop's token. */
export function settleStep() {
  const token = tour.pendingToken;
  if (!token || decode.status !== 'ready' || !atStop()) return;
  const { state } = stopState(tour.stop);
  if (decode.input !== state.input || !decode.name.startsWith(`${state.task}-${state.score}-${state.style}`))
    return;
  tour.pendingToken = '';
  const i = stepOf(decode.steps, token);
  if (i >= 0) nav.step = i;
}

hashParts.push(() => (tour.open ? [['tour', String(tour.stop + 1)]] : []));

// A link's tour=N opens stop N. A bare "#tour=3" (no view in it) also sets the page to the stop;
// a link copied inside the tour holds the whole state already, which may have been explored.
if (typeof location !== 'undefined') {
  const asked = linkedStop(location.hash);
  const params = new URLSearchParams(location.hash.slice(1));
  if (asked !== null && Number.isNaN(asked))
    noteLink(
      new Text(dict, 'badStop', { asked: String(params.get('tour')).slice(0, 20), total: STOPS.length }),
    );
  else if (asked !== null) {
    Object.assign(tour, { open: true, stop: asked, last: asked });
    saveStop(asked);
    if (!params.has('view')) apply(asked);
  }
}
