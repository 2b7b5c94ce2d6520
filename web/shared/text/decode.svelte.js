// The current decode: the chosen input through the chosen model (greedy, with the forced tokens
// and the what-ifs), the stepper over its steps, and the text views' part of the link.
import {
  choice,
  currentModelName,
  inputProblem,
  keepEncoderShipped,
  keepLinkedModelShipped,
} from './choice.svelte.js';
import { task as taskOf } from './tasks.js';
import { availableModels, engine, engineApi, loadModel, models } from '../engine/engine.svelte.js';
import { isInputError, readError } from '../lib/errors.js';
import { latest } from '../lib/latest.js';
import { declareLink } from '../link/link.svelte.js';
import { noteLink } from '../link/notes.svelte.js';
import { Stepper } from '../stepping/stepper.svelte.js';
import { Text } from '../i18n/translate.js';
import linksDict from '../link/strings.js';
import { activeWhatIfs, clearWhatIfs, dropRefusedWhatIfs, whatIfRequest } from './whatif.svelte.js';
import { textLinkFields } from './decode-link.js';

export const decode = $state({
  /** @type {'idle' | 'running' | 'ready' | 'error'} */
  status: 'idle',
  error: '',
  /** @type {import('../lib/errors.js').Failure | null} the engine's error, by code */
  failure: null,
  /** @type {'' | 'input' | 'model' | 'engine'} what the error is about: the text, the checkpoint, or neither */
  kindOfError: '',
  /** the request the result belongs to */
  key: '',
  name: '',
  /** the input of the decode shown (the one typed since may not decode) */
  input: '',
  /** @type {string[]} */
  sourceTokens: [],
  /** @type {import('../../../wasm/playground').StepRecord[]} */
  steps: [],
  /** @type {string[]} */
  output: [],
  outputText: '',
  /** @type {import('../../../wasm/playground').Confidence | null} how sure the model was of its output */
  confidence: null,
  /** @type {import('../../../wasm/playground').Confidence[]} the confidence so far, after each step */
  confidenceByStep: [],
  /** @type {import('../../../wasm/playground').Matrix | null} */
  encoderStates: null,
  /** @type {import('../engine/engine').SessionId | null} the engine's session of this decode (beams, exports) */
  session: null,
});

/** The decode's stepper (the step shown in Decode, and the step Compare and the tour speak of). */
export const stepper = new Stepper(() => decode.steps.length);

/** Whether Decode shows the output not decoded yet (greyed) after the current step. */
export const output = $state({ reveal: false });

// The step the link asked for, until the first decode says whether there is such a step.
let linkedStep = /** @type {number | null} */ (null);

declareLink('text', textLinkFields({ choice, stepper, output, remember: (step) => (linkedStep = step) }), {
  afterRead: (_, notes) => keepLinkedModelShipped(notes),
});

const decodeKey = (name, input, forces, whatIfs) => JSON.stringify([name, input, forces, whatIfs]);
const decodeRuns = latest();

/**
 * Starts loading the chosen model while the engine itself still loads: its checkpoint's fetch then
 * overlaps with fetching and compiling the engine, instead of following it (`runDecode` finds it loaded).
 */
export function prepareDecode() {
  void loadModel(currentModelName());
}

/**
 * Cuts an input longer than the engine decodes (limits.hpp's max_input_chars, in code points, the
 * input box's maxlength too) to that length, with a note: only a link can bring one, since the box
 * takes no more. Whether it cut (the decode then follows from the change of input).
 */
function fitInput() {
  const most = engine.limits?.maxInputChars;
  if (!most || choice.input.length <= most) return false;
  const chars = [...choice.input];
  if (chars.length <= most) return false;
  choice.input = chars.slice(0, most).join('');
  noteLink(new Text(linksDict, 'inputCut', { n: most }));
  return true;
}

