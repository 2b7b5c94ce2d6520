// The Train view's configuration (in the link) and the trainer module's recipes for it, read by a
// helper Worker when the view opens: the sizes, steps and score functions a run will use.
import { errorText, readError } from '../../shared/lib/errors.js';
import { declareLink } from '../../shared/link/link.svelte.js';
import { translatorOf } from '../../shared/i18n/translate.js';
import { startTrainWorker } from './client.js';
import { offeredScores, trainableChosen } from './scores.js';
import { freshConfig, trainDefaults, trainLinkFields } from './train-link.js';
import trainDict from './strings.js';

const t = translatorOf(trainDict);

export const config = $state(freshConfig());
declareLink('train', trainLinkFields(config));

/** The trainer module's limits and tasks, read by a helper Worker when the Train view opens. */
export const trainer = $state({
  /** @type {'idle' | 'loading' | 'ready' | 'failed'} */
  status: 'idle',
  /** @type {import('@engine/trainer.js').TrainLimits | null} */
  limits: null,
  /** @type {Record<string, import('@engine/trainer.js').TaskRecipe[]>} encoder → the tasks' recipes */
  tasks: {},
  /** @type {Record<string, import('@engine/trainer.js').TaskRecipe>} encoder → the recipe for own pairs */
  pairs: {},
  /** @type {Record<string, import('@engine/trainer.js').TaskRecipe[]>} the same under the Transformer decoder */
  transformerTasks: {},
  /** @type {Record<string, import('@engine/trainer.js').TaskRecipe>} */
  transformerPairs: {},
  error: '',
});

let helper = /** @type {ReturnType<typeof startTrainWorker> | null} */ (null);
/** @type {(() => void)[]} what waits for the trainer's answer (own pairs typed before it came) */
const whenReady = [];

/** The helper Worker's API, once the trainer has answered (null before). */
export const trainerHelper = () => (trainer.status === 'ready' ? (helper?.api ?? null) : null);

/** Calls `then` once the trainer has answered (at once when it has). */
export function onTrainerReady(then) {
  if (trainer.status === 'ready') then();
  else whenReady.push(then);
}

/** Starts the helper Worker that reads the trainer's limits and tasks (once). */
export async function loadTrainer() {
  if (trainer.status !== 'idle') return;
  trainer.status = 'loading';
  helper = startTrainWorker('trainer-info');
  try {
    const info = await Promise.race([helper.api.info(), helper.failed]);
    trainer.limits = info.limits;
    trainer.tasks = info.tasks;
    trainer.pairs = info.pairs;
    trainer.transformerTasks = info.transformerTasks;
    trainer.transformerPairs = info.transformerPairs;
    trainer.status = 'ready';
    for (const then of whenReady.splice(0)) then();
  } catch (error) {
    trainer.status = 'failed';
    trainer.error = t('trainerFailed', { message: errorText(readError(error)) });
  }
}

/** The task's recipe from the trainer (its probe, steps, sizes, learning rate). */
export const taskInfo = (name, encoder = config.encoder) =>
  trainer.tasks[encoder]?.find((t) => t.name === name) ?? null;

/** The recipe the run starts from: the task's, or the one for own pairs. */
export const recipe = () =>
  config.data === 'task' ? taskInfo(config.task) : (trainer.pairs[config.encoder] ?? null);

/** The tasks TrainRun trains a Transformer decoder on (TrainConfig's task). */
const TEXT_TASKS = ['dates', 'zh', 'reverse'];

/**
 * The Transformer decoder's recipe for the chosen task or own pairs (null where it has none: the
 * picture and sound tasks, or before the trainer has answered).
 */
export function transformerRecipe() {
  if (config.data === 'pairs') return trainer.transformerPairs[config.encoder] ?? null;
  if (!TEXT_TASKS.includes(config.task)) return null;
  return trainer.transformerTasks[config.encoder]?.find((t) => t.name === config.task) ?? null;
}
const RECIPE_FIELD = {
  steps: 'defaultSteps',
  embed: 'embed',
  hidden: 'hidden',
  batch: 'batch',
  learningRate: 'learningRate',
};
/** A size or option as the run will use it: the one set here, else the recipe's (null before it is known). */
export function valueOf(field) {
  if (config[field] > 0) return config[field];
  const fromRecipe = Number(recipe()?.[RECIPE_FIELD[field]]);
  return Number.isFinite(fromRecipe) && fromRecipe > 0 ? fromRecipe : null;
}
export const stepsOf = () => valueOf('steps') ?? 0;

/**
 * The score functions the trainer trains for the chosen task or own pairs (the engine's task info:
 * the content-based ones and location), each with the styles it takes and whether the chosen style
 * is one; before the trainer has answered, the default race.
 * @returns {{ name: string, styles: string[], ok: boolean }[]}
 */
export const scoreOptions = () =>
  offeredScores(recipe()?.scores, config.style, trainDefaults.scores, transformerRecipe() !== null);
export const scoreKinds = () => scoreOptions().map((s) => s.name);
/** The chosen score functions this data and style can train: what Train starts, one run each. */
export const chosenScores = () => trainableChosen(scoreOptions(), config.scores);
