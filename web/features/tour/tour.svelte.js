// The guided tour: which stop is open, and setting the page to a stop. A stop sets the page's own
// state from its link's fields, read by the link (web/shared/link) as a shared link would be, so
// what the person sees is an ordinary state of the page: leaving the tour keeps it, and they
// explore from there.
import dict from './strings.js';
import { Text } from '../../shared/i18n/translate.js';
import { linkedStop, STOPS } from './stops.js';
import { stepOf } from './facts.js';
import { choice } from '../../shared/text/choice.svelte.js';
import { decode, stepper } from '../../shared/text/decode.svelte.js';
import { activeWhatIfs } from '../../shared/text/whatif.svelte.js';
import { declareLink, linkValues, readLink } from '../../shared/link/link.svelte.js';
import { page } from '../../shared/view.svelte.js';
import { platform } from '../../shared/platform.js';

// The stop the person was last at, so "resume" survives a reload (not part of the link: the link
// of a page outside the tour says nothing about the tour).
const SAVED = 'apg-tour-stop';

function savedStop() {
  try {
    const text = platform.storage?.getItem(SAVED) ?? null;
    const n = Number(text);
    return text !== null && Number.isInteger(n) && n >= 0 && n < STOPS.length ? n : -1;
  } catch {
    return -1; // storage refused (a private window's policy): no resume after a reload
  }
}
function saveStop(n) {
  try {
    if (n < 0) platform.storage?.removeItem(SAVED);
    else platform.storage?.setItem(SAVED, String(n));
  } catch {
    // as above
  }
}

export const tour = $state({
  open: false,
  /** a first visit (no link, no tour begun, the welcome not dismissed): Decode points to the tour */
  welcome: false,
  /** the stop shown, from 0 */
  stop: 0,
  /** the stop to resume at, -1 for none */
  last: -1,
  /** how many times a stop was set up: the panel scrolls to the stop's element after each */
  applied: 0,
  /** a token whose first step the stepper moves to once the stop's decode is there */
  pendingToken: '',
});

/** The stop to resume at, from this browser's storage (main.js, once the platform is installed). */
export function readSavedStop() {
  if (!tour.open) tour.last = savedStop();
}

// Set once the welcome was answered (the tour started, or "not now"): it is not shown again.
const WELCOMED = 'apg-welcomed';

/**
 * Whether to point a newcomer to the tour: on a first visit, i.e. the page opened without a link
 * (`plain`), in a browser that has neither begun the tour nor answered the welcome before.
 * @param {boolean} plain the page's address has no state in its hash
 */
export function readWelcome(plain) {
  tour.welcome = plain && !welcomed() && savedStop() < 0 && !tour.open;
}

/** Whether this browser answered the welcome; true where storage is refused (no way to remember "not now"). */
function welcomed() {
  try {
    const storage = platform.storage;
    return !storage || storage.getItem(WELCOMED) !== null;
  } catch {
    return true;
  }
}

/** The welcome answered: hidden, and not shown again in this browser. */
export function dismissWelcome() {
  tour.welcome = false;
  try {
    platform.storage?.setItem(WELCOMED, '1');
  } catch {
    // as above
  }
}

export const stopCount = STOPS.length;

/** The parts of the page a stop's link sets: its view and text choice, and the sandbox or the layers it names. */
const stopGroups = (stop) => [
  'view',
  'text',
  'whatif',
  'trained',
  ...(stop.link.sa ? ['self'] : []),
  ...(stop.sandbox ? ['sandbox'] : []),
];
const stopLink = (stop) => `#${new URLSearchParams(stop.link)}`;

/** The page's state a stop sets, as the link reads it. */
export function stopState(index) {
  const stop = STOPS[index];
  const values = linkValues(stopLink(stop), stopGroups(stop));
  return {
    stop,
    link: stop.link,
    state: {
      view: values.view,
      task: values.task,
      ...values.model,
      input: values.input,
      step: values.step,
      beamWidth: values.k,
    },
  };
}

function apply(index) {
  const stop = STOPS[index];
  stepper.playing = false;
  // the stops' texts are about the models as trained: no masked token, pin or temperature
  readLink(stopLink(stop), { groups: stopGroups(stop) });
  tour.pendingToken = stop.findToken ?? '';
  tour.applied += 1;
}

/** Opens the tour at stop `index` (from 0) and sets the page to it. */
export function goToStop(index) {
  if (tour.welcome) dismissWelcome();
  const n = Math.max(0, Math.min(index, STOPS.length - 1));
  Object.assign(tour, { open: true, stop: n, last: n });
  saveStop(n);
  apply(n);
}

/** Sets the current stop up again (after the person changed it). */
export const redoStop = () => goToStop(tour.stop);

/** Closes the panel; the page keeps the state the stop set, and the tour can be resumed there. */
export function leaveTour() {
  tour.open = false;
  tour.pendingToken = '';
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
  if (page.view !== state.view) return false;
  // a stop that names no model (the sandbox, the length chart) is about its view alone
  if (!link.model) return state.view === 'sandbox' || choice.task === state.task;
  return (
    !choice.trained &&
    choice.task === state.task &&
    choice.score === state.score &&
    choice.style === state.style &&
    choice.encoder === state.encoder &&
    choice.decoder === state.decoder &&
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
  if (i >= 0) stepper.step = i;
}

// A link's tour=N opens stop N. A bare "#tour=3" (no view in it) also sets the page to the stop;
// a link copied inside the tour holds the whole state already, which may have been explored.
declareLink(
  'tour',
  [
    {
      key: 'tour',
      get: () => (tour.open ? tour.stop + 1 : 0),
      set: (n) => {
        if (n <= 0) return void (tour.open = false);
        Object.assign(tour, { open: true, stop: n - 1, last: n - 1 });
        saveStop(n - 1);
      },
      parse: (text) => {
        const asked = linkedStop(`#${new URLSearchParams({ tour: text })}`);
        return asked === null || Number.isNaN(asked)
          ? { value: 0, note: new Text(dict, 'badStop', { asked: text.slice(0, 20), total: STOPS.length }) }
          : { value: asked + 1 };
      },
      fallback: () => 0,
    },
  ],
  {
    afterRead: (params) => {
      if (params.has('tour') && !params.has('view') && tour.open) apply(tour.stop);
    },
  },
);