/** Decodes the chosen input with the chosen model (greedy, with the forced tokens). */
export async function runDecode() {
  if (fitInput()) return;
  const name = currentModelName();
  const { input, forces } = choice;
  const key = decodeKey(name, input, forces, activeWhatIfs());
  if (decode.key === key) return;
  const current = decodeRuns();
  decode.key = key;
  const problem = inputProblem(input);
  if (problem) {
    Object.assign(decode, {
      status: 'error',
      error: problem,
      failure: { code: 'empty_input', message: problem, details: {} },
      kindOfError: 'input',
    });
    return;
  }
  decode.status = 'running';
  await loadModel(name);
  if (!current()) return;
  const loaded = models[name];
  if (loaded?.status !== 'ready') {
    Object.assign(decode, {
      status: 'error',
      error: loaded?.error ?? 'the model did not load',
      failure: null,
      kindOfError: 'model',
    });
    return;
  }
  // Forced token ids come from clicks on real tokens, or from a link: one the model does not
  // have is dropped, and the link note says so (the rerun of the decode follows from the change).
  const size = loaded.info?.tgtVocab.length ?? Infinity;
  const unknown = forces.filter(([, id]) => id >= size);
  if (unknown.length) {
    const [step, id] = unknown[0];
    const kept = forces.filter(([, id]) => id < size);
    noteLink(
      new Text(linksDict, kept.length ? 'forceKept' : 'forceGreedy', {
        id,
        step: step + 1,
        model: name,
        size,
        last: size - 1,
      }),
    );
    choice.forces = kept;
    return;
  }
  try {
    const api = engineApi();
    // A model without attention has nothing to mask or pin: it decodes as it is; only a
    // Transformer decoder has heads for the head what-ifs.
    const whatIfs =
      loaded.info?.score === 'none' ? {} : whatIfRequest(loaded.info?.dims?.decoder === 'transformer');
    const result = await api.decode(name, input, { topK: 5, forces: $state.snapshot(forces), ...whatIfs });
    if (!current()) {
      if (result.session !== null) api.closeSession(result.session);
      return;
    }
    // This decode replaces the one shown: its session is no longer needed.
    const previous = decode.session;
    Object.assign(decode, {
      status: 'ready',
      error: '',
      failure: null,
      kindOfError: '',
      name,
      input,
      ...result,
    });
    if (previous !== null) api.closeSession(previous);
    stepper.clamp();
    if (linkedStep !== null && linkedStep > result.steps.length - 1)
      noteLink(
        new Text(linksDict, 'stepPast', { asked: linkedStep, step: linkedStep + 1, n: result.steps.length }),
      );
    linkedStep = null;
  } catch (error) {
    if (!current()) return;
    const failure = readError(error);
    if (refusedWhatIf(failure)) return dropRefusedWhatIfs(failure.message);
    Object.assign(decode, {
      status: 'error',
      error: failure.message,
      failure,
      kindOfError: isInputError(failure) ? 'input' : 'engine',
    });
  }
}

// The names Session.whatIf gives its refusals (a linked mask past the input, τ out of range, …).
const WHAT_IF_ARGUMENTS =
  /^(whatIf|mask|unmask|pin(\[\d+\])?|weights|source_index|temperature|head(Mask|Unmask|Pin|Off|On)(\[\d+\])?|layer|head)$/;
const refusedWhatIf = (failure) =>
  failure.code === 'bad_argument' &&
  activeWhatIfs().length > 0 &&
  WHAT_IF_ARGUMENTS.test(String(failure.details?.name ?? ''));

/** What-if: take `tokenId` at step `index`; the forced tokens after it are dropped. */
export function forceToken(index, tokenId) {
  choice.forces = [...choice.forces.filter(([i]) => i < index), [index, tokenId]];
  stepper.step = index;
}

export function clearForces() {
  choice.forces = [];
}

export function setInput(text) {
  choice.input = text;
  choice.forces = [];
  stepper.step = 0;
}

// Typing: the input is taken once the keys pause for 250 ms (Enter takes it at once).
let typing;
export function setInputSoon(text) {
  clearTimeout(typing);
  typing = setTimeout(() => setInput(text), 250);
}
export function setInputNow(text) {
  clearTimeout(typing);
  setInput(text);
}

/** Replaces the word `word` of the input by `by` (an unknown word by the engine's suggestion). */
export function replaceInputWord(word, by) {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  setInputNow(choice.input.replace(new RegExp(`(^|\\s)${escaped}(?=\\s|$)`), `$1${by}`));
}

export function setTask(taskId) {
  if (choice.task === taskId && !choice.trained) return;
  choice.trained = '';
  choice.task = taskId;
  const shipped = availableModels(taskId);
  if (shipped.length && !shipped.some((m) => m.score === choice.score && m.style === choice.style))
    Object.assign(choice, shipped.find((m) => m.score === choice.score) ?? shipped[0]);
  keepEncoderShipped();
  setInput(taskOf(taskId).examples[0]);
}

/** Reset: greedy decoding again (no forced tokens or what-ifs, so none in the link either), at step 1. */
export function resetDecode() {
  stepper.playing = false;
  choice.forces = [];
  clearWhatIfs();
  stepper.step = 0;
}

/** The engine's trace JSON of the current decode. */
export async function exportTraceJson() {
  if (decode.session === null) throw new Error('there is no decode to export');
  return engineApi().exportJson(decode.session);
}

/** Step `step` (from 0) of the current decode as the engine's Python file that recomputes it with NumPy. */
export async function exportStepPython(step) {
  if (decode.session === null) throw new Error('there is no decode to export');
  return engineApi().reproduce(decode.session, step, decode.name, decode.input);
}

/** Whether the decode's steps have one alignment a script can reproduce: a GRU decoder with attention. */
export const reproducible = () =>
  decode.steps[0]?.contextFrom === 'weights' && decode.steps[0]?.decoder === 'gru';
